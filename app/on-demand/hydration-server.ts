// The service's end of the mount's socket: each `hydrate` line starts (or joins) a download, answered line by line.
import { chmod, mkdir, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { MAX_LINE_BYTES, type HydrateRequest, type ServiceToMount } from '../mount/hydration-protocol.ts';
import type { HydrationEvent, Hydrator } from './hydrator.ts';

export interface HydrationServerOptions {
  socketPath: string;
  hydrator: Pick<Hydrator, 'hydrate'>;
  /** Each download's events, for the window and the tray (the path, who opened it). */
  onEvent?: (request: HydrateRequest, event: HydrationEvent) => void;
  log?: (level: 'info' | 'warn', message: string) => void;
}

export interface HydrationServer {
  readonly socketPath: string;
  /** Stops listening, drops the mount's connection and removes the socket file. */
  close(): Promise<void>;
}

/** A request line as the mount sends it, or undefined for anything else. */
export function parseHydrateRequest(line: string): HydrateRequest | undefined {
  let found: unknown;
  try {
    found = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof found !== 'object' || found === null) return undefined;
  const { type, req, path, pid, process: name } = found as Record<string, unknown>;
  // Counts as the mount reads them back (hydration-client.ts): a negative `req` would end its connection.
  if (type !== 'hydrate' || !isCount(req) || typeof path !== 'string') return undefined;
  if (!isCount(pid) || typeof name !== 'string') return undefined;
  return { type, req, path, pid, process: name };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Listens on `socketPath` (0600, in a folder only the user can open) for the mount process. */
export async function startHydrationServer(options: HydrationServerOptions): Promise<HydrationServer> {
  const { socketPath } = options;
  await mkdir(dirname(socketPath), { recursive: true, mode: 0o700 });
  // Left by a service that crashed: the folder lock says no other service of this pair runs.
  await unlink(socketPath).catch(() => undefined);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, options);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  let closed: Promise<void> | undefined;
  return {
    socketPath,
    close: () =>
      (closed ??= (async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await unlink(socketPath).catch(() => undefined);
      })()),
  };
}

/** One connection: lines in, each request's events out as lines, until either end closes. */
function serve(socket: Socket, options: HydrationServerOptions): void {
  let buffered = '';
  const send = (message: ServiceToMount): void => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  const tooLong = (line: string): boolean => {
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return false;
    options.log?.('warn', 'the mount sent a line too long: connection closed');
    socket.destroy();
    return true;
  };
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    const lines = (buffered + chunk).split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      // Checked line by line, not only what is left over: a long line can come whole in one chunk.
      if (tooLong(line)) return;
      if (line.trim() === '') continue;
      const request = parseHydrateRequest(line);
      if (request === undefined) {
        options.log?.('warn', `the mount sent what is no request: ${line.slice(0, 200)}`);
        continue;
      }
      void options.hydrator.hydrate(request.path, (event) => {
        // The download goes on for the other opens (and the file) whatever a watcher of it does.
        try {
          options.onEvent?.(request, event);
        } catch (error) {
          options.log?.('warn', `a hydration event could not be told: ${String(error)}`);
        }
        send({ ...event, req: request.req });
      });
    }
    tooLong(buffered);
  });
}
