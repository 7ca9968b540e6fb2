// A small node:http server for tests that answers however a test wants: malformed, endless, cut short.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface HostileServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

/** Starts a server on a free loopback port; `handler` sees each request after its body was read. */
export async function startHostileServer(handler: Handler): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      handler(request, response, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `serve(handler)` for one test file: each server it starts is closed after the test that started it. */
export function serversClosedAfterEach(): (handler: Handler) => Promise<HostileServer> {
  const servers: HostileServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startHostileServer(handler);
    servers.push(server);
    return server;
  };
}

/** Answers JSON with a status (and extra headers). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/**
 * Forwards every request to `target`; when `cutAfter` gives a number for a request, the answer's
 * connection is destroyed after that many body bytes (a download interrupted mid-way).
 */
export async function startCuttingProxy(
  target: string,
  cutAfter: (request: SeenRequest, index: number) => number | undefined,
): Promise<HostileServer> {
  let index = 0;
  return startHostileServer((request, response, body) => {
    const seen = { method: request.method ?? '', url: request.url ?? '', headers: request.headers };
    const limit = cutAfter(seen, index);
    index += 1;
    const upstream = httpRequest(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        let sent = 0;
        answer.on('data', (chunk: Buffer) => {
          if (limit !== undefined && sent + chunk.length > limit) {
            response.write(chunk.subarray(0, Math.max(0, limit - sent)));
            response.socket?.destroy();
            answer.destroy();
            return;
          }
          sent += chunk.length;
          response.write(chunk);
        });
        answer.on('end', () => response.end());
      },
    );
    upstream.on('error', () => response.socket?.destroy());
    upstream.end(body);
  });
}
