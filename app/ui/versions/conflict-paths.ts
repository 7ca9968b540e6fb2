// The conflicted copies a pair's card counts and Issues lists, from the index (so they outlast a restart, and "Keep both" ends them), read again only when a pass ended, a conflict was made, or one was settled.
import type { IndexStore } from '../../index/index-store.ts';
import { originalPathOfConflictedCopy } from '../../sync/plan/conflict-names.ts';
import type { PairHistory } from '../pairs/pair-history.ts';

interface Read {
  key: string;
  copies: Array<{ path: string }>;
}

/**
 * Per pair, the conflicted copies not settled: those this computer made (the index's conflicts table)
 * and synced files named as another computer's copies, less those settled by keeping both. Whether both
 * files are still there is the view's to check each time (pair-issues.ts): deleting either copy by
 * hand settles a conflict too.
 */
export class PairConflicts {
  readonly #history: PairHistory;
  readonly #read = new Map<string, Read>();
  /** Bumped by a settle: the next view reads the index again. */
  readonly #settled = new Map<string, number>();

  constructor(history: PairHistory) {
    this.#history = history;
  }

  /**
   * The pair's unsettled copies. The index is read when a pass ended since (`lastSyncAtMs`), a new
   * conflict was told (the activity), or one was settled here: the copies from other computers take a
   * walk of the items, too much for every view of a pass that changes the status at every file.
   */
  of(pairId: string, index: IndexStore, lastSyncAtMs: number | null): Array<{ path: string }> {
    const key = [
      lastSyncAtMs ?? '',
      this.#history.conflicts(pairId).length,
      this.#history.conflicts(pairId)[0]?.atMs ?? '',
      this.#settled.get(pairId) ?? 0,
    ].join(':');
    const known = this.#read.get(pairId);
    if (known?.key === key) return known.copies;
    const copies = unsettledCopies(index).map((path) => ({ path }));
    this.#read.set(pairId, { key, copies });
    return copies;
  }

  /** A conflict of the pair was settled (or a file restored): read the index again at the next view. */
  changed(pairId: string): void {
    this.#settled.set(pairId, (this.#settled.get(pairId) ?? 0) + 1);
  }

  forget(pairId: string): void {
    this.#read.delete(pairId);
    this.#settled.delete(pairId);
  }
}

/** The conflicted copies of the index not settled, newest first (those recorded, then those named so). */
export function unsettledCopies(index: IndexStore): string[] {
  const rows = index.versions.conflicts();
  const recorded = new Set(rows.map((row) => row.copyPath));
  const open = rows.filter((row) => row.settled === null).map((row) => row.copyPath);
  const named = index.versions
    .conflictedCopyPaths()
    .filter((path) => !recorded.has(path) && originalPathOfConflictedCopy(path) !== path);
  return [...open, ...named.sort()];
}
