// Why items are not synced: issues:list, asked again only when a pair's issue count, hold or state changes (there is no issues event; pairs:changed says when).
import { computed, effect, signal } from '@preact/signals';
import type { IssueView, UiError } from '../../../common/contract.ts';
import { toUiError, type Core } from '../bridge.ts';
import type { PairsStore } from './pairs-store.ts';

export class IssuesStore {
  readonly issues = signal<IssueView[] | null>(null);
  readonly error = signal<UiError | null>(null);
  readonly #core: Core;
  /** What the last list was asked for; a pairs:changed with the same key needs no new list. */
  #loadedKey: string | null = null;

  constructor(core: Core, pairs: PairsStore) {
    this.#core = core;
    const key = computed(() => {
      const list = pairs.pairs.value;
      if (list === null) return null;
      // The state too: a pass that ends may bring or clear a warning or an item left out, which the
      // count leaves out (they need nobody) but Issues lists.
      return list
        .map((pair) => `${pair.id}:${pair.issueCount}:${pair.hold ? 'held' : ''}:${pair.state}`)
        .join('|');
    });
    effect(() => {
      const current = key.value;
      if (current !== null && current !== this.#loadedKey) {
        this.#loadedKey = current;
        void this.load();
      }
    });
  }

  async load(): Promise<void> {
    try {
      this.issues.value = await this.#core.invoke('issues:list', { pairId: null });
      this.error.value = null;
    } catch (error) {
      this.error.value = toUiError(error);
    }
  }
}
