// A clock for live-sync tests that moves only when told to, running due timers in order.
import type { Clock, TimerHandle } from '../../../../app/system/clock.ts';

interface Timer {
  atMs: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  #nowMs = 0;
  #wallMs = 1_800_000_000_000;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();

  now(): number {
    return this.#nowMs;
  }

  wallNow(): number {
    return this.#wallMs;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { atMs: this.#nowMs + Math.max(0, delayMs), callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves both clocks forward by `ms`, running each timer that comes due, in time order. */
  advance(ms: number): void {
    const target = this.#nowMs + ms;
    for (;;) {
      let next: [number, Timer] | undefined;
      for (const entry of this.#timers) {
        if (entry[1].atMs <= target && (next === undefined || entry[1].atMs < next[1].atMs)) next = entry;
      }
      if (next === undefined) break;
      this.#timers.delete(next[0]);
      this.#wallMs += next[1].atMs - this.#nowMs;
      this.#nowMs = next[1].atMs;
      next[1].callback();
    }
    this.#wallMs += target - this.#nowMs;
    this.#nowMs = target;
  }

  /** The machine slept: the wall clock jumps, the monotonic clock and timers do not move. */
  sleep(ms: number): void {
    this.#wallMs += ms;
  }
}
