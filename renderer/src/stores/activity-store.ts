// Recent changes, newest first: activity:list, then activity:added; the filters of the activity view.
import { computed, signal } from '@preact/signals';
import type { ActivityKind, ActivityView, UiError } from '../../../common/contract.ts';
import { toUiError, type Core } from '../bridge.ts';

/** The window keeps this many lines; the core keeps its own history. */
const KEPT = 500;

export class ActivityStore {
  readonly entries = signal<ActivityView[] | null>(null);
  readonly error = signal<UiError | null>(null);
  readonly pairFilter = signal<string | null>(null);
  readonly kindFilter = signal<ActivityKind | null>(null);
  readonly shown = computed(() =>
    (this.entries.value ?? []).filter(
      (entry) =>
        (this.pairFilter.value === null || entry.pairId === this.pairFilter.value) &&
        (this.kindFilter.value === null || entry.kind === this.kindFilter.value),
    ),
  );
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
    core.on('activity:added', (added) => {
      this.entries.value = newestFirst([...added, ...(this.entries.value ?? [])]);
    });
  }

  async load(): Promise<void> {
    try {
      this.entries.value = newestFirst(await this.#core.invoke('activity:list', { pairId: null }));
      this.error.value = null;
    } catch (error) {
      this.error.value = toUiError(error);
    }
  }
}

function newestFirst(entries: ActivityView[]): ActivityView[] {
  return entries.sort((a, b) => b.atMs - a.atMs).slice(0, KEPT);
}
