// The live service's end of the control socket: answers status, pause, metered, resume, sync-now, confirm-deletes, restore, free and versions, one per connection.
import { chmod, lstat, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { SyncStatus } from '../../common/sync-status.ts';
import { assertNever } from '../../common/errors.ts';
import { ControlError } from './control-errors.ts';
import {
  encodeMessage,
  errorAnswer,
  LineCollector,
  MAX_REQUEST_BYTES,
  parseRequest,
  type ControlAnswer,
  type ControlRequest,
  type FreeCounts,
} from './control-protocol.ts';
import { isNamedPipe, prepareControlSocketDir } from './control-socket-path.ts';
import type { VersionsAction, VersionsOutcome } from '../versions/versions-actions.ts';

/** What the live service does for each request; the answer is `status()` after it returns. */
export interface ControlHandler {
  status(): SyncStatus;
  /** Paused until `untilMs` (wall clock), or until resumed when absent. */
  pause(untilMs?: number): void | Promise<void>;
  /** The pair's "sync on metered networks" changed; absent: refused. */
  metered?(sync: boolean): void | Promise<void>;
  resume(): void | Promise<void>;
  syncNow(): void | Promise<void>;
  confirmDeletes(): void | Promise<void>;
  /** One pass that brings an emptied folder's items back from the device. */
  restore(): void | Promise<void>;
  /**
   * Files on demand: frees the whole, synced files at or below `paths` (of the cache folder); absent
   * for a pair not on demand (refused).
   */
  free?(paths: readonly string[]): Promise<FreeCounts>;
  /**
   * Versions: a restore, a conflict settled, the versions cleared, carried out between two passes (then
   * a pass to carry the change to the device); absent: refused. `signal` fires when a client that keeps
   * its side open went away (it gave up waiting for the pass under way): a request whose turn had not
   * come is dropped.
   */
  versions?(action: VersionsAction, signal?: AbortSignal): Promise<VersionsOutcome>;
}

export interface ControlLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

export interface ControlServerOptions {
  socketPath: string;
  handler: ControlHandler;
  /** A connection that sends no complete request within this time is closed (default 10 s). */
  idleTimeoutMs?: number;
  /** Refused requests and failures of the socket, for the service's log. */
  log?: (line: ControlLogLine) => void;
}

export interface ControlServer {
  readonly socketPath: string;
  /** Stops listening, drops open connections and removes the socket file; safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
/** Front ends ask now and then; more at once than this is a misbehaving client. */
const MAX_CONNECTIONS = 64;
const SOCKET_MODE = 0o600;
/** Bytes read and dropped after a request or a refusal before the connection is cut. */
const MAX_IGNORED_BYTES = 16 * MAX_REQUEST_BYTES;

/**
 * Listens on `socketPath`. A socket file left by a process that is gone (connecting is refused) is
 * replaced; one that another instance answers on is `SERVICE_ALREADY_RUNNING`. This is not what keeps
 * two services off one folder (two starting at once could both find the file stale): the folder lock
 * of `run` is; the check only gives the second one a clear message.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { socketPath } = options;
  const log = options.log ?? (() => {});
  await prepareControlSocketDir(socketPath);
  const sockets = new Set<Socket>();
  // Half-open: a client may end its side right after the request (`printf ... | nc -U`) and still read the answer.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, options, log);
  });
  server.maxConnections = MAX_CONNECTIONS;
  await listenReplacingStale(server, socketPath);
  if (!isNamedPipe(socketPath) && process.platform !== 'win32') {
    try {
      // The folder is 0700 already; the mode is a second fence should the folder ever be widened.
      await chmod(socketPath, SOCKET_MODE);
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw socketFailed(socketPath, error);
    }
  }
  server.on('error', (error) => log({ level: 'error', message: `control socket: ${error.message}` }));

  let closing: Promise<void> | undefined;
  return {
    socketPath,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        // Node removes the socket file when a listening Unix socket closes.
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

async function listenReplacingStale(server: Server, socketPath: string): Promise<void> {
  try {
    await listen(server, socketPath);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw socketFailed(socketPath, error);
  }
  const probe = await probeSocket(socketPath);
  if (probe === 'answers') {
    throw new ControlError(
      'SERVICE_ALREADY_RUNNING',
      `Live sync already runs for this folder (it answers on ${socketPath}): use \`mch-sync status\`, or stop that one first.`,
    );
  }
  if (probe === 'refused') await removeStaleSocket(socketPath);
  try {
    await listen(server, socketPath);
  } catch (error) {
    // Another instance took the path between the probe and now.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ControlError(
        'SERVICE_ALREADY_RUNNING',
        `Another live sync for this folder started at the same moment (${socketPath}).`,
        { cause: error },
      );
    }
    throw socketFailed(socketPath, error);
  }
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(socketPath, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** `answers`: something accepts connections there; `refused`: a file nobody listens on; `gone`: no file any more. */
function probeSocket(socketPath: string): Promise<'answers' | 'refused' | 'gone'> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve('answers');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve('refused');
      else if (error.code === 'ENOENT') resolve('gone');
      else reject(socketFailed(socketPath, error));
    });
  });
}

/** Removes the file only if it is a socket: a regular file at that path is someone's data, not ours. */
async function removeStaleSocket(socketPath: string): Promise<void> {
  if (isNamedPipe(socketPath)) return;
  try {
    const stats = await lstat(socketPath);
    if (!stats.isSocket()) {
      throw new ControlError(
        'CONTROL_SOCKET_FAILED',
        `${socketPath} exists and is not a socket: move it away, then start again.`,
      );
    }
    await unlink(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    if (error instanceof ControlError) throw error;
    throw socketFailed(socketPath, error);
  }
}

function socketFailed(socketPath: string, error: unknown): ControlError {
  return new ControlError(
    'CONTROL_SOCKET_FAILED',
    `Cannot listen on the control socket ${socketPath} (${(error as Error).message}).`,
    { cause: error },
  );
}

function serveConnection(
  socket: Socket,
  options: ControlServerOptions,
  log: (line: ControlLogLine) => void,
): void {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const collector = new LineCollector(MAX_REQUEST_BYTES, 'request');
  let state: 'reading' | 'answering' | 'answered' = 'reading';
  let ignoredBytes = 0;
  // A client that went away mid-answer is no concern of the service's.
  socket.on('error', () => {});
  socket.on('timeout', () => socket.destroy());
  socket.setTimeout(idleMs);

  const reply = (message: ControlAnswer): void => {
    state = 'answered';
    if (!message.ok) log({ level: 'warn', message: `control request refused: ${message.error.message}` });
    if (socket.destroyed) return;
    socket.end(encodeMessage(message));
    // A client that never closes its side is dropped after the same idle time.
    socket.setTimeout(idleMs);
  };
  // The client's side ended (or the connection broke) while its request was being answered: a client
  // that said it keeps its side open until the answer (`keepsOpen`) gave up waiting.
  const ended = new AbortController();
  socket.once('close', () => ended.abort());
  const handle = (line: string | undefined): void => {
    state = 'answering';
    // The handler may take a while (pause waits for a running transfer to stop): no idle limit meanwhile.
    socket.setTimeout(0);
    void answer(line, options.handler, ended.signal).then(reply);
  };
  socket.on('data', (chunk: Buffer) => {
    if (state !== 'reading') {
      // Whatever follows the request is read and dropped (so the client can finish writing and read
      // the answer), up to a limit: a client that keeps sending is cut off.
      ignoredBytes += chunk.length;
      if (ignoredBytes > MAX_IGNORED_BYTES) socket.destroy();
      return;
    }
    let line: string | undefined;
    try {
      line = collector.push(chunk);
    } catch (error) {
      reply(errorAnswer(error));
      return;
    }
    if (line !== undefined) handle(line);
  });
  socket.on('end', () => {
    if (state === 'answering') ended.abort();
    if (state !== 'reading') return;
    let line: string | undefined;
    try {
      line = collector.end();
    } catch (error) {
      reply(errorAnswer(error));
      return;
    }
    handle(line);
  });
}

/** Never rejects: every failure becomes an error answer. */
async function answer(
  line: string | undefined,
  handler: ControlHandler,
  signal: AbortSignal,
): Promise<ControlAnswer> {
  try {
    if (line === undefined) {
      throw new ControlError('CONTROL_BAD_REQUEST', 'The connection ended without a request.');
    }
    const request = parseRequest(line);
    const extra = await carryOut(request, handler, signal);
    return { ok: true, status: handler.status(), ...extra };
  } catch (error) {
    return errorAnswer(error);
  }
}

/** What an answer carries besides the status: what a `free` freed, what a `versions` request did. */
type AnswerExtra = { freed?: FreeCounts; versions?: VersionsOutcome };

async function carryOut(
  request: ControlRequest,
  handler: ControlHandler,
  signal: AbortSignal,
): Promise<AnswerExtra> {
  switch (request.op) {
    case 'status':
      return {};
    case 'pause':
      await handler.pause(request.until);
      return {};
    case 'metered':
      if (handler.metered === undefined) {
        throw new ControlError('CONTROL_BAD_REQUEST', 'This service does not watch for metered networks.');
      }
      await handler.metered(request.sync);
      return {};
    case 'resume':
      await handler.resume();
      return {};
    case 'sync-now':
      await handler.syncNow();
      return {};
    case 'confirm-deletes':
      await handler.confirmDeletes();
      return {};
    case 'restore':
      await handler.restore();
      return {};
    case 'free':
      if (handler.free === undefined) {
        throw new ControlError(
          'CONTROL_BAD_REQUEST',
          'This folder is not on demand: there is nothing to free.',
        );
      }
      return { freed: await handler.free(request.paths) };
    case 'versions':
      if (handler.versions === undefined) {
        throw new ControlError('CONTROL_BAD_REQUEST', 'This service keeps no versions.');
      }
      // Only a client that keeps its side open may be taken as gone when it ends; `nc -U` half-closes.
      return {
        versions: await handler.versions(request.action, request.keepsOpen === true ? signal : undefined),
      };
    default:
      return assertNever(request, 'control request');
  }
}
