// What the versions commands share in their output: `--since` read, times in this computer's clock, a version and a conflict in words.
import { formatBytes } from '../../../common/units.ts';
import { instantOf, parseDateBound } from '../../search/photo-dates.ts';
import { SearchError } from '../../search/search-errors.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { VersionEntry } from '../../versions/version-list.ts';
import { UsageError } from '../terminal/cli-context.ts';

const AGO_UNITS: Record<string, number> = {
  min: 60_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * `--since` (or `--all-since`) as an instant: an age (`30min`, `2h`, `3d`, `1w`: that long before
 * `nowMs`), a day on this computer's clock (`2026-11-20`: from its start), or a time (`2026-11-20T18:00`,
 * with `Z` or an offset for that instant).
 */
export function sinceOf(text: string, option: string, usage: string, nowMs: number = Date.now()): number {
  const trimmed = text.trim();
  const ago = /^(\d+)\s*(min|m|h|d|w)$/i.exec(trimmed);
  if (ago !== null) {
    const unit = AGO_UNITS[(ago[2] ?? '').toLowerCase()] ?? NaN;
    return nowMs - Number(ago[1]) * unit;
  }
  try {
    return instantOf(parseDateBound(trimmed, 'start'));
  } catch (error) {
    if (!(error instanceof SearchError)) throw error;
    throw new UsageError(
      `${option}: ${JSON.stringify(text)} is not a time: give an age (30min, 2h, 3d, 1w), a day (2026-11-20) or a time (2026-11-20T18:00).`,
      usage,
    );
  }
}

/** `2026-11-25 10:02` on this computer's clock. */
export function localTime(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** `  2  2026-11-25 10:02   12.4 kB  replaced by the device's version (modified 2026-11-24 18:00)` */
export function versionLine(entry: VersionEntry, numberWidth: number): string {
  return (
    `  ${String(entry.number).padStart(numberWidth)}  ${localTime(entry.keptAtMs)}  ` +
    `${formatBytes(entry.size).padStart(8)}  ${entry.why} (modified ${localTime(entry.mTimeMs)})`
  );
}

/** "1 file", "3 files". */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A path for a command line the user may copy: quoted when the shell would split or expand it. */
export function shellWord(path: string): string {
  const safe = terminalSafe(path);
  return /^[\w@%+=:,./-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}
