// What the window was told happened to each pair, kept by the core across restarts of the pairs' services (a setting saved, a sign-in, a device chosen), so Activity and the conflicts under Issues do not empty.
import type { ActivityView } from '../../common/contract.ts';

/** Entries kept per pair: the window keeps 500 lines of all pairs, the live status 200 of its own. */
const KEPT_PER_PAIR = 500;

export class PairHistory {
  /** Per pair, newest first. */
  readonly #entries = new Map<string, ActivityView[]>();

  /** New activity of a pair, as told to the window (newest first, or in any order: it is sorted). */
  add(pairId: string, added: readonly ActivityView[]): void {
    if (added.length === 0) return;
    const entries = [...added, ...(this.#entries.get(pairId) ?? [])].sort((a, b) => b.atMs - a.atMs);
    if (entries.length > KEPT_PER_PAIR) entries.length = KEPT_PER_PAIR;
    this.#entries.set(pairId, entries);
  }

  /** Newest first; `pairId` null: every pair's. */
  activity(pairId: string | null): ActivityView[] {
    if (pairId !== null) return [...(this.#entries.get(pairId) ?? [])];
    return [...this.#entries.values()].flat().sort((a, b) => b.atMs - a.atMs);
  }

  /** The conflicted copies the pair made, newest first, each once. */
  conflicts(pairId: string): ActivityView[] {
    const seen = new Set<string>();
    return (this.#entries.get(pairId) ?? []).filter((entry) => {
      if (entry.kind !== 'conflict' || seen.has(entry.path)) return false;
      seen.add(entry.path);
      return true;
    });
  }

  /** A pair removed: its lines go with it. */
  forget(pairId: string): void {
    this.#entries.delete(pairId);
  }
}
