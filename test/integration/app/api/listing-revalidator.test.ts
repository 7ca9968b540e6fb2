// Pipelined listing revalidations: right answers from the device, and every odd server turns into "ask again".
import { createServer, type Server, type Socket, type AddressInfo } from 'node:net';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { DeviceClient } from '../../../../app/api/device-client.ts';
import { ListingRevalidator, type Revalidation } from '../../../../app/api/listing-revalidator.ts';
import { walkRemote } from '../../../../app/sync/remote/remote-walk.ts';
import { clientFor, deviceClientAt } from '../../../helpers/api-client.ts';

const servers: Array<{ server: Server; sockets: Set<Socket> }> = [];

afterEach(async () => {
  // Kept-alive connections of the Transport would hold a closing server open.
  await Promise.all(
    servers.splice(0).map(({ server, sockets }) => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
});

/** A folder tree on the device: `count` folders with a file each; returns the root's id. */
async function tree(client: DeviceClient, count: number): Promise<string> {
  const root = await client.createFolder({ parentId: 'root', name: `revalidate-${Date.now()}-${count}` });
  for (let at = 0; at < count; at += 1) {
    const folder = await client.createFolder({ parentId: root.id, name: `f${at}` });
    await client.create({ parentId: folder.id, name: 'a.txt', content: Buffer.from(`${at}`) });
  }
  return root.id;
}

/**
 * A server speaking raw HTTP/1.1 that answers the requests of each connection through `answer`, which
 * sees each request's head (in the order they came) and returns the bytes to send, or null to close.
 */
async function rawServer(
  answer: (head: string, index: number, socket: Socket) => string | null,
): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    let index = 0;
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        const bytes = answer(head, index, socket);
        index += 1;
        if (bytes === null) {
          socket.destroy();
          return;
        }
        socket.write(bytes);
      }
    });
    socket.on('error', () => {});
  });
  servers.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const notModifiedFor = (head: string): string => {
  const eTag = /if-none-match: (.*)/i.exec(head)?.[1] ?? '';
  return `HTTP/1.1 304 Not Modified\r\nETag: ${eTag}\r\n\r\n`;
};

async function revalidateAll(
  client: DeviceClient,
  eTags: string[],
  connections?: number,
): Promise<Revalidation['kind'][]> {
  const revalidator = new ListingRevalidator(client, connections === undefined ? {} : { connections });
  try {
    const answers = await Promise.all(
      eTags.map((eTag, at) => revalidator.revalidate(`id${at}`, eTag, undefined)),
    );
    return answers.map((answer) => answer.kind);
  } finally {
    revalidator.close();
  }
}

describe('ListingRevalidator against the device', () => {
  it('says not-modified for unchanged folders and gives a changed one as the answer a request would have had', async ({
    device,
  }) => {
    const recorded = clientFor(device);
    const client = recorded.device;
    const rootId = await tree(client, 40);
    const walk = await walkRemote(client, rootId, { pipelined: false });
    const [changedId] = [...walk.cache.folders.keys()].filter((id) => id !== rootId);
    const changed = changedId as string;
    await client.create({ parentId: changed, name: 'b.txt', content: Buffer.from('new') });
    const before = recorded.requests().length;
    const revalidator = new ListingRevalidator(client);
    const answers = await Promise.all(
      [...walk.cache.folders].map(
        async ([id, listing]) => [id, await revalidator.revalidate(id, listing.eTag, undefined)] as const,
      ),
    );
    revalidator.close();
    // The folder changed, and so did its parent's listing (the folder's own eTag is in it).
    for (const [id, answer] of answers) {
      expect(answer.kind, id).toBe(id === changed || id === rootId ? 'answer' : 'not-modified');
    }
    const answered = answers.find(([id]) => id === changed)?.[1];
    if (answered?.kind !== 'answer') throw new Error('no answer for the changed folder');
    const viaRequest = await client.listAll(changed);
    const viaPipe = await client.listAll(changed, { firstPage: answered.response });
    expect(viaPipe).toEqual(viaRequest);
    // Each one is logged as the Transport logs its own: request counts stay honest.
    const logged = recorded.requests().slice(before, before + answers.length);
    expect(logged).toEqual(answers.map(() => 'GET /sdk/v2/filesSearch/parents'));
  });

  it('gives a walk the same result as one request per folder, one request per folder', async ({ device }) => {
    const recorded = clientFor(device);
    const client = recorded.device;
    const rootId = await tree(client, 30);
    const first = await walkRemote(client, rootId, { pipelined: false });
    const sub = [...first.cache.folders.keys()].find((id) => id !== rootId) as string;
    await client.create({ parentId: sub, name: 'c.txt', content: Buffer.from('c') });
    const before = recorded.requests().length;
    const pipelined = await walkRemote(client, rootId, { cache: first.cache });
    const requests = recorded.requests().slice(before);
    const oneByOne = await walkRemote(client, rootId, { cache: first.cache, pipelined: false });
    const byId = (walk: typeof pipelined): unknown[] =>
      [...walk.entries.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(pipelined)).toEqual(byId(oneByOne));
    expect([...pipelined.listed].sort()).toEqual([rootId, sub].sort());
    expect(pipelined.stats).toEqual({ listed: 2, notModified: 29, trusted: 0 });
    expect(requests.length).toBe(31);
  });
});

describe('ListingRevalidator against servers that do not play along', () => {
  it('asks again, and stops pipelining to that device, when a 304 names another ETag', async () => {
    const base = await rawServer(() => 'HTTP/1.1 304 Not Modified\r\nETag: "other"\r\n\r\n');
    const client = deviceClientAt(base);
    expect(await revalidateAll(client, ['"a"', '"b"', '"c"'])).toEqual([
      'ask-again',
      'ask-again',
      'ask-again',
    ]);
    expect(client.pipelinedRevalidation).toBe(false);
    expect(await revalidateAll(client, ['"d"'])).toEqual(['ask-again']);
  });

  it('asks again after garbage, and after more answers than requests', async () => {
    const garbage = deviceClientAt(await rawServer(() => 'SPDY/3 what\r\n\r\n'));
    expect(await revalidateAll(garbage, ['"a"', '"b"'])).toEqual(['ask-again', 'ask-again']);
    expect(garbage.pipelinedRevalidation).toBe(false);
    const doubled = deviceClientAt(await rawServer((head) => notModifiedFor(head).repeat(2)));
    const kinds = await revalidateAll(doubled, ['"a"', '"b"', '"c"']);
    expect(kinds).toContain('ask-again');
    expect(doubled.pipelinedRevalidation).toBe(false);
  });

  it('uses the answers it got from a server that closes the connection, and asks again for the rest', async () => {
    const base = await rawServer((head, index) =>
      index === 0 ? notModifiedFor(head).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n') : null,
    );
    const client = deviceClientAt(base);
    // All three were sent on the one connection before its first answer came.
    expect(await revalidateAll(client, ['"a"', '"b"', '"c"'], 1)).toEqual([
      'not-modified',
      'ask-again',
      'ask-again',
    ]);
    // Closing is allowed: the device is still pipelined to next time.
    expect(client.pipelinedRevalidation).toBe(true);
  });

  it('leaves anything but a 304 or a 200 to the Transport, and reads a 200 framed by chunks', async () => {
    const base = await rawServer((head, index) =>
      index === 0
        ? 'HTTP/1.1 503 Busy\r\nContent-Length: 4\r\nRetry-After: 1\r\n\r\nbusy'
        : index === 1
          ? 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: "l"\r\n\r\nd\r\n{"files":[],"\r\ne\r\npageToken":""}\r\n0\r\n\r\n'
          : notModifiedFor(head),
    );
    const client = deviceClientAt(base);
    const revalidator = new ListingRevalidator(client, { connections: 1 });
    const answers = await Promise.all(
      ['"a"', '"b"', '"c"'].map((eTag, at) => revalidator.revalidate(`id${at}`, eTag, undefined)),
    );
    revalidator.close();
    expect(answers.map((answer) => answer.kind)).toEqual(['ask-again', 'answer', 'not-modified']);
    const page = answers[1];
    if (page?.kind !== 'answer') throw new Error('expected an answer');
    expect(await client.listAll('id1', { firstPage: page.response })).toMatchObject({
      files: [],
      eTag: '"l"',
    });
  });

  it("makes a walk list again, one request at a time, when a pipelined answer holds another folder's children", async () => {
    const file = (parentID: string): string =>
      JSON.stringify({
        files: [
          {
            id: 'f1',
            parentID,
            name: 'a.txt',
            eTag: '"f1"',
            mimeType: 'text/plain',
            size: 1,
            mTime: '2026-11-24T00:00:00.000Z',
          },
        ],
        pageToken: '',
      });
    const base = await rawServer((head) => {
      // The revalidator asks for the bytes as they are; the Transport accepts compression.
      const pipelined = /accept-encoding: identity/i.test(head);
      const body = file(pipelined ? 'someone-else' : 'R');
      return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: "${pipelined ? 'x' : 'l'}"\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    });
    const client = deviceClientAt(base);
    const first = await walkRemote(client, 'R', { pipelined: false });
    const second = await walkRemote(client, 'R', { cache: first.cache });
    expect([...second.entries.values()]).toEqual([...first.entries.values()]);
    expect(second.entries.get('f1')?.parentId).toBe('R');
    expect(client.pipelinedRevalidation).toBe(false);
  });

  it('refills a connection in batches, not a request per answer, however the answers come', async () => {
    // The server answers one request per turn of its event loop, each in its own write, as the device
    // does; and counts its reads of each connection (a write of the client's is at most one read).
    const reads = new Map<Socket, number>();
    const queues = new Map<Socket, string[]>();
    const answerNext = (socket: Socket): void => {
      const head = queues.get(socket)?.shift();
      if (head === undefined || socket.destroyed) return;
      socket.write(notModifiedFor(head));
      setImmediate(() => answerNext(socket));
    };
    const base = await rawServer((head, index, socket) => {
      if (index === 0) {
        reads.set(socket, 1);
        queues.set(socket, []);
        socket.on('data', () => reads.set(socket, (reads.get(socket) ?? 0) + 1));
      }
      const queue = queues.get(socket) as string[];
      queue.push(head);
      if (queue.length === 1) setImmediate(() => answerNext(socket));
      return '';
    });
    const client = deviceClientAt(base);
    const eTags = Array.from({ length: 300 }, (_, at) => `"e${at}"`);
    const kinds = await revalidateAll(client, eTags);
    expect(kinds.every((kind) => kind === 'not-modified')).toBe(true);
    expect(reads.size).toBe(2);
    const total = [...reads.values()].reduce((sum, count) => sum + count, 0);
    // 32 requests at first on each connection, then 16 or more at a time: at most about 20 writes.
    expect(total).toBeLessThanOrEqual(30);
  });

  it('sends nothing where a token may not go, and asks again once the walk is aborted', async () => {
    const insecure = deviceClientAt('http://example.invalid');
    expect(await revalidateAll(insecure, ['"a"'])).toEqual(['ask-again']);
    const silent = await rawServer(() => '');
    const controller = new AbortController();
    const revalidator = new ListingRevalidator(deviceClientAt(silent), { signal: controller.signal });
    const waiting = revalidator.revalidate('id', '"a"', undefined);
    setTimeout(() => controller.abort(), 20);
    expect((await waiting).kind).toBe('ask-again');
  });
});
