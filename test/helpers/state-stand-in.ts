// A stand-in for a client's state socket (common/file-state.ts), answering from a table the test sets: for the file-manager extension's own tests.
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { basename, dirname, relative } from 'node:path';
import type {
  FileStateAction,
  FileStateAnswer,
  FileStateEntry,
  FileStateMessage,
  FileStateRequest,
} from '../../common/file-state.ts';

/** A full answer as a `children` entry in `folder` says it: the state alone unless more is to be said. */
export function entryOfAnswer(answer: FileStateAnswer, folder: string): FileStateEntry {
  const { state, shared, reason, code, message, from } = answer;
  const more = {
    ...(shared ? { shared } : {}),
    ...(reason === undefined ? {} : { reason }),
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message }),
    ...(from === undefined ? {} : { from: relative(folder, from) }),
  };
  return Object.keys(more).length === 0 ? state : { state, ...more };
}

/** What an `act` answers: words for the user, or an error with its code. */
export type ActReply = { message: string } | { code: string; message: string };

/**
 * Speaks the state protocol on a Unix socket: `hello` on connect, `state`, `children`, `subscribe` and
 * `act` answered from `states` (a path not in it is `outside`), `changed` pushed by `push`. Every
 * request is logged, so a test can count what the extension asked.
 */
export class StateStandIn {
  readonly states = new Map<string, FileStateAnswer>();
  readonly requests: FileStateRequest[] = [];
  /** What `act` answers; by default done, with words naming the action. */
  actReply: (action: FileStateAction, paths: readonly string[]) => ActReply = (action) => ({
    message: `${action} done`,
  });
  /** Milliseconds before each `children` answer (a slow client). */
  childrenDelayMs = 0;
  readonly #server: Server;
  readonly #subscribed = new Set<Socket>();
  readonly #sockets = new Set<Socket>();
  #folders: string[];

  readonly socketPath: string;

  private constructor(socketPath: string, folders: string[]) {
    this.socketPath = socketPath;
    this.#folders = folders;
    this.#server = createServer((socket) => this.#serve(socket));
  }

  static async start(socketPath: string, folders: string[]): Promise<StateStandIn> {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    chmodSync(dirname(socketPath), 0o700);
    rmSync(socketPath, { force: true });
    const standIn = new StateStandIn(socketPath, folders);
    await new Promise<void>((resolve) => standIn.#server.listen(socketPath, resolve));
    return standIn;
  }

  /** Sets an item's state (its folder and kind filled in when not given). */
  set(path: string, state: FileStateAnswer['state'], extra: Partial<FileStateAnswer> = {}): FileStateAnswer {
    const answer: FileStateAnswer = {
      path,
      state,
      kind: 'file',
      shared: false,
      folder: this.#folders.find((folder) => path === folder || path.startsWith(`${folder}/`)) ?? '',
      ...extra,
    };
    this.states.set(path, answer);
    return answer;
  }

  /** Changes states and pushes them to subscribers, as the service does after a change. */
  push(answers: FileStateAnswer[]): void {
    for (const answer of answers) this.states.set(answer.path, answer);
    // `atMs`, when the change was recorded, is what the latency benchmark reads; the extension ignores it.
    const changed = { type: 'changed', states: answers, atMs: Date.now() } as FileStateMessage;
    for (const socket of this.#subscribed) this.#send(socket, changed);
  }

  setFolders(folders: string[]): void {
    this.#folders = folders;
    for (const socket of this.#sockets) this.#send(socket, { type: 'folders', folders });
  }

  requestsOf(op: FileStateRequest['op']): FileStateRequest[] {
    return this.requests.filter((request) => request.op === op);
  }

  subscribers(): number {
    return this.#subscribed.size;
  }

  /** Stops listening and drops every connection; Node removes the socket file. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.#subscribed.delete(socket);
    });
    socket.on('error', () => {});
    this.#send(socket, { type: 'hello', version: 1, pid: process.pid, folders: this.#folders });
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const request = JSON.parse(buffer.slice(0, end)) as FileStateRequest;
        buffer = buffer.slice(end + 1);
        this.requests.push(request);
        void this.#answer(socket, request);
      }
    });
  }

  async #answer(socket: Socket, request: FileStateRequest): Promise<void> {
    switch (request.op) {
      case 'state':
        this.#send(socket, { type: 'answer', id: request.id, states: request.paths.map((p) => this.#of(p)) });
        return;
      case 'children': {
        if (this.childrenDelayMs > 0)
          await new Promise((resolve) => setTimeout(resolve, this.childrenDelayMs));
        const entries: Record<string, FileStateEntry> = {};
        for (const answer of this.states.values()) {
          if (dirname(answer.path) === request.path)
            entries[basename(answer.path)] = entryOfAnswer(answer, request.path);
        }
        const folder = this.#of(request.path);
        this.#send(socket, { type: 'answer', id: request.id, folder, entries });
        return;
      }
      case 'shares-changed':
        this.#send(socket, { type: 'answer', id: request.id, states: [] });
        return;
      case 'subscribe':
        this.#subscribed.add(socket);
        this.#send(socket, { type: 'answer', id: request.id, states: [] });
        return;
      case 'act': {
        const reply = this.actReply(request.action, request.paths);
        this.#send(
          socket,
          'code' in reply
            ? { type: 'error', id: request.id, code: reply.code, message: reply.message }
            : { type: 'done', id: request.id, message: reply.message },
        );
        return;
      }
    }
  }

  #of(path: string): FileStateAnswer {
    return this.states.get(path) ?? { path, state: 'outside', kind: null, shared: false };
  }

  #send(socket: Socket, message: FileStateMessage): void {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  }
}
