// The limits' token bucket and stream throttle, on a clock driven by hand.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  Bandwidth,
  burstOf,
  MIN_BURST_BYTES,
  throttle,
  TokenBucket,
  type BandwidthClock,
} from '../../../../app/api/http/bandwidth.ts';

/** A clock whose time moves only when a test says; timers fire as it passes them. */
class HandClock implements BandwidthClock {
  time = 0;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): number {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + delayMs, callback });
    return id;
  }

  clearTimeout(handle: object | number): void {
    this.#timers.delete(handle as number);
  }

  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward to `ms` later, firing each timer at its time, then lets promises settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at);
      const first = due[0];
      if (first === undefined) break;
      this.#timers.delete(first[0]);
      this.time = Math.max(this.time, first[1].at);
      first[1].callback();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

describe('TokenBucket', () => {
  it('starts full: a burst of a quarter second of the rate passes at once, then the rate holds', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(400_000, clock);
    expect(bucket.burst).toBe(100_000);
    expect(bucket.tryTake(100_000)).toBe(true);
    expect(bucket.tryTake(1)).toBe(false);
    let done = false;
    void bucket.take(40_000).then(() => (done = true));
    // A waiter wakes when half a burst is there (50,000 bytes at 400,000 B/s: 125 ms), not as soon as
    // its own 40,000 are: one timer then lets the next 10,000 through too.
    await clock.advance(124);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(done).toBe(true);
    expect(bucket.tryTake(10_000)).toBe(true);
    expect(bucket.tryTake(1)).toBe(false);
  });

  it('the burst is at least 16 KiB, however slow the rate', () => {
    expect(burstOf(1000)).toBe(MIN_BURST_BYTES);
    expect(new TokenBucket(1000, new HandClock()).burst).toBe(MIN_BURST_BYTES);
  });

  it('serves waiters in the order they asked, with one timer however many wait', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(100_000, clock);
    expect(bucket.tryTake(25_000)).toBe(true);
    const order: number[] = [];
    for (const n of [1, 2, 3]) void bucket.take(10_000).then(() => order.push(n));
    expect(clock.pending).toBe(1);
    // Half a burst (12,500 bytes at 100,000 B/s) for the first, then 100 ms each for the 10,000 more.
    await clock.advance(124);
    expect(order).toEqual([]);
    await clock.advance(1);
    expect(order).toEqual([1]);
    // 2,500 bytes are left, but a newcomer does not jump the queue: it waits its turn.
    expect(bucket.tryTake(1)).toBe(false);
    await clock.advance(200);
    expect(order).toEqual([1, 2, 3]);
  });

  it('over a long run passes at most burst + rate × time, whatever the mix of takes', async () => {
    const clock = new HandClock();
    const rate = 50_000;
    const bucket = new TokenBucket(rate, clock);
    let passed = 0;
    const sizes = [3000, 16_384, 700, 12_000, 9000];
    const takes = Array.from({ length: 200 }, (_, i) => sizes[i % sizes.length] as number);
    const all = Promise.all(takes.map((bytes) => bucket.take(bytes).then(() => (passed += bytes))));
    for (let t = 0; t < 40_000; t += 50) {
      await clock.advance(50);
      expect(passed).toBeLessThanOrEqual(bucket.burst! + (rate * clock.time) / 1000);
    }
    await all;
    const total = takes.reduce((a, b) => a + b, 0);
    expect(passed).toBe(total);
  });

  it('a take larger than the burst waits for a full bucket and leaves it in debt', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(40_000, clock);
    expect(bucket.tryTake(16_384)).toBe(true);
    let big = false;
    void bucket.take(100_000).then(() => (big = true));
    await clock.advance(409);
    expect(big).toBe(false);
    await clock.advance(2);
    expect(big).toBe(true);
    // About 83,600 bytes of debt at 40,000 B/s (2.09 s), then half a burst (0.2 s) before 1 more byte.
    let next = false;
    void bucket.take(1).then(() => (next = true));
    await clock.advance(2200);
    expect(next).toBe(false);
    await clock.advance(100);
    expect(next).toBe(true);
  });

  it('a new rate applies to the waiters at once', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(20_000, clock);
    bucket.tryTake(16_384);
    let done = false;
    // 820 ms at 20,000 B/s; at 1,000,000 B/s half its burst (125,000 bytes) is there in 125 ms.
    void bucket.take(16_384).then(() => (done = true));
    bucket.setRate(1_000_000);
    await clock.advance(124);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(done).toBe(true);
  });

  it('off lets every waiter go at once, and costs no timer', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(20_000, clock);
    bucket.tryTake(16_384);
    const done: number[] = [];
    void bucket.take(16_384).then(() => done.push(1));
    void bucket.take(16_384).then(() => done.push(2));
    bucket.setRate(undefined);
    await settle();
    expect(done).toEqual([1, 2]);
    expect(bucket.rate).toBeUndefined();
    expect(bucket.tryTake(1e12)).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('an aborted take leaves the queue and rejects with ABORTED', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(20_000, clock);
    bucket.tryTake(16_384);
    const stop = new AbortController();
    const waiting = bucket.take(10_000, stop.signal);
    let after = false;
    void bucket.take(1000).then(() => (after = true));
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ABORTED' });
    // The next one waits only for itself (half a burst, 8,192 bytes: 410 ms), not the 500 ms of both.
    await clock.advance(409);
    expect(after).toBe(false);
    await clock.advance(2);
    expect(after).toBe(true);
  });

  it('refuses a rate that is not a positive number', () => {
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new TokenBucket(rate, new HandClock())).toThrow(RangeError);
    }
  });
});

describe('throttle', () => {
  it('off: the very same stream comes back, not wrapped', () => {
    const source = Readable.from([Buffer.alloc(10)]);
    expect(throttle(source, new Bandwidth().up)).toBe(source);
  });

  it('passes every byte in order, in pieces of at most the burst, as the bucket allows', async () => {
    const clock = new HandClock();
    const bucket = new TokenBucket(80_000, clock);
    const data = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    const source = Readable.from([data.subarray(0, 150_000), data.subarray(150_000)], { objectMode: false });
    const out = throttle(source, bucket);
    const pieces: Buffer[] = [];
    out.on('data', (piece: Buffer) => pieces.push(piece));
    const ended = new Promise((resolve) => out.on('end', resolve));
    await settle();
    // The first burst passes at once, the rest waits for time to pass.
    expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(20_000);
    for (let i = 0; i < 100 && !out.readableEnded; i += 1) await clock.advance(250);
    await ended;
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(20_000);
    // (200,000 - 20,000) / 80,000 B/s: at least 2.25 s of the hand clock.
    expect(clock.time).toBeGreaterThanOrEqual(2250);
  });

  it('an error of the source reaches the reader, and destroying the reader stops the source', async () => {
    const clock = new HandClock();
    const failing = new Readable({ read: () => undefined });
    const out = throttle(failing, new TokenBucket(20_000, clock));
    const failed = new Promise<Error>((resolve) => out.on('error', resolve));
    failing.destroy(Object.assign(new Error('disk gone'), { code: 'EIO' }));
    expect((await failed).message).toBe('disk gone');

    const source = new Readable({ read: () => undefined });
    const reader = throttle(source, new TokenBucket(20_000, clock));
    reader.on('error', () => undefined);
    reader.destroy();
    await settle();
    expect(source.destroyed).toBe(true);
  });
});

describe('Bandwidth', () => {
  it('holds one bucket per direction and changes both at once', () => {
    const bandwidth = new Bandwidth({ upBytesPerSec: 2_000_000 }, new HandClock());
    expect(bandwidth.up.rate).toBe(2_000_000);
    expect(bandwidth.down.rate).toBeUndefined();
    bandwidth.set({ downBytesPerSec: 500_000 });
    expect(bandwidth.up.rate).toBeUndefined();
    expect(bandwidth.down.rate).toBe(500_000);
  });
});
