// Why live sync is paused: by the user (until a time, or until resumed) or by a metered network; ends a timed pause by itself.
import type { SyncPause } from '../../common/sync-status.ts';
import type { Clock, TimerHandle } from '../system/clock.ts';
import { NM_SOURCE, type NetworkMonitor } from '../network/network-monitor.ts';
import type { MeteredChoice } from '../profile/pair-metered.ts';

/**
 * The deadline is wall-clock time ("until 14:30"), but timers run on the monotonic clock, which stands
 * still while the machine sleeps: the deadline is looked at again at least this often, so a laptop
 * that wakes at 16:00 resumes within a minute, not an hour and a half later.
 */
const RECHECK_MS = 60_000;

export interface PauseEvents {
  /** Paused now, or paused for another reason; `first`: it was not paused before (work under way stops). */
  paused(pause: SyncPause, first: boolean): void;
  /** No longer paused (the user resumed, the deadline passed, the network is not metered any more). */
  resumed(): void;
}

export class PauseState {
  readonly #clock: Clock;
  readonly #events: PauseEvents;
  /** The user's pause: its end in wall-clock ms, or null until resumed; undefined when not paused. */
  #userUntil: number | null | undefined;
  #metered = false;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, events: PauseEvents) {
    this.#clock = clock;
    this.#events = events;
  }

  get paused(): boolean {
    return this.pause !== undefined;
  }

  /** The pause shown in the status; the user's wins (it says when it ends), else the metered network's. */
  get pause(): SyncPause | undefined {
    if (this.#userUntil !== undefined) return { by: 'user', untilMs: this.#userUntil };
    return this.#metered ? { by: 'metered', untilMs: null } : undefined;
  }

  /** Paused by the user until `untilMs` (wall clock), or until resumed (null); a new pause replaces the last. */
  pauseByUser(untilMs: number | null): void {
    this.#change(() => {
      this.#userUntil = untilMs;
    });
    this.#schedule();
  }

  /** Ends the user's pause, if there is one. */
  endUserPause(): void {
    this.#clear();
    this.#change(() => {
      this.#userUntil = undefined;
    });
  }

  /** The network is metered (and this pair does not sync on metered networks), or no longer. */
  setMetered(metered: boolean): void {
    this.#change(() => {
      this.#metered = metered;
    });
  }

  stop(): void {
    this.#clear();
  }

  #change(change: () => void): void {
    const before = this.pause;
    change();
    const after = this.pause;
    if (after !== undefined) {
      if (before?.by !== after.by || before.untilMs !== after.untilMs)
        this.#events.paused(after, before === undefined);
    } else if (before !== undefined) {
      this.#events.resumed();
    }
  }

  #schedule(): void {
    this.#clear();
    const until = this.#userUntil;
    if (until === undefined || until === null) return;
    const left = until - this.#clock.wallNow();
    if (left <= 0) {
      this.#change(() => {
        this.#userUntil = undefined;
      });
      return;
    }
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#schedule();
      },
      Math.min(left, RECHECK_MS),
    );
  }

  #clear(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The words of a pause for the status: "Paused until 14:30: ...", the date too when it is not today. */
export function pauseDetail(pause: SyncPause, nowMs: number, pairFolder: string): string {
  if (pause.by === 'metered') {
    return (
      'Paused: metered network. Syncs again on a network that is not metered ' +
      `(\`mch-sync metered --folder ${pairFolder} sync\` syncs this folder on metered networks too).`
    );
  }
  if (pause.untilMs === null) return 'Paused: changes on either side wait until you resume.';
  return `Paused until ${untilWords(pause.untilMs, nowMs)}: changes on either side wait until then, or until you resume.`;
}

/** A pause in a few words, for the window's card and the tray: "Paused until 14:30", "Paused: metered network". */
export function pauseWords(pause: SyncPause, nowMs: number): string {
  if (pause.by === 'metered') return 'Paused: metered network';
  return pause.untilMs === null ? 'Paused' : `Paused until ${untilWords(pause.untilMs, nowMs)}`;
}

/** "14:30" today, "tomorrow 08:00", else "Mon 3 Dec 14:30", in local time. */
export function untilWords(untilMs: number, nowMs: number): string {
  const until = new Date(untilMs);
  const time = `${pad(until.getHours())}:${pad(until.getMinutes())}`;
  const now = new Date(nowMs);
  if (sameDay(until, now)) return time;
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (sameDay(until, tomorrow)) return `tomorrow ${time}`;
  const day = until.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
  return `${day} ${time}`;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The hour "until tomorrow" ends at. */
export const TOMORROW_HOUR = 8;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** A longer pause is "until I resume": a deadline weeks away is one nobody remembers setting. */
const MAX_PAUSE_MS = 30 * 86_400_000;

/**
 * When a pause asked "for" `text` ends, in wall-clock ms: `90s`, `30m`, `1h`, `2d` from now, or
 * `tomorrow`: the next morning at 08:00 local time, as do-not-disturb menus mean it (a pause asked at
 * 23:00 "until tomorrow" is meant for the night, not for the hour to midnight; one asked at 02:00 ends
 * at 08:00 that same morning). Undefined for anything else, or for more than 30 days.
 */
export function pauseDeadline(text: string, nowMs: number): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'tomorrow') {
    const now = new Date(nowMs);
    const days = now.getHours() < TOMORROW_HOUR ? 0 : 1;
    return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, TOMORROW_HOUR).getTime();
  }
  const match = /^(\d{1,6})\s*([smhd])$/.exec(trimmed);
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2]!]!;
  if (ms <= 0 || ms > MAX_PAUSE_MS) return undefined;
  return nowMs + ms;
}

/**
 * A metered network pauses the pair unless its record says `sync` (`mch-sync metered` writes the record,
 * then tells the service through `choose`). Where metered networks cannot be seen, it says so once.
 */
export function meteredPause(
  network: NetworkMonitor,
  recorded: MeteredChoice,
  live: { setMetered(metered: boolean): void },
  log: (line: { level: 'info' | 'warn'; message: string }) => void,
): { choose(sync: boolean): void; choice(): MeteredChoice; stop(): void } {
  let syncsOnMetered = recorded === 'sync';
  const apply = (): void => live.setMetered(network.metered === true && !syncsOnMetered);
  const onChange = (why: string): void => {
    log({ level: 'info', message: `network changed: ${why}` });
    apply();
  };
  if (network.source !== NM_SOURCE) {
    log({
      level: 'warn',
      message: `metered networks are not detected on this system (${network.source}): sync does not pause on one`,
    });
  }
  network.on('change', onChange);
  apply();
  return {
    choose: (sync) => {
      syncsOnMetered = sync;
      apply();
    },
    choice: () => (syncsOnMetered ? 'sync' : 'pause'),
    stop: () => network.off('change', onChange),
  };
}
