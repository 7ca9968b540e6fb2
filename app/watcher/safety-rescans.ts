// The safety net of live sync: a full rescan every hour, and one after the machine wakes from sleep.
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';

export interface SafetyRescanOptions {
  onRescan: (reason: 'hourly' | 'wake') => void;
  /** A full rescan at least this often (default one hour). */
  everyMs?: number;
  /** How often the clocks are looked at (default 15 s). */
  tickMs?: number;
  /**
   * A tick that comes this much later on the wall clock than planned means the process did not run:
   * the machine slept (default 60 s). A blocked event loop looks the same and only costs a rescan.
   */
  lateMs?: number;
  clock?: Clock;
}

export interface SafetyRescans {
  /** A full rescan just ran (at start, after an error...): the hour starts again. */
  noteFullRescan(): void;
  stop(): void;
}

/**
 * Ticks on a short timer and compares wall-clock time between ticks: timers do not run while the
 * machine sleeps, and on Linux and macOS the monotonic clock does not advance either, so only the wall
 * clock shows the gap. The hourly rescan counts on the monotonic clock from the last full rescan.
 */
export function startSafetyRescans(options: SafetyRescanOptions): SafetyRescans {
  const clock = options.clock ?? systemClock;
  const everyMs = options.everyMs ?? 3_600_000;
  const tickMs = options.tickMs ?? 15_000;
  const lateMs = options.lateMs ?? 60_000;
  let lastFullMs = clock.now();
  let lastWallMs = clock.wallNow();
  let timer: TimerHandle | undefined;
  let stopped = false;

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    const wallMs = clock.wallNow();
    const slept = wallMs - lastWallMs > tickMs + lateMs;
    lastWallMs = wallMs;
    if (slept) {
      lastFullMs = clock.now();
      options.onRescan('wake');
    } else if (clock.now() - lastFullMs >= everyMs) {
      lastFullMs = clock.now();
      options.onRescan('hourly');
    }
    if (!stopped) timer = clock.setTimeout(tick, tickMs);
  };
  timer = clock.setTimeout(tick, tickMs);

  return {
    noteFullRescan: () => {
      lastFullMs = clock.now();
    },
    stop: () => {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
