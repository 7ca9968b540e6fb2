// A second address of the device: a TCP forwarder to its listener that can be taken down and brought back, and
// can shape its traffic like a relay (a one-way latency and a bandwidth cap shared by all its connections).
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface LinkShape {
  /** Added to every chunk, each way (so a request/answer round trip gets twice this). */
  latencyMs: number;
  /** Bytes per second, each way, shared by every connection through the forwarder; undefined: no cap. */
  bytesPerSecond?: number;
}

export type AddressState = 'up' | 'down';

/** Bytes a connection may have waiting in the shaper before its sender is paused. */
const MAX_QUEUED_BYTES = 256 * 1024;

/**
 * One direction of the link. The cap is a virtual clock: each chunk occupies the wire for
 * bytes/rate seconds after the one before it, then arrives `latencyMs` later. The clock is shared by
 * every connection, so two downloads through the relay split its bandwidth as they would on a real
 * uplink. Delivery times only grow, so the chunks of one connection keep their order.
 */
class Direction {
  readonly shape: LinkShape;
  #wireFreeAt = 0;

  constructor(shape: LinkShape) {
    this.shape = shape;
  }

  deliveryTime(bytes: number, now: number): number {
    const rate = this.shape.bytesPerSecond;
    if (rate === undefined) return now + this.shape.latencyMs;
    const start = Math.max(now, this.#wireFreeAt);
    this.#wireFreeAt = start + (bytes / rate) * 1000;
    return this.#wireFreeAt + this.shape.latencyMs;
  }
}

export class Forwarder {
  readonly host: string;
  #port: number;
  readonly #target: { host: string; port: number };
  readonly #up: Direction | undefined;
  readonly #down: Direction | undefined;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  /**
   * Bytes that came in from clients (`up`) and from the device (`down`) since the start: tests read
   * which address a transfer went through, and how much of it.
   */
  readonly traffic = { up: 0, down: 0 };

  constructor(options: {
    host: string;
    port: number;
    target: { host: string; port: number };
    shape?: LinkShape;
  }) {
    this.host = options.host;
    this.#port = options.port;
    this.#target = options.target;
    if (options.shape) {
      this.#up = new Direction(options.shape);
      this.#down = new Direction(options.shape);
    }
  }

  get port(): number {
    return this.#port;
  }

  get state(): AddressState {
    return this.#server ? 'up' : 'down';
  }

  /** Listens; once up, the port stays the same across down and up, so the advertised address holds. */
  async start(): Promise<void> {
    if (this.#server) return;
    const server = createServer((client) => this.#accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.host, port: this.#port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (typeof address === 'object' && address) this.#port = address.port;
    this.#server = server;
  }

  /** Stops listening (new connections are refused) and cuts every open connection. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }

  async set(state: AddressState): Promise<void> {
    if (state === 'up') await this.start();
    else await this.stop();
  }

  #accept(client: Socket): void {
    const device = createConnection(this.#target);
    this.#sockets.add(client);
    this.#sockets.add(device);
    const cut = (): void => {
      client.destroy();
      device.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(device);
    };
    client.on('error', cut).on('close', cut);
    device.on('error', cut).on('close', cut);
    client.on('data', (chunk: Buffer) => (this.traffic.up += chunk.length));
    device.on('data', (chunk: Buffer) => (this.traffic.down += chunk.length));
    if (!this.#up || !this.#down) {
      client.pipe(device);
      device.pipe(client);
      return;
    }
    this.#shapeInto(client, device, this.#up);
    this.#shapeInto(device, client, this.#down);
  }

  /**
   * Copies `from` to `to` through the shaper, pausing `from` while too much waits (backpressure). The
   * chunks wait in one queue per connection and direction, driven by one timer for its head: a timer
   * per chunk can fire out of order (timers of different delays sit in different lists, started at the
   * event loop's cached time), which would reorder the bytes of a stream.
   */
  #shapeInto(from: Socket, to: Socket, direction: Direction): void {
    const queue: { chunk: Buffer; at: number }[] = [];
    let queued = 0;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    let waitingForDrain = false;
    const resumeIfRoom = (flushed: boolean): void => {
      if (queued > MAX_QUEUED_BYTES) return;
      if (flushed) from.resume();
      else if (!waitingForDrain) {
        waitingForDrain = true;
        to.once('drain', () => {
          waitingForDrain = false;
          from.resume();
        });
      }
    };
    const deliver = (): void => {
      timer = undefined;
      let flushed = true;
      while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) {
        const { chunk } = queue.shift() as { chunk: Buffer; at: number };
        queued -= chunk.length;
        if (to.destroyed) return;
        flushed = to.write(chunk);
      }
      resumeIfRoom(flushed);
      if (queue.length > 0) arm();
      else if (ended) to.end();
    };
    const arm = (): void => {
      if (timer !== undefined || queue.length === 0) return;
      timer = setTimeout(deliver, Math.max(0, (queue[0]?.at ?? 0) - Date.now()));
    };
    from.on('data', (chunk: Buffer) => {
      queued += chunk.length;
      if (queued > MAX_QUEUED_BYTES) from.pause();
      queue.push({ chunk, at: direction.deliveryTime(chunk.length, Date.now()) });
      arm();
    });
    from.on('end', () => {
      ended = true;
      if (queue.length === 0) to.end();
    });
    from.on('close', () => clearTimeout(timer));
  }
}

const UNITS: Record<string, number> = { '': 1, k: 1000, m: 1000 ** 2, g: 1000 ** 3 };

export class LinkShapeError extends Error {}

/** Parses a latency such as `40ms`, `0.2s` or `40` (milliseconds), at most a minute. */
export function parseLatency(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  const value = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : Number.NaN;
  if (!match || !Number.isFinite(value) || value > 60_000) {
    throw new LinkShapeError(`takes a latency such as 40ms or 0.2s (at most 60s), got "${text}".`);
  }
  return Math.round(value);
}

/** Parses a rate such as `5MB/s`, `500kB/s` or `1000000` (bytes per second; decimal units, like network rates). */
export function parseRate(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([kKmMgG]?)B\/s)?$/.exec(text.trim());
  const value = match ? Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN) : Number.NaN;
  if (!match || !Number.isFinite(value) || value < 1024) {
    throw new LinkShapeError(`takes a rate such as 5MB/s or 500kB/s (at least 1024 B/s), got "${text}".`);
  }
  return value;
}
