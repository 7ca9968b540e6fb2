// What an on-demand pair's live service does besides passes: frees files when asked, applies the cache limit after a pass, has the count redone.
import type { IndexStore } from '../index/index-store.ts';
import { readPairOnDemand } from '../profile/pair-on-demand.ts';
import type { PassReport } from '../sync/pass-report.ts';
import { formatBytes } from '../../common/units.ts';
import { applyCacheLimit } from './cache-limit.ts';
import { freeBelow, type FreeOne, type FreeTally } from './free-files.ts';
import type { HydrationEvent } from './hydrator.ts';

export interface OnDemandUpkeepOptions {
  profileDir: string;
  /** The pair's folder (its record's key). */
  localRoot: string;
  index: Pick<IndexStore, 'entries' | 'rowsWithin'>;
  cache: string;
  pinned: () => ReadonlySet<string>;
  /** Through the mount when it runs, else in place. */
  free: FreeOne;
  /** Asks for a pass that reads the whole folder (its count is what `status` shows). */
  syncNow: () => void;
  log: (level: 'info' | 'warn', message: string) => void;
}

/** Operations that bring content down: after a pass that made them, the count it kept is out of date. */
const CONTENT_DOWNLOADS = ['download', 'download-content'];

export class OnDemandUpkeep {
  readonly #options: OnDemandUpkeepOptions;
  /** A file was filled through the mount since the limit was last looked at. */
  #hydrated = false;

  constructor(options: OnDemandUpkeepOptions) {
    this.#options = options;
  }

  /** A hydration's event (the mount filled a placeholder): the cache grew. */
  noteHydration(event: HydrationEvent): void {
    if (event.type === 'done') this.#hydrated = true;
  }

  /** `mch-sync free`: the whole, synced files at or below `paths`, then a pass to count anew. */
  async free(paths: readonly string[]): Promise<FreeTally> {
    const tally = await freeBelow(this.#options.index, this.#options.cache, paths, this.#options.free);
    if (tally.freed > 0)
      this.#options.log('info', `freed ${tally.freed} files (${formatBytes(tally.bytesFreed)})`);
    this.#options.syncNow();
    return tally;
  }

  /** After each pass: the cache limit applied when it may be passed; a pass to count again when content came down. */
  async afterPass(report: PassReport): Promise<void> {
    try {
      const freed = await this.#applyLimit(report);
      const downloaded = CONTENT_DOWNLOADS.some((op) => (report.operations[op] ?? 0) > 0);
      if ((freed > 0 || downloaded) && report.status === 'synced') this.#options.syncNow();
    } catch (error) {
      this.#options.log('warn', `the cache limit could not be applied: ${(error as Error).message}`);
    }
  }

  /** How many files the limit freed (0 when under it, or when nothing can have grown the cache). */
  async #applyLimit(report: PassReport): Promise<number> {
    const limit =
      readPairOnDemand(this.#options.profileDir, this.#options.localRoot)?.cacheLimitBytes ?? null;
    if (limit === null) return 0;
    // Looked at when a whole count says the content passes the limit, or something may have grown it
    // since (a pass brought content, a file was filled); not after every poll that found nothing.
    const grown = this.#hydrated || (report.counts.bytesDown ?? 0) > 0;
    this.#hydrated = false;
    if (!grown && (report.onDemand === undefined || report.onDemand.whole.bytes <= limit)) return 0;
    const tally = await applyCacheLimit({
      index: this.#options.index,
      cacheRoot: this.#options.cache,
      limitBytes: limit,
      pinned: this.#options.pinned(),
      freeOne: this.#options.free,
    });
    if (tally === undefined) return 0;
    const busy = tally.busy.length === 0 ? '' : `; ${tally.busy.length} open in a program, left whole`;
    this.#options.log(
      'info',
      `cache limit ${formatBytes(limit)} passed: freed ${tally.freed} least recently used files (${formatBytes(tally.bytesFreed)})${busy}`,
    );
    return tally.freed;
  }
}
