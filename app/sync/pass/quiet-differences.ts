// Where a whole pass differs from the index, with the last settled record or without it, when that is up to 1,024 items: its round plans only around them.
import type { IndexStore } from '../../index/index-store.ts';
import { IGNORE_FILE_NAME } from '../local/ignore-rules.ts';
import { MOVING_PREFIX } from '../../model/names.ts';
import {
  nameKey,
  type IndexEntry,
  type LocalEntry,
  type RelativePath,
  type RemoteEntry,
} from '../../model/items.ts';
import { PassScope } from './pass-scope.ts';
import { scanIssues } from './pass-inputs.ts';
import type { SettledRecord } from './quiet-pass.ts';
import { baseName } from '../../model/paths.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { ScannedFolder, ScanResult } from '../local/scanner.ts';

/**
 * Folders on disk whose digest differs that are compared row by row; more, and the pass plans over
 * all. Each costs one read of its rows. Remote folders have no such limit: the comparison stops at
 * MAX_ROOTS differences (a pass that wrote into 100 folders lists all 100 again).
 */
const MAX_FOLDERS = 256;
/**
 * Differing items a round is scoped to; more, and it plans over everything. A round around them reads
 * the rows of their folders and holds little; a plan over everything at 1,000,000 files holds about
 * 740 MB however few changed (docs/benchmarks.md).
 */
const MAX_ROOTS = 1024;

/**
 * The paths where the disk or the device differs from the index, as the roots of a scoped round (none:
 * nothing differs, the pass is quiet), or undefined when the pass must plan over everything. With the
 * last settled pass's record (`settled`), called after `quietPassIssues` found the pass not quiet, with
 * the same record; without one (the last pass wrote and did not settle: it was stopped, or left
 * something to retry), every remote folder is compared with its rows, not only the ones listed anew.
 *
 * Why the round may still write the settled record when it settles: the record says the index and the
 * stored listings describe both sides as the pass left them. Outside these roots the check below
 * proved both sides equal to the index: every folder on disk has the index's digest (kept true by the
 * index's own triggers, record or not), or its entries and rows agree one by one but at a root; every
 * remote folder answered 304 to a listing the last settled pass stored and the index agreed with (with
 * a record), or its entries and rows agree one by one but at a root. A round over everything would
 * find no change outside the roots either (an item moved in or out has both its paths among them), so
 * it would plan and write nothing there. Inside, the scoped round plans and executes exactly as the
 * live service's scoped rounds do, and a settled round leaves rows, digests and listings as a whole
 * round would. Whatever the check cannot account for item by item falls back to the whole round:
 * issues standing (their paths may lie anywhere; without a record, every issue not from the scan is
 * about an item without a row, so a difference itself), name clashes, parked names, a changed ignore
 * file (it changes what is synced beneath it), a folder new to the index that no root covers, or more
 * than a few folders or items.
 */
export function quietDifferences(
  scan: ScanResult,
  walk: RemoteWalkResult,
  index: IndexStore,
  remoteRootId: string,
  settled: SettledRecord | undefined,
): RelativePath[] | undefined {
  if (settled !== undefined && (settled.remoteRootId !== remoteRootId || settled.issues.length > 0))
    return undefined;
  if ((scan.root !== 'ok' && scan.root !== 'empty') || scan.folders === undefined) return undefined;
  if (scan.clashes.length > 0 || scanIssues(scan).length > 0) return undefined;
  if (walk.vanished.length > 0 || walk.rejected.length > 0) return undefined;
  const roots = new Set<RelativePath>();
  const newFolders: RelativePath[] = [];
  if (!localDifferences(scan, index, remoteRootId, roots, newFolders)) return undefined;
  const compared = settled === undefined ? everyFolder(walk, remoteRootId) : walk.listed;
  if (!remoteDifferences(walk, compared, index, remoteRootId, roots, newFolders)) return undefined;
  // Folders listed again only because the last pass wrote into them: nothing differs (an empty scope).
  if (roots.size === 0) return newFolders.length === 0 ? [] : undefined;
  if (roots.size > MAX_ROOTS) return undefined;
  for (const root of roots) {
    if (nameKey(baseName(root)) === IGNORE_FILE_NAME || baseName(root).startsWith(MOVING_PREFIX))
      return undefined;
  }
  const scope = new PassScope([...roots]);
  if (!newFolders.every((path) => scope.covers(path))) return undefined;
  return [...roots];
}

/** The synced remote folder and every folder the walk found in it. */
function everyFolder(walk: RemoteWalkResult, remoteRootId: string): Set<string> {
  const folders = new Set<string>([remoteRootId]);
  for (const entry of walk.entries.values()) if (entry.kind === 'folder') folders.add(entry.id);
  return folders;
}

/** Adds the local differences of folders whose digest differs; false when they are too many to say. */
function localDifferences(
  scan: ScanResult,
  index: IndexStore,
  remoteRootId: string,
  roots: Set<RelativePath>,
  newFolders: RelativePath[],
): boolean {
  const folderIds = index.digests.folderIdsByPath();
  const digests = index.digests.all();
  const differing: Array<{ folder: ScannedFolder; id: string }> = [];
  for (const folder of scan.folders ?? []) {
    const id = folder.path === '' ? remoteRootId : folderIds.get(folder.path);
    // New, or renamed: its entry in its folder differs, and a root must cover it (checked at the end).
    if (id === undefined) {
      newFolders.push(folder.path);
      continue;
    }
    if (digests.get(id) === folder.digest) continue;
    differing.push({ folder, id });
    if (differing.length > MAX_FOLDERS) return false;
  }
  // The state folder, skipped by every scan, has no rows to compare.
  const unknown = new Set(scan.skipped.map((skipped) => skipped.path));
  for (const { folder, id } of differing) {
    const entries = scan.entries.slice(folder.first, folder.end);
    childDifferences(entries, index.children(id), unknown, roots, index);
  }
  return true;
}

/**
 * An entry without a row at its path may have been moved here from elsewhere: the row that holds its
 * inode is a difference too, as the remote side's row found by id is. Usually its folder differs as
 * well; not when that folder is gone from disk and its row too (gone on both sides, removed while the
 * upload that was to take this row over failed: soak seed 1000). Such a row lies under no folder the
 * check reads, and without it the round takes the entry for new and the row stays for good.
 */
function movedIn(entry: LocalEntry, index: IndexStore, roots: Set<RelativePath>): void {
  // Past MAX_ROOTS the round plans everything anyway (and pairs by inode itself): no more look-ups.
  if (roots.size > MAX_ROOTS) return;
  for (const row of index.byInode(entry.inode)) if (row.path !== entry.path) roots.add(row.path);
}

/** quiet-pass's sameChildren, item by item: the entries and rows that do not agree. */
function childDifferences(
  entries: readonly LocalEntry[],
  rows: readonly IndexEntry[],
  unknown: ReadonlySet<RelativePath>,
  roots: Set<RelativePath>,
  index: IndexStore,
): void {
  const byName = new Map<string, LocalEntry>();
  for (const entry of entries) byName.set(baseName(entry.path), entry);
  const paired = new Set<LocalEntry>();
  for (const row of rows) {
    if (unknown.has(row.path)) continue;
    const entry = byName.get(baseName(row.path));
    const agrees =
      entry !== undefined &&
      entry.path === row.path &&
      entry.kind === row.kind &&
      entry.inode === row.inode &&
      (entry.kind === 'folder' || (entry.size === row.localSize && entry.mtimeNs === row.localMtimeNs));
    if (agrees) {
      paired.add(entry);
      continue;
    }
    roots.add(row.path);
  }
  for (const entry of entries) {
    if (paired.has(entry)) continue;
    roots.add(entry.path);
    movedIn(entry, index, roots);
  }
}

/** Adds the remote differences of the `compared` folders; false when they cannot be said item by item. */
function remoteDifferences(
  walk: RemoteWalkResult,
  compared: ReadonlySet<string>,
  index: IndexStore,
  remoteRootId: string,
  roots: Set<RelativePath>,
  newFolders: RelativePath[],
): boolean {
  if (compared.size === 0) return true;
  const children = new Map<string, RemoteEntry[]>();
  for (const folderId of compared) children.set(folderId, []);
  for (const entry of walk.entries.values()) children.get(entry.parentId)?.push(entry);
  for (const [folderId, entries] of children) {
    if (folderId !== remoteRootId) {
      const path = walk.entries.get(folderId)?.path;
      if (path === undefined) return false;
      if (index.get(folderId) === undefined) newFolders.push(path);
    }
    const rows = new Map(index.children(folderId).map((row) => [row.remoteId, row]));
    for (const entry of entries) {
      const row = rows.get(entry.id);
      rows.delete(entry.id);
      // What deriveRemoteChange reads: kind, name, parent (a row elsewhere), a file's size and time.
      const agrees =
        row !== undefined &&
        row.kind === entry.kind &&
        nameKey(row.name) === nameKey(entry.name) &&
        row.path === entry.path &&
        (entry.kind === 'folder' || (row.size === entry.size && row.mTimeMs === entry.mTimeMs));
      if (agrees) continue;
      roots.add(entry.path);
      // Moved in from elsewhere: where the index has it is a difference too.
      const before = row ?? index.get(entry.id);
      if (before !== undefined) roots.add(before.path);
    }
    for (const row of rows.values()) roots.add(row.path);
    // Too many to scope a round to (the first pass over a tree already on both sides differs everywhere).
    if (roots.size > MAX_ROOTS) return false;
  }
  return true;
}
