// A TCP forwarder in front of the test device that notes when each byte passed, each way: transfer rates as the device sees them.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { startTestDevice, type TestDevice, type TestDeviceOptions } from './device.ts';

export type TapDirection = 'up' | 'down';

/** One chunk through the tap: when (performance.now() ms) and how many bytes. */
interface Passage {
  at: number;
  bytes: number;
}

export class ByteTap {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #target: { host: string; port: number } | undefined;
  #passages: Record<TapDirection, Passage[]> = { up: [], down: [] };
  #lastClose: number | undefined;
  /** Counts resets: a connection opened before the last one (an idle keep-alive) closing says nothing. */
  #epoch = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async listen(): Promise<ByteTap> {
    const server = createServer();
    const tap = new ByteTap(server);
    server.on('connection', (socket) => tap.#accept(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return tap;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('the tap is not listening');
    return address.port;
  }

  set target(target: { host: string; port: number }) {
    this.#target = target;
  }

  /** Forgets what passed so far: counting starts again from zero. */
  reset(): void {
    this.#passages = { up: [], down: [] };
    this.#lastClose = undefined;
    this.#epoch += 1;
  }

  total(direction: TapDirection): number {
    return this.#passages[direction].reduce((sum, passage) => sum + passage.bytes, 0);
  }

  /** When the count of bytes since the last reset first reached `bytes` (ms), or undefined if it never did. */
  timeAt(direction: TapDirection, bytes: number): number | undefined {
    let count = 0;
    for (const passage of this.#passages[direction]) {
      count += passage.bytes;
      if (count >= bytes) return passage.at;
    }
    return undefined;
  }

  /** Seconds between the count reaching `from` bytes and reaching `to` bytes. */
  secondsBetween(direction: TapDirection, from: number, to: number): number {
    const start = this.timeAt(direction, from);
    const end = this.timeAt(direction, to);
    if (start === undefined || end === undefined) {
      throw new Error(`only ${this.total(direction)} bytes went ${direction}, not ${to}`);
    }
    return (end - start) / 1000;
  }

  /**
   * Seconds between the count reaching `from` bytes and the last close of a connection opened since
   * the last reset (its process ending). Unlike the last byte sent down, this is not early by the buffers between
   * device and client: the client closes only once it has read everything.
   */
  secondsUntilClientClosed(direction: TapDirection, from: number): number {
    const start = this.timeAt(direction, from);
    if (start === undefined || this.#lastClose === undefined) {
      throw new Error(`only ${this.total(direction)} bytes went ${direction}, or no client closed`);
    }
    return (this.#lastClose - start) / 1000;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #accept(client: Socket): void {
    const target = this.#target;
    if (target === undefined) {
      client.destroy();
      return;
    }
    const device = createConnection(target);
    this.#sockets.add(client).add(device);
    const cut = (): void => {
      client.destroy();
      device.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(device);
    };
    const epoch = this.#epoch;
    client.on('error', cut).on('close', () => {
      if (epoch === this.#epoch) this.#lastClose = performance.now();
      cut();
    });
    device.on('error', cut).on('close', cut);
    client.on('data', (chunk: Buffer) =>
      this.#passages.up.push({ at: performance.now(), bytes: chunk.length }),
    );
    device.on('data', (chunk: Buffer) =>
      this.#passages.down.push({ at: performance.now(), bytes: chunk.length }),
    );
    // pipe() keeps TCP's backpressure: the device writes only as fast as the client reads.
    client.pipe(device);
    device.pipe(client);
  }
}

/** A test device reached only through a tap: every address it hands out is the tap's. */
export async function tappedDevice(
  options: TestDeviceOptions = {},
): Promise<{ device: TestDevice; tap: ByteTap; stop: () => Promise<void> }> {
  const tap = await ByteTap.listen();
  const device = await startTestDevice({ ...options, publicUrl: `http://127.0.0.1:${tap.port}` });
  const listen = new URL(device.running.listenUrl);
  tap.target = { host: listen.hostname, port: Number(listen.port) };
  return {
    device,
    tap,
    stop: async () => {
      await tap.close();
      await device.stop();
    },
  };
}
