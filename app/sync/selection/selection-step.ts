// A pass's first and last step of selective sync: the index made to match the pair's selection, local copies of excluded folders dealt with.
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../../index/index-store.ts';
import { nameKey, type IndexRow, type LocalEntry, type RelativePath } from '../../model/items.ts';
import { isAtOrBelow, type ExcludedFolder, type PairSelection } from '../../model/selection.ts';
import type { EngineLogLine } from '../engine-options.ts';
import type { EngineEvents } from '../engine-events.ts';
import type { LocalRoot } from '../local/local-root.ts';
import { moveToTrash } from '../trash/local-trash.ts';
import { dropPlaceholdersBelow } from '../local/placeholders.ts';
import { birthIdentity } from '../local/scan-fs.ts';
import type { AppliedSelection, AppliedSelectionStore } from './applied-selection.ts';
import { ExcludedFolders, type AppliedFolder } from './excluded-folders.ts';

export interface SelectionContext {
  index: IndexStore;
  /** The applied selection of `index`, parsed once while unchanged. */
  applied: AppliedSelectionStore;
  /** The engine's last step and the selection it was taken for: an unchanged poll reuses it. */
  memory: { selection: PairSelection; appliedText: string | undefined; step: SelectionStep } | undefined;
  local: LocalRoot;
  ignoreRules: string | undefined;
  env: Readonly<Record<string, string | undefined>> | undefined;
  events: EngineEvents | undefined;
  log: (line: EngineLogLine) => void;
}

/** What the selection step leaves a pass with. */
export interface SelectionStep {
  /** The folders the pass leaves off this computer. */
  excluded: ExcludedFolders;
  /** The exclusions the index holds changed: the pass looks at everything, no quiet check. */
  changed: boolean;
  /**
   * Exclusions that remove the local copy, whose copy still holds something unsynced: the pass syncs it
   * as it is, and the step is taken again after it (`afterPass`).
   */
  waitingToRemove: ExcludedFolder[];
  /** Folders included again by this pass: a new one among them is not asked about again. */
  included: ReadonlySet<string>;
}

/**
 * Makes the index match `selection` before a pass reads anything:
 * - a folder no longer excluded (included again) is dropped from what the index excludes: the walk
 *   lists it and its content comes down (a local copy kept meanwhile is merged like a first sync:
 *   equal files are adopted, different ones kept as conflicted copies);
 * - a folder newly excluded (or waiting for an answer) has its rows dropped, in one transaction with
 *   the record of what is excluded, so no pass ever reads its absence as a delete. A local copy the
 *   user keeps stays, skipped by the scan; one to remove goes to the trash after the rows, only when
 *   everything in it is synced (else it waits for this pass to sync it, `waitingToRemove`).
 * Local copies a crash left between their rows and the trash go to the trash first.
 */
export async function applySelection(
  context: SelectionContext,
  selection: PairSelection,
): Promise<SelectionStep> {
  const last = context.memory;
  // The same record (the store keeps it while its file is unchanged) and the same applied text as
  // the last step, which changed nothing: a poll pays nothing more for 900 exclusions.
  if (
    last !== undefined &&
    last.selection === selection &&
    last.appliedText === context.applied.text &&
    last.step.waitingToRemove.length === 0 &&
    context.applied.read().trash.length === 0
  ) {
    return { ...last.step, changed: false, included: new Set() };
  }
  const step = await takeStep(context, selection);
  context.memory = { selection, appliedText: context.applied.text, step };
  return step;
}

async function takeStep(context: SelectionContext, selection: PairSelection): Promise<SelectionStep> {
  const applied = context.applied.read();
  await emptyTrashList(context, applied);
  const wanted = wantedFolders(selection);
  const wantedIds = new Set(wanted.map((folder) => folder.id));
  const kept = applied.folders.filter((folder) => wantedIds.has(folder.id));
  const included = new Set(
    applied.folders.filter((folder) => !wantedIds.has(folder.id)).map((folder) => folder.id),
  );
  let changed = kept.length !== applied.folders.length;
  // A waiting folder answered "leave it out" (or one excluded that waits again) changes what a pass
  // reports, though no row: the pass after it is no quiet one.
  const waitingIds = new Set(selection.waiting.map((folder) => folder.id));
  for (const folder of selection.excluded) waitingIds.delete(folder.id);
  for (const folder of kept) {
    const waiting = waitingIds.has(folder.id);
    if ((folder.waiting === true) === waiting) continue;
    if (waiting) folder.waiting = true;
    else delete folder.waiting;
    changed = true;
  }
  const next: AppliedSelection = { folders: kept, trash: applied.trash };
  const appliedIds = new Set(kept.map((folder) => folder.id));
  const waitingToRemove: ExcludedFolder[] = [];
  const toTrash: RelativePath[] = [];
  for (const folder of wanted) {
    if (appliedIds.has(folder.id)) continue;
    // Its place on this computer: where the index has it (a case clash may have renamed it here).
    const localPath = context.index.get(folder.id)?.path ?? folder.path;
    if (folder.localCopy === 'remove' && existsSync(join(context.local.path, localPath))) {
      if (!isAllSynced(context, localPath, next.folders)) {
        waitingToRemove.push(folder);
        continue;
      }
      toTrash.push(localPath);
    }
    const keptCopy =
      folder.localCopy === 'keep' ? identityOf(join(context.local.path, localPath)) : undefined;
    const waiting = waitingIds.has(folder.id);
    next.folders.push({
      path: folder.path,
      id: folder.id,
      ...(keptCopy === undefined ? {} : { keptCopy }),
      ...(waiting ? { waiting: true as const } : {}),
    });
    changed = true;
  }
  if (changed) {
    next.trash = [...next.trash, ...toTrash];
    const before = new Set(applied.folders.map((folder) => folder.id));
    context.index.transaction(() => {
      for (const folder of next.folders) if (!before.has(folder.id)) dropRows(context.index, folder);
      context.applied.write(next);
    });
    for (const path of toTrash)
      context.log({ level: 'info', message: 'excluded: local copy to the trash', path });
    await emptyTrashList(context, next);
  }
  return { excluded: new ExcludedFolders(next.folders), changed, waitingToRemove, included };
}

/** The identity of the folder at `path` (`birthIdentity`), when one is there and its disk keeps births. */
function identityOf(path: string): string | undefined {
  const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return stats?.isDirectory() === true ? birthIdentity(stats) : undefined;
}

/** The exclusions and the waiting folders, one per device id (the record may name one twice). */
function wantedFolders(selection: PairSelection): ExcludedFolder[] {
  const byId = new Map<string, ExcludedFolder>();
  for (const folder of selection.excluded) byId.set(folder.id, folder);
  for (const folder of selection.waiting) {
    if (!byId.has(folder.id)) byId.set(folder.id, { path: folder.path, id: folder.id, localCopy: 'keep' });
  }
  return [...byId.values()];
}

/** The rows of the folder (by its id, where the index has it) and of whatever is at its path. */
function dropRows(index: IndexStore, folder: AppliedFolder): void {
  const row = index.get(folder.id);
  if (row !== undefined) index.deleteSubtree(row.path);
  index.deleteSubtree(folder.path);
}

/**
 * Whether everything synced below `path` on this computer is as the index last saw it (same inode,
 * size and time), and nothing there is new: then removing the copy loses nothing the device lacks.
 */
function isAllSynced(
  context: SelectionContext,
  path: RelativePath,
  excluded: readonly AppliedFolder[],
): boolean {
  const others = new ExcludedFolders(excluded);
  const scan = context.local.scan({
    within: [path],
    excluded: others.keys,
    excludedInodes: others.inodes,
    ...(context.ignoreRules === undefined ? {} : { extraRules: context.ignoreRules }),
  });
  if (scan.root !== 'ok' && scan.root !== 'empty') return false;
  // Unreadable or changing items are not known to be synced.
  const below = (item: { path: RelativePath }): boolean => isAtOrBelow(item.path, path);
  if (
    scan.skipped.some(
      (item) => below(item) && (item.reason === 'unreadable' || item.reason === 'retry-later'),
    )
  )
    return false;
  const rows = new Map<string, IndexRow>();
  for (const row of context.index.rowsWithin(path)) rows.set(nameKey(row.path), row);
  return scan.entries.filter(below).every((entry) => isSyncedAs(entry, rows.get(nameKey(entry.path))));
}

function isSyncedAs(entry: LocalEntry, row: IndexRow | undefined): boolean {
  if (row === undefined || row.kind !== entry.kind || row.inode !== entry.inode) return false;
  return entry.kind === 'folder' || (row.localSize === entry.size && row.localMtimeNs === entry.mtimeNs);
}

/** Moves each local copy on the list to the trash; one that cannot go yet stays listed for the next pass. */
async function emptyTrashList(context: SelectionContext, applied: AppliedSelection): Promise<void> {
  if (applied.trash.length === 0) return;
  const left: string[] = [];
  for (const path of applied.trash) {
    const absolute = join(context.local.path, path);
    if (!existsSync(absolute)) continue;
    context.events?.onLocalWrite?.({ kind: 'deleted', path });
    try {
      // An on-demand pair's placeholders hold nothing to keep: restored from the trash they would be
      // files of zeros. Gone with them, the folder may be gone too.
      if (await dropPlaceholdersBelow(absolute)) continue;
      await moveToTrash(absolute, {
        syncRoot: context.local.path,
        ...(context.env === undefined ? {} : { env: context.env }),
      });
    } catch (error) {
      context.log({
        level: 'warn',
        message: `excluded folder not moved to the trash: ${(error as Error).message}`,
        path,
      });
      left.push(path);
    }
  }
  applied.trash = left;
  context.applied.write(applied);
}

/**
 * After a pass: exclusions that waited for their local copy to be synced are taken again, when the pass
 * left nothing to retry. Returns whether any was applied (the index changed after the pass read it).
 */
export async function applyAfterPass(
  context: SelectionContext,
  selection: PairSelection,
  step: SelectionStep,
): Promise<{ changed: boolean; stillWaiting: ExcludedFolder[] }> {
  if (step.waitingToRemove.length === 0) return { changed: false, stillWaiting: [] };
  const again = await applySelection(context, selection);
  return { changed: again.changed, stillWaiting: again.waitingToRemove };
}

/**
 * The excluded folders the walk met at another path than the index has (moved or renamed on the
 * device, or by this client with their parent): the exclusion follows its folder. Returns the moves.
 */
export function followExcludedMoves(
  store: AppliedSelectionStore,
  met: ReadonlyArray<{ id: string; path: RelativePath }>,
): Array<{ id: string; from: RelativePath; to: RelativePath }> {
  if (met.length === 0) return [];
  const applied = store.read();
  const moves: Array<{ id: string; from: RelativePath; to: RelativePath }> = [];
  const where = new Map(met.map((folder) => [folder.id, folder.path]));
  for (const folder of applied.folders) {
    const now = where.get(folder.id);
    if (now === undefined || nameKey(now) === nameKey(folder.path)) continue;
    moves.push({ id: folder.id, from: folder.path, to: now });
    folder.path = now;
  }
  if (moves.length > 0) store.write(applied);
  return moves;
}
