// Times selective sync's own work at each pass start, on a pair's real record and index: what a poll of an excluding pair pays beyond its listings.
import { openIndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import { META_REMOTE_ROOT } from '../../app/index/meta-keys.ts';
import { pairSelectionStore, readPairSelection } from '../../app/profile/pair-selection.ts';
import { LocalRoot } from '../../app/sync/local/local-root.ts';
import { AppliedSelectionStore } from '../../app/sync/selection/applied-selection.ts';
import { ExcludedFolders } from '../../app/sync/selection/excluded-folders.ts';
import {
  applySelection,
  followExcludedMoves,
  type SelectionContext,
} from '../../app/sync/selection/selection-step.ts';
import type { SelectionPair } from './selection-pairs.ts';

export interface BookkeepingPart {
  name: string;
  /** Mean CPU time of one call, in ms. */
  cpuMs: number;
}

/** Mean CPU ms of `work` over `repeats` calls, after as many unmeasured. */
async function cpuOf(work: () => unknown, repeats: number): Promise<number> {
  for (let warm = 0; warm < repeats; warm += 1) await work();
  const before = process.cpuUsage();
  for (let call = 0; call < repeats; call += 1) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / repeats;
}

/**
 * The steps a pass takes for the pair's selection when nothing in it changed (engine.ts `#begin` and
 * `#readSides`): the record read from the profile, the selection step (which reads the applied record
 * from the index), the walk's test of each folder of the root listing, and the exclusions followed to
 * where the walk met them. Nothing is written: every exclusion is applied and none moved.
 */
export async function timeBookkeeping(pair: SelectionPair, repeats = 300): Promise<BookkeepingPart[]> {
  const db = openIndexDb(pair.indexPath);
  try {
    const index = new IndexStore(db);
    const store = new AppliedSelectionStore(index);
    const applied = store.read();
    const met = applied.folders.map((folder) => ({ id: folder.id, path: folder.path }));
    const rootId = index.getMeta(META_REMOTE_ROOT) ?? '';
    const listed = [...met, ...index.children(rootId).map((row) => ({ id: row.remoteId, path: row.path }))];
    const excluded = new ExcludedFolders(applied.folders);
    const records = pairSelectionStore(pair.profileDir, pair.localRoot);
    const selection = records.read();
    const context: SelectionContext = {
      index,
      applied: store,
      memory: undefined,
      local: new LocalRoot(pair.localRoot, index),
      ignoreRules: undefined,
      env: undefined,
      events: undefined,
      log: () => {},
    };
    const parts: Array<[string, () => unknown]> = [
      [
        'the record read again (readPairSelection: file, JSON, zod)',
        () => readPairSelection(pair.profileDir, pair.localRoot),
      ],
      ['the record as a pass reads it (the store: one stat while unchanged)', () => records.read()],
      ['the selection step (applySelection), all of it', () => applySelection(context, selection)],
      ['in that step: the applied record (AppliedSelectionStore.read)', () => store.read()],
      ['in that step: ExcludedFolders (id and name sets)', () => new ExcludedFolders(applied.folders)],
      [
        `the walk's test of the root listing's ${listed.length} folders`,
        () => listed.filter(excluded.excludes),
      ],
      ['exclusions followed to where the walk met them', () => followExcludedMoves(store, met)],
    ];
    const timed: BookkeepingPart[] = [];
    for (const [name, work] of parts) timed.push({ name, cpuMs: await cpuOf(work, repeats) });
    return timed;
  } finally {
    db.close();
  }
}
