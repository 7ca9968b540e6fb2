// The mount process's side of the hydration socket: asks for hydrations, reads the service's answers.
import { createConnection, type Socket } from 'node:net';
import {
  MAX_LINE_BYTES,
  type HydrationErrno,
  type MountToService,
  type ServiceToMount,
} from './hydration-protocol.ts';
import { MountError } from './mount-errors.ts';

const ERRNOS: readonly HydrationErrno[] = ['ENETUNREACH', 'ENOENT', 'ENOSPC', 'EACCES', 'EIO'];

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A path relative to the cache folder that stays in it: `/`-separated names, none empty, `.` or `..`. */
function isCachePath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    !value.includes('\0') &&
    value.split('/').every((name) => name !== '' && name !== '.' && name !== '..')
  );
}

/** One line from the service, checked; throws HYDRATION_SOCKET_FAILED when it is not the protocol. */
export function parseServiceLine(line: string): ServiceToMount {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new MountError('HYDRATION_SOCKET_FAILED', 'The service sent a line that is not JSON.', {
      cause: error,
    });
  }
  const message = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { type, req } = message;
  if (isCount(req)) {
    if (type === 'started' && isCount(message['size'])) {
      return { type, req, size: message['size'] };
    }
    if (type === 'progress' && isCount(message['bytes'])) {
      return { type, req, bytes: message['bytes'] };
    }
    if (type === 'done') return { type, req };
    const { path, size, mtimeNs } = message;
    if (type === 'free' && isCachePath(path) && isCount(size) && typeof mtimeNs === 'string') {
      if (/^-?\d{1,19}$/.test(mtimeNs)) return { type, req, path, size, mtimeNs };
    }
    const errno = message['errno'];
    if (type === 'failed' && ERRNOS.includes(errno as HydrationErrno)) {
      const text = typeof message['message'] === 'string' ? message['message'] : '';
      return { type, req, errno: errno as HydrationErrno, message: text };
    }
  }
  throw new MountError(
    'HYDRATION_SOCKET_FAILED',
    `The service sent a message the mount does not know: ${line.slice(0, 200)}`,
  );
}

/** Splits a stream into lines; a line longer than MAX_LINE_BYTES is an error (hydration-protocol.ts). */
export class LineReader {
  #pending = '';

  /** The whole lines in `chunk` after what came before; throws HYDRATION_SOCKET_FAILED on a long line. */
  push(chunk: string): string[] {
    const parts = (this.#pending + chunk).split('\n');
    this.#pending = parts.pop() ?? '';
    if ([this.#pending, ...parts].some((line) => Buffer.byteLength(line) > MAX_LINE_BYTES)) {
      throw new MountError('HYDRATION_SOCKET_FAILED', 'The service sent a line over the size limit.');
    }
    return parts.filter((line) => line.trim() !== '');
  }
}

export interface HydrationClientEvents {
  /** Each answer of the service, in order. */
  readonly onMessage: (message: ServiceToMount) => void;
  /** The connection ended (closed, failed, or the service broke the protocol); called once. */
  readonly onClose: (error?: Error) => void;
}

/** The connection to the service's hydration socket; not reconnected: its end ends the mount. */
export class HydrationClient {
  readonly #socket: Socket;
  readonly #events: HydrationClientEvents;
  #closed = false;

  private constructor(socket: Socket, events: HydrationClientEvents) {
    this.#socket = socket;
    this.#events = events;
    const reader = new LineReader();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      try {
        for (const line of reader.push(chunk)) events.onMessage(parseServiceLine(line));
      } catch (error) {
        this.#end(error as Error);
      }
    });
    socket.on('error', (error) => this.#end(error));
    socket.on('close', () => this.#end());
  }

  /** Connects to the service's socket; throws HYDRATION_SOCKET_FAILED when nothing answers there. */
  static connect(socketPath: string, events: HydrationClientEvents): Promise<HydrationClient> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(socketPath);
      const fail = (error: Error): void =>
        reject(
          new MountError(
            'HYDRATION_SOCKET_FAILED',
            `The service's socket ${socketPath} could not be reached (${error.message}).`,
            { cause: error },
          ),
        );
      socket.once('error', fail);
      socket.once('connect', () => {
        socket.off('error', fail);
        resolve(new HydrationClient(socket, events));
      });
    });
  }

  /** Sends one line: a hydration asked for (its answers arrive through `onMessage`), or a free's answer. */
  send(message: MountToService): void {
    if (!this.#closed) this.#socket.write(`${JSON.stringify(message)}\n`);
  }

  close(): void {
    this.#socket.end();
    this.#end();
  }

  #end(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.destroy();
    this.#events.onClose(error);
  }
}
