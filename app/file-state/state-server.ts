// The state socket of one running client: answers what the file managers and `mch-sync state` ask, and pushes changes to subscribers.
import { chmod, lstat, readdir, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  FILE_STATE_PROTOCOL,
  type FileStateAction,
  type FileStateAnswer,
  type FileStateEntry,
  type FileStateMessage,
  type FileStateRequest,
} from '../../common/file-state.ts';
import { assertNever } from '../../common/errors.ts';
import { prepareControlSocketDir } from '../live-service/control-socket-path.ts';
import { StateError } from './state-errors.ts';
import {
  encodeStateMessage,
  parseStateRequest,
  StateLineReader,
  stateErrorMessage,
} from './state-protocol.ts';
import { STATE_SOCKET_PATTERN } from './state-socket-path.ts';

/** What the client answers; the server only carries lines. */
export interface StateHandler {
  /** The synced folders this client serves, absolute. */
  folders(): string[];
  state(paths: readonly string[]): FileStateAnswer[];
  /** A folder's own answer and its entries by name (`FileStateChildren`). */
  children(path: string): { folder: FileStateAnswer; entries: Record<string, FileStateEntry> };
  /** Carries out a menu entry; resolves to words for the user, or throws a typed error. */
  act(action: FileStateAction, paths: readonly string[]): Promise<string>;
  /** A link was made or revoked elsewhere: the shared items are asked again. */
  sharesChanged(): void;
}

export interface StateServerOptions {
  socketPath: string;
  handler: StateHandler;
  log?: (level: 'warn' | 'error', message: string) => void;
}

export interface StateServer {
  readonly socketPath: string;
  /** Sends changed states to every subscriber; `atMs`: when the first of them was recorded. */
  push(states: readonly FileStateAnswer[], atMs: number): void;
  /** Tells every connection the folders served now. */
  foldersChanged(): void;
  /** How many connections subscribed. */
  subscribers(): number;
  /** Stops listening, drops connections and removes the socket file; safe to call twice. */
  close(): Promise<void>;
}

/** File managers, a few commands: more at once is a client that misbehaves. */
const MAX_CONNECTIONS = 64;
/** A subscriber that reads nothing while this much waits for it is dropped (it reconnects and asks anew). */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/**
 * Listens on `socketPath` in a folder only this user can enter (0700, checked to be the user's own),
 * the socket itself 0600: no other user can connect, which is what authenticates a client. A socket
 * file already at the path is a crashed client's with the same pid (the name is the pid): replaced.
 */
export async function startStateServer(options: StateServerOptions): Promise<StateServer> {
  const { socketPath, handler } = options;
  const log = options.log ?? (() => {});
  await prepareControlSocketDir(socketPath);
  await removeIfSocket(socketPath);
  const connections = new Set<Socket>();
  const subscribed = new Set<Socket>();
  const send = (socket: Socket, message: FileStateMessage): void => {
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_PENDING_BYTES) {
      log('warn', 'a state subscriber read nothing for too long: dropped');
      socket.destroy();
      return;
    }
    socket.write(encodeStateMessage(message));
  };
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      subscribed.delete(socket);
    });
    socket.on('error', () => {});
    send(socket, {
      type: 'hello',
      version: FILE_STATE_PROTOCOL,
      pid: process.pid,
      folders: handler.folders(),
    });
    serve(
      socket,
      handler,
      (message) => send(socket, message),
      () => subscribed.add(socket),
      log,
    );
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.on('error', (error) => log('error', `state socket: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw new StateError(
      'STATE_SOCKET_FAILED',
      `Cannot listen on ${socketPath} (${(error as Error).message}).`,
      {
        cause: error,
      },
    );
  });
  // The folder is 0700 already; the mode is a second fence should the folder ever be widened.
  await chmod(socketPath, 0o600);
  void removeStaleSiblings(socketPath);
  let closing: Promise<void> | undefined;
  return {
    socketPath,
    push(states, atMs) {
      if (states.length === 0) return;
      for (const socket of subscribed) send(socket, { type: 'changed', states: [...states], atMs });
    },
    foldersChanged() {
      const folders = handler.folders();
      for (const socket of connections) send(socket, { type: 'folders', folders });
    },
    subscribers: () => subscribed.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      });
      return closing;
    },
  };
}

/** Reads request lines in order; each is answered before the next is read (an action may take a while). */
function serve(
  socket: Socket,
  handler: StateHandler,
  send: (message: FileStateMessage) => void,
  subscribe: () => void,
  log: (level: 'warn' | 'error', message: string) => void,
): void {
  const reader = new StateLineReader();
  let turn = Promise.resolve();
  socket.on('data', (chunk: Buffer) => {
    for (const line of reader.push(chunk)) {
      turn = turn.then(async () => {
        if (line instanceof StateError) {
          log('warn', `state request refused: ${line.message}`);
          send(stateErrorMessage(line, null));
          return;
        }
        const parsed = parseStateRequest(line);
        if ('error' in parsed) {
          log('warn', `state request refused: ${parsed.error.message}`);
          send(stateErrorMessage(parsed.error, parsed.id));
          return;
        }
        try {
          send(await answer(parsed.request, handler, subscribe));
        } catch (error) {
          send(stateErrorMessage(error, parsed.request.id));
        }
      });
    }
  });
}

async function answer(
  request: FileStateRequest,
  handler: StateHandler,
  subscribe: () => void,
): Promise<FileStateMessage> {
  switch (request.op) {
    case 'state':
      return { type: 'answer', id: request.id, states: handler.state(request.paths) };
    case 'children': {
      const { folder, entries } = handler.children(request.path);
      return { type: 'answer', id: request.id, folder, entries };
    }
    case 'subscribe':
      subscribe();
      return { type: 'answer', id: request.id, states: [] };
    case 'act':
      return { type: 'done', id: request.id, message: await handler.act(request.action, request.paths) };
    case 'shares-changed':
      handler.sharesChanged();
      return { type: 'answer', id: request.id, states: [] };
    default:
      return assertNever(request, 'state request');
  }
}

async function removeIfSocket(path: string): Promise<void> {
  try {
    if ((await lstat(path)).isSocket()) await unlink(path);
  } catch {
    // Nothing there: the usual case.
  }
}

/** Sockets of clients that crashed (nothing listens): removed, so the extensions stop trying them. */
async function removeStaleSiblings(socketPath: string): Promise<void> {
  const dir = join(socketPath, '..');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (!STATE_SOCKET_PATTERN.test(name) || path === socketPath) continue;
    if ((await probe(path)) === 'refused') await removeIfSocket(path);
  }
}

function probe(path: string): Promise<'answers' | 'refused' | 'other'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve('answers');
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'other'),
    );
  });
}
