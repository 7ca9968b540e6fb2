// Which kept versions go: older than the pair keeps them, thinned like Syncthing's staggered versioning, then the oldest while over the size cap.
import type { VersionRow } from '../../index/version-rows.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface ThinningPolicy {
  /** Versions kept longer than this go. */
  maxAgeMs: number;
  /** At most this many bytes of versions stay (the oldest go first). */
  capBytes: number;
}

/**
 * The versions of one path to remove, `versions` newest first: within the last hour every version
 * stays; within the last day one per hour; then one per day until `maxAgeMs`, when all go. The one
 * kept in each span is the oldest of it, as Syncthing keeps it (the newest of the next span is near).
 */
export function staggeredRemovals(
  versions: readonly VersionRow[],
  nowMs: number,
  maxAgeMs: number,
): VersionRow[] {
  const removed: VersionRow[] = [];
  const spansSeen = new Map<string, VersionRow>();
  for (const version of versions) {
    const age = nowMs - version.keptAtMs;
    if (age > maxAgeMs) {
      removed.push(version);
      continue;
    }
    if (age < HOUR_MS) continue;
    const span = age < DAY_MS ? `h${Math.floor(age / HOUR_MS)}` : `d${Math.floor(age / DAY_MS)}`;
    // Newest first: a later (older) one of the same span replaces the one seen, which goes.
    const seen = spansSeen.get(span);
    if (seen !== undefined) removed.push(seen);
    spansSeen.set(span, version);
  }
  return removed;
}

/**
 * The oldest versions to remove so that what stays fits `capBytes`, from `oldestFirst` (without those
 * already going), given the bytes of all kept ones before anything went.
 */
export function overCap(
  oldestFirst: Iterable<VersionRow>,
  totalBytes: number,
  capBytes: number,
  going: ReadonlySet<number>,
): VersionRow[] {
  let bytes = totalBytes;
  const removed: VersionRow[] = [];
  for (const version of oldestFirst) {
    if (bytes <= capBytes) break;
    if (going.has(version.id)) continue;
    removed.push(version);
    bytes -= version.size;
  }
  return removed;
}

export { DAY_MS };
