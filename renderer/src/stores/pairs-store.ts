// The folder pairs and their live state: pairs:list, then pairs:changed; the calls that act on a pair answer its new state.
import { computed, signal } from '@preact/signals';
import type {
  OnDemandSupportView,
  PairCheckView,
  PairView,
  PauseLength,
  SelectionChange,
  SelectionFolderView,
} from '../../../common/contract.ts';
import type { Core } from '../bridge.ts';

export class PairsStore {
  /** Null until the first answer. */
  readonly pairs = signal<PairView[] | null>(null);
  /** Pairs waiting for an answer, or whose answer is being carried out. */
  readonly held = computed(() =>
    (this.pairs.value ?? []).filter((pair) => pair.hold !== null || pair.answering !== null),
  );
  /** Items not synced across every pair, held deletes included: the badge of the issues view. */
  readonly issueTotal = computed(() =>
    (this.pairs.value ?? []).reduce((sum, pair) => sum + pair.issueCount + (pair.hold ? 1 : 0), 0),
  );
  /** Whether files on demand can work on this computer; null until asked (loadOnDemandSupport). */
  readonly onDemandSupport = signal<OnDemandSupportView | null>(null);
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
    core.on('pairs:changed', (pairs) => {
      this.pairs.value = pairs;
    });
  }

  byId(pairId: string): PairView | undefined {
    return this.pairs.value?.find((pair) => pair.id === pairId);
  }

  async load(): Promise<void> {
    this.pairs.value = await this.#core.invoke('pairs:list', {});
  }

  /** `length`: it ends by itself after it; absent: until resumed. */
  async pause(pairId: string | null, length?: PauseLength): Promise<void> {
    this.pairs.value = await this.#core.invoke('sync:pause', { pairId, ...(length && { for: length }) });
  }

  /** Whether the pair syncs on metered networks (`sync`) or waits for another (`pause`). */
  async setMetered(pairId: string, onMetered: 'pause' | 'sync'): Promise<void> {
    this.pairs.value = await this.#core.invoke('pairs:setMetered', { pairId, onMetered });
  }

  async resume(pairId: string | null): Promise<void> {
    this.pairs.value = await this.#core.invoke('sync:resume', { pairId });
  }

  async syncNow(pairId: string | null): Promise<void> {
    this.pairs.value = await this.#core.invoke('sync:now', { pairId });
  }

  /** `reason`: the hold the card shows; the core refuses the answer if another stands by then. */
  async confirmDeletes(pairId: string, reason: string): Promise<void> {
    this.#replace(await this.#core.invoke('sync:confirmDeletes', { pairId, reason }));
  }

  async restore(pairId: string, reason: string): Promise<void> {
    this.#replace(await this.#core.invoke('sync:restore', { pairId, reason }));
  }

  /** What the core says of a pair before it is added: the device folder it offers, and why it would refuse. */
  check(localRoot: string, remoteFolder: string | null): Promise<PairCheckView> {
    return this.#core.invoke('pairs:check', { localRoot, remoteFolder });
  }

  /**
   * `excluded`: device folders (below `remoteFolder`) left off this computer from the first pass on;
   * `onDemand`: every device file shows in the folder, downloaded when opened (then nothing is left out).
   */
  async add(
    localRoot: string,
    remoteFolder: string,
    excluded: string[] = [],
    onDemand = false,
  ): Promise<PairView> {
    const pair = await this.#core.invoke('pairs:add', {
      localRoot,
      remoteFolder,
      ...(excluded.length === 0 || onDemand ? {} : { excluded }),
      ...(onDemand ? { onDemand } : {}),
    });
    this.#replace(pair);
    return pair;
  }

  async remove(pairId: string, keepLocalFiles: boolean): Promise<void> {
    await this.#core.invoke('pairs:remove', { pairId, keepLocalFiles });
    this.pairs.value = (this.pairs.value ?? []).filter((pair) => pair.id !== pairId);
  }

  /** The folders in a pair's device folder `path` (`''`: the pair's folder), with their state. */
  selectionOf(pairId: string, path: string): Promise<SelectionFolderView[]> {
    return this.#core.invoke('selection:list', { pairId, path });
  }

  /** The same before the pair is made, as it would be with `excluded` left out. */
  previewSelection(remoteFolder: string, excluded: string[], path: string): Promise<SelectionFolderView[]> {
    return this.#core.invoke('selection:preview', { remoteFolder, excluded, path });
  }

  /** Includes a folder or leaves it out (a waiting one is answered so); the pair syncs at once. */
  async changeSelection(change: SelectionChange): Promise<void> {
    this.#replace(await this.#core.invoke('selection:set', change));
  }

  /** Ask before syncing new device folders larger than `bytes`; null: never ask. */
  async askOver(pairId: string, bytes: number | null): Promise<void> {
    this.#replace(await this.#core.invoke('selection:askOver', { pairId, bytes }));
  }

  /** Asks once whether files on demand can work here (it does not change while the app runs). */
  async loadOnDemandSupport(): Promise<void> {
    if (this.onDemandSupport.value !== null) return;
    this.onDemandSupport.value = await this.#core.invoke('onDemand:support', {});
  }

  /** A pair of whole files turned on demand: its files move to the cache folder, nothing is lost. */
  async turnOnDemand(pairId: string): Promise<void> {
    this.#replace(await this.#core.invoke('onDemand:turnOn', { pairId }));
  }

  /** An on-demand pair made whole again: every file downloaded, then moved back into its folder. */
  async turnOffDemand(pairId: string): Promise<void> {
    this.#replace(await this.#core.invoke('onDemand:turnOff', { pairId }));
  }

  /** An on-demand pair's cache limit in bytes; null: no limit. */
  async cacheLimit(pairId: string, bytes: number | null): Promise<void> {
    this.#replace(await this.#core.invoke('onDemand:cacheLimit', { pairId, bytes }));
  }

  #replace(pair: PairView): void {
    const pairs = this.pairs.value ?? [];
    this.pairs.value = pairs.some((known) => known.id === pair.id)
      ? pairs.map((known) => (known.id === pair.id ? pair : known))
      : [...pairs, pair];
  }
}
