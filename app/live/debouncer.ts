// A trailing debounce with a maximum wait: fires once things have been quiet for a while, or at the latest after a cap.
import { systemClock, type Clock, type TimerHandle } from './clock.ts';

export interface DebouncerOptions {
  /** Fire this long after the last trigger (live sync: 300 ms). */
  quietMs: number;
  /** ...but no later than this long after the first trigger of a round (live sync: 2 s), so a storm still flushes. */
  maxWaitMs: number;
  onFire: () => void;
  clock?: Clock;
}

/**
 * One timer per round, re-armed lazily: a trigger only records its time, and the timer, when it runs,
 * decides whether to fire or to sleep until the new deadline. A folder move of thousands of files costs
 * thousands of number writes, not thousands of timers.
 */
export class Debouncer {
  readonly #quietMs: number;
  readonly #maxWaitMs: number;
  readonly #onFire: () => void;
  readonly #clock: Clock;
  #firstAtMs: number | undefined;
  #lastAtMs = 0;
  #timer: TimerHandle | undefined;

  constructor(options: DebouncerOptions) {
    this.#quietMs = options.quietMs;
    this.#maxWaitMs = Math.max(options.maxWaitMs, options.quietMs);
    this.#onFire = options.onFire;
    this.#clock = options.clock ?? systemClock;
  }

  /** Whether a round is waiting to fire. */
  get armed(): boolean {
    return this.#firstAtMs !== undefined;
  }

  /** Something happened: (re)start the quiet period. */
  trigger(): void {
    const now = this.#clock.now();
    this.#lastAtMs = now;
    if (this.#firstAtMs === undefined) {
      this.#firstAtMs = now;
      this.#arm(this.#quietMs);
    }
  }

  /** Fires now if a round is waiting. */
  flush(): void {
    if (this.#firstAtMs === undefined) return;
    this.#fire();
  }

  /** Drops the waiting round without firing. */
  cancel(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#firstAtMs = undefined;
  }

  #deadline(): number {
    const first = this.#firstAtMs ?? this.#lastAtMs;
    return Math.min(this.#lastAtMs + this.#quietMs, first + this.#maxWaitMs);
  }

  #arm(delayMs: number): void {
    this.#timer = this.#clock.setTimeout(() => this.#onTimer(), Math.max(0, delayMs));
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#firstAtMs === undefined) return;
    const wait = this.#deadline() - this.#clock.now();
    if (wait > 0) this.#arm(wait);
    else this.#fire();
  }

  #fire(): void {
    this.cancel();
    this.#onFire();
  }
}
