// The commands' end of the state sockets: every running client of a profile found, asked, and listened to.
import { readdir } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import type {
  FileStateAnswer,
  FileStateChildren,
  FileStateMessage,
  FileStateRequest,
} from '../../common/file-state.ts';
import { checkControlSocketDir } from '../live-service/control-socket-path.ts';
import { StateError } from './state-errors.ts';
import { StateLineReader } from './state-protocol.ts';
import { stateSocketDir, STATE_SOCKET_PATTERN } from './state-socket-path.ts';

type Request = FileStateRequest extends infer R ? (R extends { id: unknown } ? Omit<R, 'id'> : never) : never;
type Reply = Extract<FileStateMessage, { type: 'answer' | 'done' }>;
/** What a request is answered with: `children` its entries by name, the others states (or words, for `act`). */
type ReplyTo<R extends Request> = R extends { op: 'children' }
  ? FileStateChildren
  : Exclude<Reply, FileStateChildren>;

const DEFAULT_TIMEOUT_MS = 10_000;

/** One connection to one running client's state socket. */
export class StateConnection {
  readonly #socket: Socket;
  readonly #waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  readonly #changed: Array<(states: FileStateAnswer[]) => void> = [];
  #next = 1;
  #folders: string[];
  readonly pid: number;
  readonly #timeoutMs: number;

  private constructor(
    socket: Socket,
    hello: Extract<FileStateMessage, { type: 'hello' }>,
    timeoutMs: number,
  ) {
    this.#socket = socket;
    this.#folders = hello.folders;
    this.pid = hello.pid;
    this.#timeoutMs = timeoutMs;
  }

  /** Connects and reads the `hello`; STATE_SOCKET_FAILED when nothing answers there. */
  static connect(socketPath: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<StateConnection> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(socketPath);
      const reader = new StateLineReader(64 * 1024 * 1024);
      let connection: StateConnection | undefined;
      const fail = (error: Error): void => {
        socket.destroy();
        reject(new StateError('STATE_SOCKET_FAILED', `${socketPath}: ${error.message}`, { cause: error }));
      };
      const timer = setTimeout(() => fail(new Error('no hello in time')), timeoutMs);
      socket.once('error', fail);
      socket.on('data', (chunk: Buffer) => {
        for (const line of reader.push(chunk)) {
          if (typeof line !== 'string') continue;
          const message = JSON.parse(line) as FileStateMessage;
          if (connection === undefined) {
            if (message.type !== 'hello') return fail(new Error('the service did not say hello'));
            clearTimeout(timer);
            socket.off('error', fail);
            const opened = new StateConnection(socket, message, timeoutMs);
            connection = opened;
            socket.on('error', () => opened.#closed());
            socket.on('close', () => opened.#closed());
            resolve(opened);
          } else {
            connection.#receive(message);
          }
        }
      });
    });
  }

  get folders(): readonly string[] {
    return this.#folders;
  }

  /** Whether one of this client's folders holds the path. */
  serves(path: string): boolean {
    return this.#folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
  }

  /** Sends a request; resolves to its answer, rejects with the service's error (its code kept). */
  request<R extends Request>(request: R): Promise<ReplyTo<R>> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(
          new StateError('STATE_TIMEOUT', `No answer from the state service (pid ${this.pid}) in time.`),
        );
      }, this.#timeoutMs);
      this.#waiting.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          // The service answers a request by its kind (state-server.ts's answer).
          resolve(reply as ReplyTo<R>);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#socket.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  /** Changes pushed after `subscribe`. */
  onChanged(listener: (states: FileStateAnswer[]) => void): void {
    this.#changed.push(listener);
  }

  close(): void {
    this.#socket.destroy();
  }

  #receive(message: FileStateMessage): void {
    if (message.type === 'changed') {
      for (const listener of this.#changed) listener(message.states);
    } else if (message.type === 'folders') {
      this.#folders = message.folders;
    } else if (message.type === 'answer' || message.type === 'done' || message.type === 'error') {
      const id = typeof message.id === 'number' ? message.id : Number.NaN;
      const waiting = this.#waiting.get(id);
      if (waiting === undefined) return;
      this.#waiting.delete(id);
      if (message.type === 'error') waiting.reject(refusal(message.code, message.message));
      else waiting.resolve(message);
    }
  }

  #closed(): void {
    for (const waiting of this.#waiting.values()) {
      waiting.reject(new StateError('STATE_SOCKET_FAILED', `The state service (pid ${this.pid}) went away.`));
    }
    this.#waiting.clear();
  }
}

/** An error the service answered: its own code when it is one of ours, else an action that failed. */
function refusal(code: string, message: string): StateError {
  const known = ['STATE_BAD_REQUEST', 'STATE_TOO_LARGE', 'STATE_NOT_SERVED', 'STATE_NO_WINDOW'];
  return new StateError(
    known.includes(code) ? (code as 'STATE_BAD_REQUEST') : 'STATE_ACTION_FAILED',
    message,
  );
}

/**
 * Tells every running client of the profile that a link was made or revoked, so their emblems follow
 * now; best effort (a client that does not answer finds out at its next look).
 */
export async function tellSharesChanged(profileDir: string): Promise<void> {
  let services: StateConnection[];
  try {
    services = await connectStateServices(profileDir, 2_000);
  } catch {
    return;
  }
  await Promise.all(
    services.map(async (service) => {
      try {
        await service.request({ op: 'shares-changed' });
      } catch {
        // Gone meanwhile, or an older client: its next look at the shares sees the change.
      } finally {
        service.close();
      }
    }),
  );
}

/**
 * Every running client of the profile that answers (sockets of crashed ones are skipped). A state
 * folder that is not this user's own is never trusted (STATE_SOCKET_FAILED).
 */
export async function connectStateServices(
  profileDir: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<StateConnection[]> {
  const dir = stateSocketDir(profileDir);
  try {
    if ((await checkControlSocketDir(join(dir, 'x'))) === undefined) return [];
  } catch (error) {
    throw new StateError('STATE_SOCKET_FAILED', (error as Error).message, { cause: error });
  }
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found = await Promise.all(
    names
      .filter((name) => STATE_SOCKET_PATTERN.test(name))
      .map((name) => StateConnection.connect(join(dir, name), timeoutMs).catch(() => undefined)),
  );
  return found.filter((connection): connection is StateConnection => connection !== undefined);
}
