// What the window was told happened to each pair, kept by the core across restarts of the pairs' services (a setting saved, a sign-in, a device chosen), so Activity and the conflicts under Issues do not empty.
import type { ActivityView } from '../../../common/contract.ts';
import { bothCopiesThere } from './pair-issues.ts';

/** Entries kept per pair: the window keeps 500 lines of all pairs, the live status 200 of its own. */
const KEPT_PER_PAIR = 500;

/**
 * Conflicts kept per pair, apart from the activity: a busy pair's uploads must not push out a conflict
 * the user has not settled. Past this many, settled ones go first, then the oldest.
 */
const CONFLICTS_KEPT = 1_000;

export class PairHistory {
  /** Per pair, newest first. */
  readonly #entries = new Map<string, ActivityView[]>();
  /** Per pair, the conflicted copies told, newest first, each once. */
  readonly #conflicts = new Map<string, ActivityView[]>();

  /** New activity of a pair, as told to the window (newest first, or in any order: it is sorted). */
  add(pairId: string, added: readonly ActivityView[]): void {
    if (added.length === 0) return;
    const entries = [...added, ...(this.#entries.get(pairId) ?? [])].sort((a, b) => b.atMs - a.atMs);
    if (entries.length > KEPT_PER_PAIR) entries.length = KEPT_PER_PAIR;
    this.#entries.set(pairId, entries);
    const copies = added.filter((entry) => entry.kind === 'conflict');
    if (copies.length > 0) this.#addConflicts(pairId, copies);
  }

  /** Newest first; `pairId` null: every pair's. */
  activity(pairId: string | null): ActivityView[] {
    if (pairId !== null) return [...(this.#entries.get(pairId) ?? [])];
    return [...this.#entries.values()].flat().sort((a, b) => b.atMs - a.atMs);
  }

  /**
   * The conflicted copies the pair made, newest first, each once, however much else it did since;
   * pairIssues lists those whose two copies are both there. One settled (either copy deleted) is kept
   * until room is needed: a hold's restore brings both copies back, and the conflict with them.
   */
  conflicts(pairId: string): ActivityView[] {
    return [...(this.#conflicts.get(pairId) ?? [])];
  }

  /** A pair removed: its lines go with it. */
  forget(pairId: string): void {
    this.#entries.delete(pairId);
    this.#conflicts.delete(pairId);
  }

  #addConflicts(pairId: string, copies: readonly ActivityView[]): void {
    const told = [...copies, ...(this.#conflicts.get(pairId) ?? [])].sort((a, b) => b.atMs - a.atMs);
    const seen = new Set<string>();
    let kept = told.filter((copy) => {
      if (seen.has(copy.path)) return false;
      seen.add(copy.path);
      return true;
    });
    // The copies just told stay: the pass may not have downloaded the device's version beside them yet.
    if (kept.length > CONFLICTS_KEPT)
      kept = kept.filter((copy) => copies.includes(copy) || bothCopiesThere(copy.localPath, copy.path));
    if (kept.length > CONFLICTS_KEPT) kept.length = CONFLICTS_KEPT;
    this.#conflicts.set(pairId, kept);
  }
}
