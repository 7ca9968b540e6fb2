// The conflicts waiting, both sides of each: conflicts:list while Issues shows them, asked again when a pair's conflict count changes or a pass of a pair with conflicts ends (pairs:changed says when), and after settling some here.
import { computed, effect, signal } from '@preact/signals';
import type {
  ConflictKeepView,
  ConflictResolveView,
  ConflictView,
  UiError,
} from '../../../common/contract.ts';
import { toUiError, type Core } from '../bridge.ts';
import type { PairsStore } from './pairs-store.ts';

export class ConflictsStore {
  /** Null until the first answer (Issues then shows the conflicts as plain issues). */
  readonly conflicts = signal<ConflictView[] | null>(null);
  readonly error = signal<UiError | null>(null);
  /**
   * What the last settle did, in the core's words (and what it could not settle): shown above the
   * conflicts until the user leaves Issues, even when the last one left the list.
   */
  readonly outcome = signal<{ words: string; failed: string[] } | null>(null);
  readonly #core: Core;
  #loadedKey: string | null = null;

  /** How many views show the conflicts: with none, nothing is asked (the previews are not small). */
  readonly #watchers = signal(0);

  constructor(core: Core, pairs: PairsStore) {
    this.#core = core;
    const key = computed(() => {
      const list = pairs.pairs.value;
      if (list === null) return null;
      // A pass that ends may bring a copy from another computer while one goes (the count the same):
      // a pair with conflicts is asked again after each pass, one without only when it gets some.
      return list
        .map((pair) => `${pair.id}:${pair.conflictCount}:${pair.conflictCount > 0 ? pair.lastSyncAtMs : ''}`)
        .join('|');
    });
    effect(() => {
      const current = key.value;
      if (this.#watchers.value === 0) return;
      if (current !== null && current !== this.#loadedKey) {
        this.#loadedKey = current;
        void this.load();
      }
    });
  }

  /** A view shows the conflicts from now on (listed, and listed again as they change); returns its end. */
  watch(): () => void {
    this.#watchers.value += 1;
    return () => {
      this.#watchers.value -= 1;
    };
  }

  ofPair(pairId: string): ConflictView[] {
    return (this.conflicts.value ?? []).filter((conflict) => conflict.pairId === pairId);
  }

  async load(): Promise<void> {
    try {
      this.conflicts.value = await this.#core.invoke('conflicts:list', { pairId: null });
      this.error.value = null;
    } catch (error) {
      this.error.value = toUiError(error);
    }
  }

  /** Settles the conflicts of `copyPaths` alike; those settled leave the list at once. */
  async resolve(pairId: string, copyPaths: string[], keep: ConflictKeepView): Promise<ConflictResolveView> {
    this.outcome.value = null;
    const outcome = await this.#core.invoke('conflicts:resolve', { pairId, copyPaths, keep });
    this.outcome.value = { words: outcome.words, failed: outcome.failed.map((failure) => failure.message) };
    const settled = new Set(outcome.settled);
    this.conflicts.value = (this.conflicts.value ?? []).filter(
      (conflict) => conflict.pairId !== pairId || !settled.has(conflict.copyPath),
    );
    return outcome;
  }
}
