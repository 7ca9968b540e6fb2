// What the versions store holds for people: a file's versions numbered newest first, and the files deleted that can be restored.
import type { IndexStore } from '../index/index-store.ts';
import type { VersionReason, VersionRow } from '../index/version-rows.ts';

/** One kept version of a file, as `versions PATH` and the window show it. */
export interface VersionEntry {
  /** 1 for the newest kept version of its path, 2 for the one before... (`restore --version N`). */
  number: number;
  id: number;
  path: string;
  reason: VersionReason;
  /** Why it was kept, in words: "replaced by the device's version"... */
  why: string;
  size: number;
  /** The content's own modification time. */
  mTimeMs: number;
  /** When this computer kept it. */
  keptAtMs: number;
}

/** A file that is gone from the folder (deleted on the device, or a conflicted copy settled) with its newest version. */
export interface DeletedEntry extends VersionEntry {
  /** How many versions of the path are kept (the newest is the one restored). */
  versions: number;
}

export const REASON_WORDS: Record<VersionReason, string> = {
  replaced: "replaced by the device's version",
  deleted: 'deleted on the device',
  conflict: 'conflict settled',
  restored: 'replaced by a restore',
};

function entryOf(row: VersionRow, number: number): VersionEntry {
  return {
    number,
    id: row.id,
    path: row.path,
    reason: row.reason,
    why: REASON_WORDS[row.reason],
    size: row.size,
    mTimeMs: row.mTimeMs,
    keptAtMs: row.keptAtMs,
  };
}

/** The versions of the file at `path` (relative to the pair), newest first. */
export function listVersions(index: IndexStore, path: string): VersionEntry[] {
  return index.versions.ofPath(path).map((row, at) => entryOf(row, at + 1));
}

/**
 * Files with kept versions and no synced item at their path, below `folder` ('' the whole pair) and
 * kept since `sinceMs`, newest first: what "Recently deleted" lists.
 */
export function listDeleted(index: IndexStore, folder = '', sinceMs = 0): DeletedEntry[] {
  const rows = index.versions.deleted(folder, sinceMs);
  const counts = index.versions.countsOfPaths(rows.map((row) => row.path));
  return rows.map((row) => ({ ...entryOf(row, 1), versions: counts.get(row.path) ?? 1 }));
}
