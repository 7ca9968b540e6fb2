// The hydration server on a real Unix socket, the test being the mount: JSON lines in, each request's events out.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { HydrateRequest } from '../../../../app/mount/hydration-protocol.ts';
import { MAX_LINE_BYTES } from '../../../../app/mount/hydration-protocol.ts';
import {
  startHydrationServer,
  type HydrationServer,
  type HydrationServerOptions,
} from '../../../../app/on-demand/hydration-server.ts';
import { Hydrator, type HydrationEvent } from '../../../../app/on-demand/hydrator.ts';
import { it } from '../../../helpers/fixtures.ts';
import {
  connectMount,
  contentGets,
  distinctText,
  expectHydrated,
  expectIntactPlaceholder,
  expectWholeHydration,
  hydrateLine,
  placeholderPair,
  type MountEnd,
} from '../../../helpers/on-demand.ts';
import type { SyncPair } from '../../../helpers/sync-pair.ts';

const TIMEOUT = { timeout: 60_000 };
const BIG = distinctText(3 * 1024 * 1024, 'big');

/** A hydrator the test drives by hand: each call waits until the test tells its events. */
function handDriven(): {
  hydrator: HydrationServerOptions['hydrator'];
  calls: { path: string; tell: (event: HydrationEvent) => void }[];
  called: (count: number) => Promise<void>;
} {
  const calls: { path: string; tell: (event: HydrationEvent) => void }[] = [];
  const waiting: (() => void)[] = [];
  return {
    calls,
    hydrator: {
      hydrate: (path, listener) => {
        calls.push({ path, tell: listener });
        for (const wake of waiting.splice(0)) wake();
        return new Promise<void>(() => undefined);
      },
    },
    called: async (count) => {
      while (calls.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}

/** Starts a server for the test and closes it after, even when the test fails. */
async function withServer(
  tempDir: string,
  options: Omit<HydrationServerOptions, 'socketPath'>,
  body: (server: HydrationServer, mount: MountEnd) => Promise<void>,
): Promise<void> {
  const server = await startHydrationServer({ socketPath: join(tempDir, 'run', 'hydrate.sock'), ...options });
  const mount = await connectMount(server.socketPath);
  try {
    await body(server, mount);
  } finally {
    mount.end();
    await server.close();
  }
}

function hydratorOf(pair: SyncPair): Hydrator {
  return new Hydrator({ client: pair.client.device, index: pair.index, cacheRoot: pair.localRoot });
}

describe('the hydration server', () => {
  it(
    'hydrates a placeholder asked for over the socket, answering with the request’s id',
    TIMEOUT,
    async ({ newPair, tempDir }) => {
      const pair = await placeholderPair(newPair, { 'notes/a.txt': 'alpha content' });
      const seen: [HydrateRequest, HydrationEvent][] = [];
      await withServer(
        tempDir,
        { hydrator: hydratorOf(pair), onEvent: (request, event) => seen.push([request, event]) },
        async (_server, mount) => {
          mount.send(hydrateLine(41, 'notes/a.txt'));
          const answer = await mount.answerOf(41);
          expectWholeHydration(answer, 'alpha content'.length);
          expect(answer.every((message) => message.req === 41)).toBe(true);
          expectHydrated(pair, 'notes/a.txt', 'alpha content');
          expect(seen.map(([request]) => request)).toEqual(answer.map(() => hydrateLine(41, 'notes/a.txt')));
          expect(seen.map(([, event]) => event.type)).toEqual(answer.map((message) => message.type));
        },
      );
    },
  );

  it(
    'answers requests on one connection with their own ids, interleaved as their events come',
    TIMEOUT,
    async ({ tempDir }) => {
      const driven = handDriven();
      await withServer(tempDir, { hydrator: driven.hydrator }, async (_server, mount) => {
        mount.send(hydrateLine(1, 'a.txt'));
        mount.send(hydrateLine(2, 'b.txt'));
        await driven.called(2);
        const [a, b] = driven.calls;
        expect(driven.calls.map((call) => call.path)).toEqual(['a.txt', 'b.txt']);
        b?.tell({ type: 'started', size: 10 });
        a?.tell({ type: 'started', size: 20 });
        b?.tell({ type: 'progress', bytes: 10 });
        a?.tell({ type: 'progress', bytes: 5 });
        b?.tell({ type: 'done' });
        a?.tell({ type: 'failed', errno: 'ENETUNREACH', message: 'gone away' });
        await mount.answerOf(1);
        expect(mount.received).toEqual([
          { type: 'started', req: 2, size: 10 },
          { type: 'started', req: 1, size: 20 },
          { type: 'progress', req: 2, bytes: 10 },
          { type: 'progress', req: 1, bytes: 5 },
          { type: 'done', req: 2 },
          { type: 'failed', req: 1, errno: 'ENETUNREACH', message: 'gone away' },
        ]);
      });
    },
  );

  it(
    'hydrates two files asked for on one connection, each answer whole under its id',
    TIMEOUT,
    async ({ newPair, tempDir }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG, 'small.txt': 'small' });
      await withServer(tempDir, { hydrator: hydratorOf(pair) }, async (_server, mount) => {
        mount.send(hydrateLine(1, 'big.txt'));
        mount.send(hydrateLine(2, 'small.txt'));
        expectWholeHydration(await mount.answerOf(1), BIG.length);
        expectWholeHydration(await mount.answerOf(2), 'small'.length);
        expectHydrated(pair, 'big.txt', BIG);
        expectHydrated(pair, 'small.txt', 'small');
      });
    },
  );

  it(
    'downloads a file once for two requests of it, from two connections',
    TIMEOUT,
    async ({ newPair, tempDir }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      const before = pair.client.requests().length;
      await withServer(tempDir, { hydrator: hydratorOf(pair) }, async (server, mount) => {
        const other = await connectMount(server.socketPath);
        try {
          mount.send(hydrateLine(1, 'big.txt'));
          other.send(hydrateLine(1, 'big.txt'));
          expectWholeHydration(await mount.answerOf(1), BIG.length);
          expectWholeHydration(await other.answerOf(1), BIG.length);
        } finally {
          other.end();
        }
      });
      expect(contentGets(pair.client.requests().slice(before))).toHaveLength(1);
      expectHydrated(pair, 'big.txt', BIG);
    },
  );

  it(
    'tells the mount the errno when a hydration fails, the placeholder kept',
    TIMEOUT,
    async ({ newPair, tempDir }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
      const hydrator = new Hydrator({
        client: pair.client.device,
        index: pair.index,
        cacheRoot: pair.localRoot,
        offline: () => true,
      });
      await withServer(tempDir, { hydrator }, async (_server, mount) => {
        mount.send(hydrateLine(3, 'a.txt'));
        mount.send(hydrateLine(4, '../escape.txt'));
        expect(await mount.answerOf(3)).toEqual([
          expect.objectContaining({ type: 'failed', req: 3, errno: 'ENETUNREACH' }),
        ]);
        expect(await mount.answerOf(4)).toEqual([expect.objectContaining({ type: 'failed', req: 4 })]);
        expectIntactPlaceholder(pair, 'a.txt');
      });
    },
  );

  it('ignores lines that are no request and keeps the connection working', TIMEOUT, async ({ tempDir }) => {
    const driven = handDriven();
    const warnings: string[] = [];
    await withServer(
      tempDir,
      { hydrator: driven.hydrator, log: (_level, message) => warnings.push(message) },
      async (_server, mount) => {
        mount.send('this is not JSON');
        mount.send('');
        mount.send('[1, 2]');
        mount.send({ type: 'hydrate' });
        mount.send({ ...hydrateLine(1, 'a.txt'), req: 'one' });
        mount.send({ ...hydrateLine(1, 'a.txt'), type: 'started' });
        mount.send({ ...hydrateLine(1, 'a.txt'), process: undefined });
        // Then one in two writes, and one that is fine.
        const split = JSON.stringify(hydrateLine(5, 'split.txt'));
        mount.socket.write(split.slice(0, 17));
        await new Promise((resolve) => setTimeout(resolve, 50));
        mount.socket.write(`${split.slice(17)}\n`);
        mount.send(hydrateLine(6, 'a.txt'));
        await driven.called(2);
        expect(driven.calls.map((call) => call.path)).toEqual(['split.txt', 'a.txt']);
        driven.calls[1]?.tell({ type: 'done' });
        expect(await mount.answerOf(6)).toEqual([{ type: 'done', req: 6 }]);
        expect(mount.socket.destroyed).toBe(false);
        expect(warnings.filter((warning) => /no request/.test(warning))).toHaveLength(6);
      },
    );
  });

  for (const [how, line] of [
    ['in one write with its newline', `${'x'.repeat(MAX_LINE_BYTES + 1)}\n`],
    ['without its end', 'x'.repeat(MAX_LINE_BYTES + 1)],
    [
      'that is a request padded out',
      `${JSON.stringify({ ...hydrateLine(9, 'a.txt'), padding: 'y'.repeat(MAX_LINE_BYTES) })}\n`,
    ],
  ] as const) {
    it(
      `closes the connection on a line longer than MAX_LINE_BYTES ${how}, and takes new ones`,
      TIMEOUT,
      async ({ tempDir }) => {
        const driven = handDriven();
        await withServer(tempDir, { hydrator: driven.hydrator }, async (server, mount) => {
          mount.socket.write(line);
          await mount.closed;
          expect(driven.calls).toEqual([]);
          const again = await connectMount(server.socketPath);
          try {
            again.send(hydrateLine(1, 'a.txt'));
            await driven.called(1);
            driven.calls[0]?.tell({ type: 'done' });
            expect(await again.answerOf(1)).toEqual([{ type: 'done', req: 1 }]);
          } finally {
            again.end();
          }
        });
      },
    );
  }

  it('takes a line of exactly MAX_LINE_BYTES', TIMEOUT, async ({ tempDir }) => {
    const driven = handDriven();
    await withServer(tempDir, { hydrator: driven.hydrator }, async (_server, mount) => {
      const bare = JSON.stringify({ ...hydrateLine(2, 'a.txt'), padding: '' });
      const line = JSON.stringify({
        ...hydrateLine(2, 'a.txt'),
        padding: 'y'.repeat(MAX_LINE_BYTES - bare.length),
      });
      expect(Buffer.byteLength(line)).toBe(MAX_LINE_BYTES);
      mount.send(line);
      await driven.called(1);
      driven.calls[0]?.tell({ type: 'done' });
      expect(await mount.answerOf(2)).toEqual([{ type: 'done', req: 2 }]);
    });
  });

  it(
    'listens on a socket only the user can open, and close() drops the mount and removes it',
    TIMEOUT,
    async ({ tempDir }) => {
      const driven = handDriven();
      const server = await startHydrationServer({
        socketPath: join(tempDir, 'run', 'hydrate.sock'),
        hydrator: driven.hydrator,
      });
      const mount = await connectMount(server.socketPath);
      try {
        expect(statSync(server.socketPath).isSocket()).toBe(true);
        expect(statSync(server.socketPath).mode & 0o777).toBe(0o600);
        expect(statSync(join(tempDir, 'run')).mode & 0o777).toBe(0o700);
        await server.close();
        await mount.closed;
        expect(existsSync(server.socketPath)).toBe(false);
        await server.close(); // A second close is harmless.
      } finally {
        mount.end();
        await server.close();
      }
    },
  );

  it('replaces a socket file left by a service that crashed', TIMEOUT, async ({ tempDir }) => {
    const socketPath = join(tempDir, 'run', 'hydrate.sock');
    mkdirSync(join(tempDir, 'run'), { mode: 0o700 });
    writeFileSync(socketPath, '');
    const driven = handDriven();
    await withServer(tempDir, { hydrator: driven.hydrator }, async (server, mount) => {
      expect(statSync(server.socketPath).isSocket()).toBe(true);
      mount.send(hydrateLine(1, 'a.txt'));
      await driven.called(1);
    });
  });

  it(
    'goes on with a download when the mount’s connection drops, and the file ends whole',
    TIMEOUT,
    async ({ newPair, tempDir }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      let finished: (event: HydrationEvent) => void = () => undefined;
      const end = new Promise<HydrationEvent>((resolve) => (finished = resolve));
      let dropped = false;
      await withServer(
        tempDir,
        {
          hydrator: hydratorOf(pair),
          onEvent: (_request, event) => {
            if (event.type === 'done' || event.type === 'failed') finished(event);
          },
        },
        async (_server, mount) => {
          mount.socket.on('data', () => {
            if (dropped) return;
            dropped = true;
            mount.end();
          });
          mount.send(hydrateLine(1, 'big.txt'));
          expect(await end).toEqual({ type: 'done' });
        },
      );
      expect(dropped).toBe(true);
      expectHydrated(pair, 'big.txt', BIG);
    },
  );
});
