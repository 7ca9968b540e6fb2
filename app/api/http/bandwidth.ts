// Upload and download limits: a token bucket per direction, shared by every request of a process, and the throttle of a stream.
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream';
import { AbortedError } from '../../../common/errors.ts';
import type { RequestSpec } from './http-attempt.ts';

/** The time seam of the buckets (app/system/clock.ts's Clock fits it); tests drive it by hand. */
export interface BandwidthClock {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): object | number;
  clearTimeout(handle: object | number): void;
}

const realClock: BandwidthClock = {
  now: () => performance.now(),
  // Not unref'd: a transfer waiting for its turn is work the process is doing.
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The smallest burst: below it the pieces get so small that the timers cost more than the bytes. */
export const MIN_BURST_BYTES = 16 * 1024;

/**
 * What a full bucket lets through at once: a quarter second of the rate, at least 16 KiB. Small enough
 * that a limit holds over a second, large enough that a fast limit needs few timers.
 */
export function burstOf(bytesPerSecond: number): number {
  return Math.max(MIN_BURST_BYTES, Math.ceil(bytesPerSecond / 4));
}

/** Bytes per second, or undefined for no limit. */
export type Rate = number | undefined;

interface Waiter {
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * One direction's limit. Takes are served in the order they were asked for (one queue, one timer
 * for the whole bucket however many streams wait), so pairs sharing a process share the rate. A take
 * larger than the burst waits for a full bucket and leaves it in debt; streams never ask for more
 * than the burst (see `throttle`), so over any time T they pass at most burst + rate × T.
 */
export class TokenBucket {
  readonly #clock: BandwidthClock;
  #rate: Rate;
  #burst = 0;
  #tokens = 0;
  #last: number;
  readonly #queue: Waiter[] = [];
  #timer: object | number | undefined;

  constructor(rate: Rate, clock: BandwidthClock = realClock) {
    this.#clock = clock;
    this.#last = clock.now();
    this.#rate = undefined;
    this.setRate(rate);
  }

  /** Bytes per second; undefined when off. */
  get rate(): Rate {
    return this.#rate;
  }

  /** The largest piece a stream passes at once; undefined when off. */
  get burst(): number | undefined {
    return this.#rate === undefined ? undefined : this.#burst;
  }

  /** Changes the rate at once, for the takes already waiting too; undefined lets every waiter go. */
  setRate(rate: Rate): void {
    if (rate !== undefined && !(Number.isFinite(rate) && rate > 0)) {
      throw new RangeError(`A bandwidth limit is a positive number of bytes per second, not ${rate}.`);
    }
    this.#refill();
    const was = this.#rate;
    this.#rate = rate;
    if (rate === undefined) {
      this.#tokens = 0;
      if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
      for (const waiter of this.#queue.splice(0)) this.#settle(waiter);
      return;
    }
    this.#burst = burstOf(rate);
    // A new limit starts with a full bucket; a changed one keeps what it holds, within the new burst.
    this.#tokens = was === undefined ? this.#burst : Math.min(this.#tokens, this.#burst);
    this.#serve();
  }

  /** Takes `bytes` at once when nothing waits and the bucket holds them; false otherwise (nothing taken). */
  tryTake(bytes: number): boolean {
    if (this.#rate === undefined) return true;
    if (this.#queue.length > 0) return false;
    this.#refill();
    if (this.#tokens < Math.min(bytes, this.#burst)) return false;
    this.#tokens -= bytes;
    return true;
  }

  /** Resolves when `bytes` may go; rejects with ABORTED when `signal` aborts first. */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.tryTake(bytes)) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(new AbortedError());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { bytes, resolve, reject, signal, onAbort: undefined };
      if (signal !== undefined) {
        waiter.onAbort = () => {
          const at = this.#queue.indexOf(waiter);
          if (at < 0) return;
          this.#queue.splice(at, 1);
          reject(new AbortedError());
          // The head may have changed: its wait is another one.
          if (at === 0) this.#serve();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      if (this.#queue.length === 1) this.#serve();
    });
  }

  #refill(): void {
    const now = this.#clock.now();
    if (this.#rate !== undefined) {
      this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) * this.#rate) / 1000);
    }
    this.#last = now;
  }

  /** Lets waiters go from the head while the bucket holds their bytes, then sets one timer for the next. */
  #serve(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const rate = this.#rate;
    if (rate === undefined) return;
    this.#refill();
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      const needed = Math.min(head.bytes, this.#burst);
      if (this.#tokens < needed) {
        // Waits until half the burst is there, not only this piece: what follows it (the next chunks of
        // the stream, read meanwhile) then passes without a timer of its own. One wake for every 64 KiB
        // cost more CPU than the transfer (a wake is ~0.3 ms here); this is at most 8 a second. Rounded
        // up, so the bucket holds the bytes when the timer fires.
        const wanted = Math.max(needed, this.#burst / 2);
        const delayMs = Math.max(1, Math.ceil(((wanted - this.#tokens) * 1000) / rate));
        this.#timer = this.#clock.setTimeout(() => {
          this.#timer = undefined;
          this.#serve();
        }, delayMs);
        return;
      }
      this.#tokens -= head.bytes;
      this.#queue.shift();
      this.#settle(head);
    }
  }

  #settle(waiter: Waiter): void {
    if (waiter.onAbort !== undefined) waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve();
  }
}

/** Upload and download limits of one profile's process: one bucket each, shared by every transport derived from one. */
export class Bandwidth {
  readonly up: TokenBucket;
  readonly down: TokenBucket;

  constructor(limits: BandwidthLimits = {}, clock: BandwidthClock = realClock) {
    this.up = new TokenBucket(limits.upBytesPerSec, clock);
    this.down = new TokenBucket(limits.downBytesPerSec, clock);
  }

  /** Applies new limits at once, to transfers under way too (those that were not limited stay so). */
  set(limits: BandwidthLimits): void {
    this.up.setRate(limits.upBytesPerSec);
    this.down.setRate(limits.downBytesPerSec);
  }
}

/** The limits as settings keep them: bytes per second, absent for none. */
export interface BandwidthLimits {
  upBytesPerSec?: number | undefined;
  downBytesPerSec?: number | undefined;
}

/**
 * `source` through `bucket`: chunks pass as the bucket allows, split into pieces of at most its burst
 * so a 1 MiB chunk never goes as one burst. Errors and destroys go both ways (pipeline). When the
 * bucket is off, `source` itself comes back: an unlimited transfer costs nothing.
 */
export function throttle(source: Readable, bucket: TokenBucket): Readable {
  if (bucket.rate === undefined) return source;
  const throttled = new ThrottleStream(bucket);
  // The pipeline's own callback is only told; the error reaches whoever reads `throttled`.
  return pipeline(source, throttled, () => undefined);
}

class ThrottleStream extends Transform {
  readonly #bucket: TokenBucket;
  readonly #stop = new AbortController();

  constructor(bucket: TokenBucket) {
    super();
    this.#bucket = bucket;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#pass(chunk, 0, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#stop.abort();
    callback(error);
  }

  /** Pushes `chunk` from `offset` piece by piece; waits (once per piece at most) only when the bucket is short. */
  #pass(chunk: Buffer, offset: number, callback: TransformCallback): void {
    let at = offset;
    while (at < chunk.length) {
      const piece = this.#bucket.burst;
      // Turned off meanwhile: the rest goes as it is.
      const end = piece === undefined ? chunk.length : Math.min(chunk.length, at + piece);
      const bytes = end - at;
      const from = at;
      if (!this.#bucket.tryTake(bytes)) {
        this.#bucket.take(bytes, this.#stop.signal).then(
          () => {
            if (this.destroyed) return;
            this.push(chunk.subarray(from, end));
            this.#pass(chunk, end, callback);
          },
          (error: unknown) => {
            if (!this.destroyed) callback(error as Error);
          },
        );
        return;
      }
      this.push(at === 0 && end === chunk.length ? chunk : chunk.subarray(at, end));
      at = end;
    }
    callback();
  }
}

/**
 * `spec` with a streamed body (a factory, called again for each attempt) read through `bucket`. The
 * bucket is asked at each call, so a limit set meanwhile applies from the next attempt on. Bytes in
 * memory larger than the burst (a file up to 1 MiB read once) are streamed too: sent whole, they
 * would go at the speed of the network and leave the bucket in debt, a burst the limit is there to stop.
 */
export function limitedUpload(spec: RequestSpec, bucket: TokenBucket): RequestSpec {
  const body = spec.body;
  if (typeof body === 'function') return { ...spec, body: () => throttle(body(), bucket) };
  const burst = bucket.burst;
  if (body === undefined || burst === undefined || body.byteLength <= burst) return spec;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return {
    ...spec,
    body: () => throttle(Readable.from([bytes], { objectMode: false }), bucket),
    contentLength: spec.contentLength ?? bytes.length,
  };
}

/** Waits until an in-memory body of `spec` (bytes, JSON, a form) may go; streamed ones are throttled instead. */
export async function takeInMemoryUpload(spec: RequestSpec, bucket: TokenBucket): Promise<void> {
  if (bucket.rate === undefined) return;
  const bytes =
    spec.json !== undefined
      ? Buffer.byteLength(JSON.stringify(spec.json))
      : spec.form !== undefined
        ? Buffer.byteLength(new URLSearchParams(spec.form).toString())
        : spec.body instanceof Uint8Array
          ? spec.body.byteLength
          : 0;
  if (bytes > 0) await bucket.take(bytes, spec.signal);
}

/** An answer's body through `bucket`: a stream throttled, or a body read whole counted before it is handed on. */
export async function limitedAnswer(
  body: Buffer | Readable,
  bucket: TokenBucket,
  signal: AbortSignal | undefined,
): Promise<Buffer | Readable> {
  if (bucket.rate === undefined) return body;
  if (!Buffer.isBuffer(body)) return throttle(body, bucket);
  if (body.length > 0) await bucket.take(body.length, signal);
  return body;
}
