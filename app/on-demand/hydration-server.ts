// The service's end of the mount's socket: each `hydrate` line starts (or joins) a download, answered line by line.
import { chmod, mkdir, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import {
  MAX_LINE_BYTES,
  type FreeRefused,
  type HydrateRequest,
  type ServiceToMount,
} from '../mount/hydration-protocol.ts';
import type { HydrationEvent, Hydrator } from './hydrator.ts';
import type { FreeExpectation } from './free-in-place.ts';

export interface HydrationServerOptions {
  socketPath: string;
  hydrator: Pick<Hydrator, 'hydrate'>;
  /** Each download's events, for the window and the tray (the path, who opened it). */
  onEvent?: (request: HydrateRequest, event: HydrationEvent) => void;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** What the mount answered to a `free`: made a placeholder, or left as it is and why. */
export type FreeAnswer =
  | { readonly kind: 'freed' }
  | { readonly kind: 'refused'; readonly errno: FreeRefused['errno']; readonly message: string };

export interface HydrationServer {
  readonly socketPath: string;
  /**
   * Asks the mount to make the whole file at `path` (below the cache folder) a placeholder again;
   * undefined when no mount is connected (the caller frees it in place itself).
   */
  free(path: string, expected: FreeExpectation): Promise<FreeAnswer | undefined>;
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
  const frees = new FreeRequests();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    frees.connected(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      frees.disconnected(socket);
    });
    serve(socket, options, frees);
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
    free: (path, expected) => frees.ask(path, expected),
    close: () =>
      (closed ??= (async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await unlink(socketPath).catch(() => undefined);
      })()),
  };
}

/** One connection: lines in, each request's events out as lines, until either end closes. */
function serve(socket: Socket, options: HydrationServerOptions, frees: FreeRequests): void {
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
      if (frees.answered(line)) continue;
      const request = parseHydrateRequest(line);
      if (request === undefined) {
        options.log?.('warn', `the mount sent what is no request: ${line.slice(0, 200)}`);
        continue;
      }
      const progress = progressThinner();
      void options.hydrator.hydrate(request.path, (event) => {
        // The download goes on for the other opens (and the file) whatever a watcher of it does.
        try {
          options.onEvent?.(request, event);
        } catch (error) {
          options.log?.('warn', `a hydration event could not be told: ${String(error)}`);
        }
        if (progress(event)) send({ ...event, req: request.req });
      });
    }
    tooLong(buffered);
  });
}

/** A progress line for the mount at most every this many bytes (the first and the last always). */
export const PROGRESS_STEP_BYTES = 1024 * 1024;

/**
 * Whether an event goes to the mount: every one but most progress lines. A line per 64 KB chunk was
 * 16,384 JSON lines per GB, parsed on both ends, each waking the mount's waiting reads: about half the
 * service's CPU of a download on opening (docs/benchmarks.md). The first comes at once (a reader's
 * first byte), then one per MB, and the last (a read of the end need not wait for the file's sync).
 */
export function progressThinner(): (event: HydrationEvent) => boolean {
  let size = Number.POSITIVE_INFINITY;
  let told = -1;
  return (event) => {
    if (event.type === 'started') size = event.size;
    if (event.type !== 'progress') return true;
    if (told >= 0 && event.bytes - told < PROGRESS_STEP_BYTES && event.bytes < size) return false;
    told = event.bytes;
    return true;
  };
}

/**
 * The service's own requests to the mount (`free`), numbered apart from the mount's, on the connection
 * of the mount that connected last (one mount per pair; a new one replaces a dropped one).
 */
class FreeRequests {
  #socket: Socket | undefined;
  #next = 1;
  readonly #waiting = new Map<
    number,
    { socket: Socket; resolve: (answer: FreeAnswer | undefined) => void }
  >();

  connected(socket: Socket): void {
    this.#socket = socket;
  }

  /** The mount went away: what it was asked is answered "no mount" (the caller frees in place). */
  disconnected(socket: Socket): void {
    if (this.#socket === socket) this.#socket = undefined;
    for (const [req, waiter] of this.#waiting) {
      if (waiter.socket !== socket) continue;
      this.#waiting.delete(req);
      waiter.resolve(undefined);
    }
  }

  ask(path: string, expected: FreeExpectation): Promise<FreeAnswer | undefined> {
    const socket = this.#socket;
    if (socket === undefined || socket.destroyed) return Promise.resolve(undefined);
    const req = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(req, { socket, resolve });
      const message: ServiceToMount = {
        type: 'free',
        req,
        path,
        size: expected.size,
        mtimeNs: expected.mtimeNs.toString(),
      };
      socket.write(`${JSON.stringify(message)}\n`);
    });
  }

  /** Whether `line` answers one of these requests (then it is taken here). */
  answered(line: string): boolean {
    let found: unknown;
    try {
      found = JSON.parse(line);
    } catch {
      return false;
    }
    if (typeof found !== 'object' || found === null) return false;
    const { type, req, errno, message } = found as Record<string, unknown>;
    if (type !== 'freed' && type !== 'free-refused') return false;
    const waiter = typeof req === 'number' ? this.#waiting.get(req) : undefined;
    // An answer to nothing asked (a late one after a reconnect) is dropped: it was taken as a line.
    if (waiter === undefined) return true;
    this.#waiting.delete(req as number);
    if (type === 'freed') {
      waiter.resolve({ kind: 'freed' });
      return true;
    }
    const known = ['EBUSY', 'ESTALE', 'ENOENT', 'EIO'] as const;
    waiter.resolve({
      kind: 'refused',
      errno: known.find((code) => code === errno) ?? 'EIO',
      message: typeof message === 'string' ? message : 'the mount refused',
    });
    return true;
  }
}
