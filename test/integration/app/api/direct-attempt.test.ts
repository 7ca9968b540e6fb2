// The Transport's direct node:http path for in-memory requests: decoding, keep-alive, cut answers, timeouts.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deviceClientAt, FAST_RETRY } from '../../../helpers/api-client.ts';
import { sendJson, serversClosedAfterEach } from '../../../helpers/hostile-server.ts';

const serve = serversClosedAfterEach();

const FILE = {
  id: 'f1',
  parentID: 'p1',
  name: 'ok.txt',
  eTag: '"e1"',
  mimeType: 'text/plain',
  size: 3,
  mTime: '2026-11-22T01:02:03Z',
};

describe('the direct path for in-memory requests', () => {
  it('decodes gzip, deflate and br answers, and asks for them', async () => {
    const encoders: Record<string, (bytes: Buffer) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
    };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const server = await serve((_request, response) => {
        const body = encode(Buffer.from(JSON.stringify(FILE)));
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
          'content-length': body.length,
        });
        response.end(body);
      });
      await expect(deviceClientAt(server.base).getFile('f1')).resolves.toMatchObject({ name: 'ok.txt' });
      expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(server.requests[0]?.headers['user-agent']).toBe('mch-sync');
    }
  });

  it('reports an answer that does not decode as a failure, not as a file', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end('not gzip at all');
    });
    const api = deviceClientAt(server.base, { retry: { ...FAST_RETRY, maxAttempts: 1 } });
    await expect(api.getFile('f1')).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('sends requests one after another over one kept-alive connection', async () => {
    const ports = new Set<number>();
    const server = await serve((request, response) => {
      ports.add(request.socket.remotePort ?? 0);
      sendJson(response, 200, FILE, { etag: FILE.eTag });
    });
    const api = deviceClientAt(server.base);
    for (let i = 0; i < 5; i += 1) await api.getFile('f1');
    expect(server.requests).toHaveLength(5);
    expect(ports.size).toBe(1);
  });

  it('retries a read whose answer was cut short, and gets it the second time', async () => {
    let calls = 0;
    const server = await serve((_request, response) => {
      calls += 1;
      if (calls > 1) {
        sendJson(response, 200, FILE);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"id":"f1",');
      setTimeout(() => response.socket?.destroy(), 10);
    });
    await expect(deviceClientAt(server.base).getFile('f1')).resolves.toMatchObject({ id: 'f1' });
    expect(calls).toBe(2);
  });

  it('calls a create whose answer was cut short OUTCOME_UNKNOWN and does not send it again', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(201, { location: '/sdk/v2/files/new', 'content-length': '100' });
      response.write('{');
      setTimeout(() => response.socket?.destroy(), 10);
    });
    await expect(
      deviceClientAt(server.base).create({ parentId: 'p1', name: 'a.txt', content: Buffer.from('abc') }),
    ).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a create that could not connect (nothing was sent), then says NETWORK', async () => {
    const server = await serve(() => undefined);
    const base = server.base;
    await server.close();
    const api = deviceClientAt(base, { retry: { ...FAST_RETRY, maxAttempts: 2 } });
    await expect(
      api.create({ parentId: 'p1', name: 'a.txt', content: Buffer.from('abc') }),
    ).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('gives up on a connection that goes quiet mid-answer with TIMEOUT', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    });
    const api = deviceClientAt(server.base, {
      timeouts: { idleMs: 150 },
      retry: { ...FAST_RETRY, maxAttempts: 1 },
    });
    await expect(api.getFile('f1')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('reports upload progress of an in-memory create once its body is sent', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(201, { location: '/sdk/v2/files/new', etag: '"n1"' });
      response.end();
    });
    const seen: { bytesDone: number; bytesTotal: number | undefined }[] = [];
    const content = Buffer.alloc(3000, 7);
    const created = await deviceClientAt(server.base).create({
      parentId: 'p1',
      name: 'a.bin',
      content,
      onProgress: (progress) => seen.push(progress),
    });
    expect(created.id).toBe('new');
    expect(seen.at(-1)).toEqual({ bytesDone: 3000, bytesTotal: 3000 });
  });
});
