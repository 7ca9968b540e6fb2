// A trailing debounce with a maximum wait: fires once things have been quiet for a while, or at the latest after a cap.
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';

export interface DebouncerOptions {
  /** Fire this long after the last trigger (live sync: 300 ms). */
  quietMs: number;
  /** ...but no later than this long after the first trigger of a round (live sync: 2 s), so a storm still flushes. */
  maxWaitMs: number;
  /**
   * A shorter quiet time for a trigger after which `isSettled()` holds (live sync: 50 ms once every
   * pending event is half of a rename already paired, see `EventCleaner.settled`). The last trigger's
   * quiet time counts: a storm that follows a settled trigger gets the long one again.
   */
  settledQuietMs?: number;
  /** Asked at each trigger, only when `settledQuietMs` is shorter than `quietMs`. */
  isSettled?: () => boolean;
  onFire: () => void;
  clock?: Clock;
}

/**
 * One timer per round, re-armed lazily: a trigger only records its time, and the timer, when it runs,
 * decides whether to fire or to sleep until the new deadline. A folder move of thousands of files costs
 * thousands of number writes, not thousands of timers. Only a trigger that brings the deadline forward
 * (a settled one after unsettled ones) moves the timer.
 */
export class Debouncer {
  readonly #quietMs: number;
  readonly #settledQuietMs: number;
  readonly #isSettled: (() => boolean) | undefined;
  readonly #maxWaitMs: number;
  readonly #onFire: () => void;
  readonly #clock: Clock;
  #firstAtMs: number | undefined;
  #lastAtMs = 0;
  /** The quiet time the last trigger asked for. */
  #lastQuietMs: number;
  #timer: TimerHandle | undefined;
  #timerAtMs = 0;

  constructor(options: DebouncerOptions) {
    this.#quietMs = options.quietMs;
    this.#settledQuietMs = Math.min(options.settledQuietMs ?? options.quietMs, options.quietMs);
    this.#isSettled = this.#settledQuietMs < this.#quietMs ? options.isSettled : undefined;
    this.#lastQuietMs = options.quietMs;
    this.#maxWaitMs = Math.max(options.maxWaitMs, options.quietMs);
    this.#onFire = options.onFire;
    this.#clock = options.clock ?? systemClock;
  }

  /** Whether a round is waiting to fire. */
  get armed(): boolean {
    return this.#firstAtMs !== undefined;
  }

  /** Something happened: (re)start the quiet period, short if what is pending is settled. */
  trigger(): void {
    const now = this.#clock.now();
    this.#lastAtMs = now;
    this.#lastQuietMs = this.#isSettled?.() === true ? this.#settledQuietMs : this.#quietMs;
    if (this.#firstAtMs === undefined) {
      this.#firstAtMs = now;
      this.#arm(this.#deadline());
      return;
    }
    const deadline = this.#deadline();
    if (this.#timer !== undefined && deadline < this.#timerAtMs) {
      this.#clock.clearTimeout(this.#timer);
      this.#arm(deadline);
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
    return Math.min(this.#lastAtMs + this.#lastQuietMs, first + this.#maxWaitMs);
  }

  #arm(atMs: number): void {
    this.#timerAtMs = atMs;
    this.#timer = this.#clock.setTimeout(() => this.#onTimer(), Math.max(0, atMs - this.#clock.now()));
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#firstAtMs === undefined) return;
    const deadline = this.#deadline();
    if (deadline > this.#clock.now()) this.#arm(deadline);
    else this.#fire();
  }

  #fire(): void {
    this.cancel();
    this.#onFire();
  }
}
