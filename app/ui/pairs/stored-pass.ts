// What a pair's index remembers of its last pass (pass-record.ts): its issues and when both sides last matched, for the window while a restarted service has not finished a pass of its own.
import type { ItemIssue } from '../../../common/sync-status.ts';
import type { IndexStore } from '../../index/index-store.ts';
import { type StoredPassSummary } from '../../sync/pass/pass-record.ts';
import { META_LAST_PASS, META_LAST_SYNC } from '../../index/meta-keys.ts';

export interface StoredPass {
  /** When the pass ended, ms since the epoch (0 when none was recorded). */
  finishedAtMs: number;
  issues: ItemIssue[];
  /** When both sides last matched; null before the first pass that got there. */
  lastSyncAtMs: number | null;
}

/** Reads the index's record; parsed again only when it changed (a view is made on every change of a pass). */
export class StoredPassReader {
  readonly #store: IndexStore;
  #raw: string | undefined;
  #issues: { finishedAtMs: number; issues: ItemIssue[] } = { finishedAtMs: 0, issues: [] };

  constructor(store: IndexStore) {
    this.#store = store;
  }

  read(): StoredPass {
    const raw = this.#store.getMeta(META_LAST_PASS);
    if (raw !== this.#raw) {
      this.#raw = raw;
      this.#issues = parsed(raw);
    }
    const lastSync = Number(this.#store.getMeta(META_LAST_SYNC) ?? Number.NaN);
    return { ...this.#issues, lastSyncAtMs: Number.isFinite(lastSync) ? lastSync : null };
  }
}

function parsed(raw: string | undefined): { finishedAtMs: number; issues: ItemIssue[] } {
  if (raw === undefined) return { finishedAtMs: 0, issues: [] };
  try {
    const summary = JSON.parse(raw) as Partial<StoredPassSummary>;
    const issues = Array.isArray(summary.issues) ? summary.issues : [];
    return { finishedAtMs: typeof summary.finishedAtMs === 'number' ? summary.finishedAtMs : 0, issues };
  } catch {
    // A record this version cannot read says nothing: the next pass writes a new one.
    return { finishedAtMs: 0, issues: [] };
  }
}
