// The time seam of live sync: a monotonic clock, the wall clock and timers, so tests can drive time by hand.

/** Whatever `setTimeout` returned (a Node Timeout, or a number from a test clock); only passed back to `clearTimeout`. */
export type TimerHandle = object | number;

export interface Clock {
  /** Monotonic milliseconds, for durations (does not jump when the wall clock is set). */
  now(): number;
  /** Wall-clock milliseconds since the epoch: jumps forward over a sleep of the machine. */
  wallNow(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock; timers are unref'd so that a watcher alone never keeps the process alive. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
