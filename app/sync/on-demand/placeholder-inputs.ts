// An on-demand pair's placeholders in a round's inputs: read as their rows saw them, followed when their item is gone, kept when moved out of sight.
import { hasName, nameKey, type IndexRow, type LocalEntry, type RelativePath } from '../../model/items.ts';
import type { ScanResult } from '../local/scan-result.ts';
import { unsyncedItem, type PassIssue } from '../pass-report.ts';

/** A placeholder's entry as its row last saw it, when it is that row's (same inode). */
export function asSynced(local: Map<RelativePath, LocalEntry>, entry: LocalEntry, row: IndexRow): LocalEntry {
  const { localSize, localMtimeNs } = row;
  if (entry.inode !== row.inode || localSize === null || localMtimeNs === null) return entry;
  if (entry.size === localSize && entry.mtimeNs === localMtimeNs) return entry;
  const synced = { ...entry, size: localSize, mtimeNs: localMtimeNs };
  local.set(entry.path, synced);
  return synced;
}

/**
 * A placeholder moved here whose item is gone from the device (deleted, or replaced by a folder) has
 * nothing to send up: its row follows it, as if the move were synced, so the round reads it as
 * unchanged here and deleted there, and removes it as any placeholder the device deletes. Read as the
 * moved file it looks like, it was planned as an upload that never can be (a placeholder's bytes are
 * never sent): LOCAL_CHANGED every round, never quiet (issue 30's model, seeds 52 and 47).
 *
 * Only the row's own file is followed, as the reconciler pairs a move: its size and time, or its name.
 * A placeholder the engine wrote for another item can have the inode of one it removed (a crash
 * between the two and the row's removal: soak seed 51); followed, the row took its size and time and
 * the reconciler paired it, a removal planned every round and refused every round as a local change.
 */
export function followGonePlaceholders(
  rows: Map<string, IndexRow>,
  local: ReadonlyMap<RelativePath, LocalEntry>,
  remote: ReadonlyMap<string, unknown>,
  placeholders: ReadonlySet<string> | undefined,
  remoteRootId: string,
): void {
  if (placeholders === undefined || placeholders.size === 0) return;
  const byInode = new Map<string, LocalEntry>();
  for (const entry of local.values()) if (placeholders.has(entry.inode)) byInode.set(entry.inode, entry);
  const gone: IndexRow[] = [];
  for (const row of rows.values()) {
    const entry = row.inode === null ? undefined : byInode.get(row.inode);
    if (row.kind !== 'file' || entry === undefined || entry.path === row.path || remote.has(row.remoteId))
      continue;
    const same = entry.size === row.localSize && entry.mtimeNs === row.localMtimeNs;
    if (same || hasName(entry.path, row.name)) gone.push(row);
  }
  if (gone.length === 0) return;
  // The folder rows by path: the parent the reconciler finds for the placeholder where it is now.
  const folders = new Map<string, string>();
  for (const row of rows.values()) if (row.kind === 'folder') folders.set(nameKey(row.path), row.remoteId);
  for (const row of gone) {
    const entry = byInode.get(row.inode ?? '') as LocalEntry;
    const slash = entry.path.lastIndexOf('/');
    rows.set(row.remoteId, {
      ...row,
      path: entry.path,
      name: entry.path.slice(slash + 1),
      parentRemoteId:
        slash < 0 ? remoteRootId : (folders.get(nameKey(entry.path.slice(0, slash))) ?? row.parentRemoteId),
      localSize: entry.size,
      localMtimeNs: entry.mtimeNs,
    });
  }
}

/**
 * The rows of items moved here to a name the round leaves out (the other spelling of a sibling's name
 * under NFC), in a pair that holds placeholders: their paths are unknown this round, not deleted. Read
 * as deleted, the device would delete them, and a placeholder's content is only there (issue 30's
 * model, seed 190). A whole file keeps its bytes here under the other name; a placeholder has none.
 */
export function movedOutOfSight(
  scan: ScanResult,
  rows: ReadonlyMap<string, IndexRow>,
  isLeftOut: (path: RelativePath) => boolean,
): RelativePath[] {
  if (scan.placeholders === undefined || scan.placeholders.size === 0) return [];
  const leftOut = new Map<string, LocalEntry>();
  for (const entry of scan.entries) if (isLeftOut(entry.path)) leftOut.set(entry.inode, entry);
  if (leftOut.size === 0) return [];
  const paths: RelativePath[] = [];
  for (const row of rows.values()) {
    const entry = row.inode === null ? undefined : leftOut.get(row.inode);
    // The same item, as the reconciler pairs a move: an inode alone may be reused (seed 560).
    if (entry === undefined || entry.kind !== row.kind || isLeftOut(row.path)) continue;
    if (entry.kind === 'file' && (entry.size !== row.localSize || entry.mtimeNs !== row.localMtimeNs))
      continue;
    paths.push(row.path);
  }
  return paths;
}

/**
 * What is here under a name an item moved out of sight left (`movedOutOfSight`): a new item there waits
 * with it, since the device keeps that item under the name until the user renames, and is said to wait,
 * never left out in silence (issue 30's model, seed 5979: a new file named as the folder moved away).
 */
export function waitingUnderOutOfSight(
  local: ReadonlyMap<RelativePath, LocalEntry>,
  paths: readonly RelativePath[],
): PassIssue[] {
  if (paths.length === 0) return [];
  const keys = new Set(paths.map(nameKey));
  const issues: PassIssue[] = [];
  for (const entry of local.values()) {
    if (!keys.has(nameKey(entry.path))) continue;
    issues.push(
      unsyncedItem(
        'NAME_CLASH',
        entry.path,
        'On this computer: the item that had this name was moved to a name another item in its folder has ' +
          'in another Unicode normal form, so the device keeps it under this name until one of those is ' +
          'renamed. This one waits until then.',
        'local',
      ),
    );
  }
  return issues;
}
