// A minimal D-Bus client over a Unix socket: SASL EXTERNAL, Hello, method calls and their answers, signals.
import { createConnection, type Socket } from 'node:net';
import { socketPathsOf } from './bus-address.ts';
import {
  decodeMessage,
  encodeMessage,
  messageLength,
  type DbusMessage,
  type DbusValue,
} from './dbus-wire.ts';
import { DbusError } from './network-errors.ts';

export interface DbusCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: DbusValue[];
}

export interface DbusConnectionOptions {
  /** How long a call waits for its answer (default 10 s). */
  callTimeoutMs?: number;
  /** How long connecting and signing in may take (default 5 s). */
  connectTimeoutMs?: number;
}

const BUS = {
  destination: 'org.freedesktop.DBus',
  path: '/org/freedesktop/DBus',
  interface: 'org.freedesktop.DBus',
};
/** The bus's answers during sign-in are a line of a few dozen bytes. */
const MAX_AUTH_LINE_BYTES = 1024;
const NO_REPLY_EXPECTED = 0x1;

interface Pending {
  resolve: (body: DbusValue[]) => void;
  reject: (error: DbusError) => void;
  timer: NodeJS.Timeout;
}

/** One connection to a bus, signed in and named (`Hello`); `close()` ends it. */
export class DbusConnection {
  readonly #socket: Socket;
  readonly #callTimeoutMs: number;
  readonly #pending = new Map<number, Pending>();
  readonly #signalListeners = new Set<(message: DbusMessage) => void>();
  readonly #closeListeners = new Set<(error: DbusError) => void>();
  #serial = 0;
  #received: Buffer = Buffer.alloc(0);
  #closed: DbusError | undefined;
  uniqueName = '';

  private constructor(socket: Socket, callTimeoutMs: number) {
    this.#socket = socket;
    this.#callTimeoutMs = callTimeoutMs;
  }

  /** Connects to the first socket of `address` that answers, signs in and says Hello. */
  static async open(address: string, options: DbusConnectionOptions = {}): Promise<DbusConnection> {
    const paths = socketPathsOf(address);
    let last: unknown;
    for (const path of paths) {
      let socket: Socket | undefined;
      try {
        socket = await connectAndAuthenticate(path, options.connectTimeoutMs ?? 5_000);
      } catch (error) {
        last = error;
        continue;
      }
      const connection = new DbusConnection(socket, options.callTimeoutMs ?? 10_000);
      connection.#listen();
      try {
        const [name] = await connection.call({ ...BUS, member: 'Hello' });
        if (typeof name !== 'string')
          throw new DbusError('DBUS_BAD_MESSAGE', 'The bus answered Hello with no name.');
        connection.uniqueName = name;
      } catch (error) {
        connection.close();
        throw error;
      }
      return connection;
    }
    if (last instanceof DbusError) throw last;
    throw new DbusError('DBUS_UNREACHABLE', `No D-Bus bus answers at ${address}.`, { cause: last });
  }

  /** Calls a method and resolves with the body of its answer; DbusError when it fails. */
  call(call: DbusCall): Promise<DbusValue[]> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    const serial = this.#nextSerial();
    const bytes = encodeMessage({
      type: 'call',
      flags: 0,
      serial,
      destination: call.destination,
      path: call.path,
      interface: call.interface,
      member: call.member,
      ...(call.signature === undefined ? {} : { signature: call.signature }),
      body: call.body ?? [],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(serial);
        reject(
          new DbusError(
            'DBUS_TIMEOUT',
            `${call.interface}.${call.member} got no answer from ${call.destination}.`,
          ),
        );
      }, this.#callTimeoutMs).unref();
      this.#pending.set(serial, { resolve, reject, timer });
      this.#socket.write(bytes);
    });
  }

  /** Asks the bus to send this connection the signals a match rule names. */
  async addMatch(rule: string): Promise<void> {
    await this.call({ ...BUS, member: 'AddMatch', signature: 's', body: [rule] });
  }

  onSignal(listener: (message: DbusMessage) => void): void {
    this.#signalListeners.add(listener);
  }

  /** Told once when the connection ends for any reason but `close()` (the bus went away, a bad message). */
  onClose(listener: (error: DbusError) => void): void {
    this.#closeListeners.add(listener);
  }

  /** The connection alone does not keep the process alive (a watcher's, waiting for signals). */
  unref(): void {
    this.#socket.unref();
  }

  close(): void {
    this.#end(new DbusError('DBUS_CLOSED', 'The D-Bus connection was closed.'), false);
  }

  #nextSerial(): number {
    this.#serial = this.#serial >= 0xffffffff ? 1 : this.#serial + 1;
    return this.#serial;
  }

  #listen(): void {
    this.#socket.resume();
    this.#socket.on('data', (chunk: Buffer) => {
      try {
        this.#take(chunk);
      } catch (error) {
        const reason =
          error instanceof DbusError
            ? error
            : new DbusError('DBUS_BAD_MESSAGE', String(error), { cause: error });
        this.#end(reason, true);
      }
    });
    this.#socket.on('error', (error) => {
      this.#end(new DbusError('DBUS_CLOSED', `The D-Bus connection failed: ${error.message}`), true);
    });
    this.#socket.on('close', () => {
      this.#end(new DbusError('DBUS_CLOSED', 'The bus closed the D-Bus connection.'), true);
    });
  }

  #take(chunk: Buffer): void {
    this.#received = this.#received.length === 0 ? chunk : Buffer.concat([this.#received, chunk]);
    for (;;) {
      // Throws past the size bound: a message that large is never collected.
      const length = messageLength(this.#received);
      if (length === undefined || this.#received.length < length) return;
      const message = decodeMessage(this.#received.subarray(0, length));
      this.#received = this.#received.subarray(length);
      this.#dispatch(message);
      if (this.#closed !== undefined) return;
    }
  }

  #dispatch(message: DbusMessage): void {
    if (message.type === 'return' || message.type === 'error') {
      const pending = message.replySerial === undefined ? undefined : this.#pending.get(message.replySerial);
      if (pending === undefined) return;
      this.#pending.delete(message.replySerial!);
      clearTimeout(pending.timer);
      if (message.type === 'return') {
        pending.resolve(message.body);
        return;
      }
      const text = typeof message.body[0] === 'string' ? `: ${message.body[0]}` : '';
      pending.reject(
        new DbusError('DBUS_CALL_FAILED', `${message.errorName ?? 'The call failed'}${text}`, {
          ...(message.errorName === undefined ? {} : { dbusName: message.errorName }),
        }),
      );
      return;
    }
    if (message.type === 'signal') {
      for (const listener of this.#signalListeners) listener(message);
      return;
    }
    // A call to this client (a Peer.Ping, a stray introspection): it serves nothing, and says so.
    if ((message.flags & NO_REPLY_EXPECTED) !== 0 || message.sender === undefined) return;
    this.#socket.write(
      encodeMessage({
        type: 'error',
        flags: NO_REPLY_EXPECTED,
        serial: this.#nextSerial(),
        replySerial: message.serial,
        destination: message.sender,
        errorName: 'org.freedesktop.DBus.Error.UnknownMethod',
        signature: 's',
        body: ['This client serves no methods.'],
      }),
    );
  }

  #end(reason: DbusError, tell: boolean): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    this.#socket.destroy();
    for (const [serial, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(reason);
      this.#pending.delete(serial);
    }
    if (tell) for (const listener of this.#closeListeners) listener(reason);
  }
}

/** Connects and signs in with SASL EXTERNAL (the uid in hex); resolves with the socket after BEGIN. */
function connectAndAuthenticate(path: string, timeoutMs: number): Promise<Socket> {
  const uid = process.getuid?.();
  if (uid === undefined) {
    return Promise.reject(
      new DbusError('DBUS_UNREACHABLE', 'D-Bus over a Unix socket needs a user id (not on Windows).'),
    );
  }
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path });
    let line = Buffer.alloc(0);
    const fail = (error: DbusError): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(new DbusError('DBUS_UNREACHABLE', `The D-Bus socket ${printable(path)} did not answer in time.`));
    }, timeoutMs).unref();
    socket.once('error', (error) => {
      fail(
        new DbusError(
          'DBUS_UNREACHABLE',
          `Cannot reach the D-Bus socket ${printable(path)}: ${error.message}`,
          { cause: error },
        ),
      );
    });
    socket.once('connect', () => {
      // The NUL first (the spec's credentials byte), then the uid as hex of its decimal digits.
      socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(uid), 'ascii').toString('hex')}\r\n`);
    });
    const onData = (chunk: Buffer): void => {
      line = Buffer.concat([line, chunk]);
      const end = line.indexOf('\r\n');
      if (end === -1) {
        if (line.length > MAX_AUTH_LINE_BYTES)
          fail(new DbusError('DBUS_AUTH_FAILED', 'The bus sent a sign-in line too long to be one.'));
        return;
      }
      const answer = line.subarray(0, end).toString('latin1');
      if (!answer.startsWith('OK ') || end + 2 !== line.length) {
        fail(
          new DbusError(
            'DBUS_AUTH_FAILED',
            `The bus refused the sign-in as user ${uid} ("${answer.slice(0, 80)}").`,
          ),
        );
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('error');
      // Held until the connection listens: nothing the bus sends next is read by no one.
      socket.pause();
      socket.write('BEGIN\r\n');
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** An abstract socket's name starts with a NUL; shown as `@name`, as ss and netstat do. */
function printable(path: string): string {
  return path.startsWith('\0') ? `@${path.slice(1)}` : path;
}
