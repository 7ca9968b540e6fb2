// What a round reconciles: the scan, the walk and the index, minus every subtree one side could not see.
import {
  chosenRemoteNames,
  normalisationClash,
  refusedRemoteItem,
  remoteLeftOut,
  scanIssues,
} from './input-issues.ts';
import {
  markHoldersOfKeptCopies,
  movedIntoKeptCopies,
  SelectionLeftOut,
} from '../selection/selection-inputs.ts';
import {
  asSynced,
  followGonePlaceholders,
  movedOutOfSight,
  waitingUnderOutOfSight,
} from '../on-demand/placeholder-inputs.ts';
import { MOVING_PREFIX } from '../../model/names.ts';
import {
  nameKey,
  type IndexRow,
  type LocalEntry,
  type RelativePath,
  type RemoteEntry,
} from '../../model/items.ts';
import type { PassIssue } from '../pass-report.ts';
import type { ReconcileInput } from '../plan/reconcile.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { ScanResult } from '../local/scanner.ts';
import { UnknownPaths } from './unknown-paths.ts';

export { scanIssues } from './input-issues.ts';

export interface PassInputs {
  input: ReconcileInput;
  /** Skipped items and warnings of both sides, for the report: `scanIssues(scan)` first. */
  issues: PassIssue[];
  /** How many of `issues` (at the start) are the scan's own, which the next scan finds again. */
  fromScan: number;
  /** Items left out because their name equals another's under NFC: a move this round may free it. */
  nameClashes: number;
}

/**
 * The index beyond the rows a round read (a scoped round reads only those around its scope): the rows
 * a remote entry's id or a local entry's inode leads to, wherever they are.
 */
export interface RowLookup {
  get(remoteId: string): IndexRow | undefined;
  byInode(inode: string): readonly IndexRow[];
}

/** A scoped round's part of the index: the rows it read are around `isAround`, the rest is `elsewhere`. */
export interface ScopedRows {
  elsewhere: RowLookup;
  /** The local entries the round keeps (pass-scope.ts leaves out the rest anyway). */
  isAround(path: RelativePath): boolean;
}

const REMOTE_PARKED = new RegExp(`^${MOVING_PREFIX.replaceAll('.', '\\.')}[0-9a-f]{12}$`, 'u');

/**
 * A remote item a crashed pass (or an earlier round, whose final rename met a 412) left parked under
 * `.mch-moving-<hex>` (a swap of names) is read as still where the index has it, so the local side's
 * name wins and no one sees the temporary name; the paths of everything below it follow. The planner
 * moves it out of its temporary name (`parkedAs`).
 */
class Unparker {
  readonly #rows: RowLookup;
  readonly #moved: Array<{ from: string; to: string }> = [];

  constructor(rows: RowLookup) {
    this.#rows = rows;
  }

  entry(found: RemoteEntry): RemoteEntry {
    let path = found.path;
    for (const { from, to } of this.#moved) {
      if (path.startsWith(`${from}/`)) path = to + path.slice(from.length);
    }
    const row = REMOTE_PARKED.test(found.name) ? this.#rows.get(found.id) : undefined;
    if (!row) return path === found.path ? found : { ...found, path };
    this.#moved.push({ from: path, to: row.path });
    return {
      ...found,
      name: row.name,
      parentId: row.parentRemoteId,
      path: row.path,
      parkedAs: { name: found.name, parentId: found.parentId },
    };
  }
}

/**
 * Local names the scanner found equal under NFC in one folder (Linux keeps both): one is synced (the
 * one the index knows, else the NFC spelling), the others are left out with an issue.
 */
function shadowedLocalPaths(
  scan: ScanResult,
  rows: ReadonlyMap<string, IndexRow>,
  elsewhere: RowLookup | undefined,
  issues: PassIssue[],
): Set<RelativePath> {
  const shadowed = new Set<RelativePath>();
  const clashes = scan.clashes.filter((clash) => clash.kind === 'unicode');
  if (clashes.length === 0) return shadowed;
  // The synced one is at the index's path with the index's inode (an inode alone may be reused).
  const synced = new Set<string>();
  for (const row of rows.values()) if (row.inode !== null) synced.add(`${nameKey(row.path)}\n${row.inode}`);
  const inodeOf = new Map(scan.entries.map((entry) => [entry.path, entry.inode]));
  const isSynced = (path: RelativePath): boolean => {
    const inode = inodeOf.get(path) ?? '';
    if (synced.has(`${nameKey(path)}\n${inode}`)) return true;
    return elsewhere?.byInode(inode).some((row) => nameKey(row.path) === nameKey(path)) ?? false;
  };
  for (const clash of clashes) {
    const keep =
      clash.paths.find(isSynced) ??
      clash.paths.find((path) => path === path.normalize('NFC')) ??
      clash.paths[0];
    for (const path of clash.paths) {
      if (path === keep) continue;
      shadowed.add(path);
      issues.push(normalisationClash(path, 'local'));
    }
  }
  return shadowed;
}

function isShadowed(path: RelativePath, shadowed: ReadonlySet<RelativePath>): boolean {
  if (shadowed.size === 0) return false;
  for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
    if (shadowed.has(path.slice(0, end))) return true;
  }
  return false;
}

/**
 * Flags every synced folder above a remote item the round leaves out (`holdsLeftOut`): the planner
 * sees only what is synced, and a folder that looks empty to it may hold a new file whose name
 * clashes with one the user just deleted.
 */
function markHoldersOfLeftOut(
  remote: Map<string, RemoteEntry>,
  walked: ReadonlyMap<string, RemoteEntry>,
  parents: ReadonlySet<string>,
): void {
  const marked = new Set<string>();
  for (const parentId of parents) {
    for (let id: string | undefined = parentId; id !== undefined && !marked.has(id);) {
      marked.add(id);
      const entry = remote.get(id);
      if (entry !== undefined) remote.set(id, { ...entry, holdsLeftOut: true });
      id = walked.get(id)?.parentId;
    }
  }
}

/**
 * An index row read for this round takes the remote entry's strings where they are equal: a pass that
 * plans holds every row and every entry at once, and a million of each would otherwise hold each path,
 * name, id and ETag twice. The row is this round's own object; only equal values are swapped.
 */
function shareStrings(row: IndexRow, found: RemoteEntry): void {
  row.remoteId = found.id;
  if (row.path === found.path) row.path = found.path;
  if (row.name === found.name) row.name = found.name;
  if (row.eTag === found.eTag) row.eTag = found.eTag;
}

/** The same for the local half of a row: the scan's inode string and mtime where they are equal. */
function shareLocalValues(row: IndexRow, found: LocalEntry | undefined): void {
  if (found === undefined || found.inode !== row.inode) return;
  row.inode = found.inode;
  if (found.mtimeNs === row.localMtimeNs) row.localMtimeNs = found.mtimeNs;
}

/**
 * An item the scan skipped (ignored, unreadable, a symlink...), a folder that vanished from the walk,
 * or a remote item refused by name is unknown, never deleted: its index rows are left out of the round
 * (and so untouched), and so are the other side's items there. `index` is every row, or (a scoped
 * round) only the rows around the scope, in the same order, with `scoped` for the rest.
 */
export function passInputs(
  scan: ScanResult,
  walk: RemoteWalkResult,
  index: Iterable<IndexRow>,
  remoteRootId: string,
  scoped?: ScopedRows,
): PassInputs {
  const elsewhere = scoped?.elsewhere;
  const issues = scanIssues(scan);
  const fromScan = issues.length;
  const { unknown, refusedIds } = unknownPaths(scan, walk, issues);
  // The local side first, so that each row takes its equal values as it is read: a value swapped
  // later, once a million rows live in the old generation, is garbage only a full GC frees.
  const local = localEntries(scan, unknown, scoped);
  markHoldersOfKeptCopies(scan, local);
  const rows = readRows(index, walk, local, scan.placeholders);
  // A synced item moved into a kept copy of an excluded folder is not deleted (selection-inputs.ts).
  for (const moved of movedIntoKeptCopies(scan, rows, local)) {
    unknown.add(moved.path, 'itself-and-below');
    issues.push(moved.issue);
  }
  const shadowed = shadowedLocalPaths(scan, rows, elsewhere, issues);
  // An item moved to a name left out is not deleted when placeholders may be in it (placeholder-inputs.ts).
  const outOfSight = movedOutOfSight(scan, rows, (path) => isShadowed(path, shadowed));
  for (const path of outOfSight) unknown.add(path, 'itself-and-below');
  issues.push(...waitingUnderOutOfSight(local, outOfSight));
  const unknownBefore = unknown.size;
  const lookup = rowLookup(rows, elsewhere);
  const selection = new SelectionLeftOut(walk.excluded, scan, (id) => lookup.get(id) !== undefined);
  const remote = remoteEntries(walk, unknown, lookup, issues, selection);
  // Names refused on the device left those paths unknown on this side too; shadowed names are left out.
  if (unknown.size > unknownBefore || shadowed.size > 0) {
    for (const path of local.keys()) {
      if (unknown.covers(path) || isShadowed(path, shadowed)) local.delete(path);
    }
  }
  for (const row of rows.values()) {
    if (refusedIds.has(row.remoteId) || unknown.covers(row.path)) rows.delete(row.remoteId);
  }
  followGonePlaceholders(rows, local, remote, scan.placeholders, remoteRootId);
  const nameClashes = issues.filter((issue) => issue.code === 'NAME_CLASH').length;
  return { input: { local, remote, index: rows, remoteRootId }, issues, fromScan, nameClashes };
}

/** What neither side could see (skipped, vanished), and the remote items refused by name, each an issue. */
function unknownPaths(
  scan: ScanResult,
  walk: RemoteWalkResult,
  issues: PassIssue[],
): { unknown: UnknownPaths; refusedIds: Set<string> } {
  const unknown = new UnknownPaths();
  for (const skipped of scan.skipped) unknown.add(skipped.path, 'itself-and-below');
  for (const vanished of walk.vanished) unknown.add(vanished.path, 'below');
  const refusedIds = new Set<string>();
  for (const rejected of walk.rejected) {
    if (rejected.id !== undefined) refusedIds.add(rejected.id);
    issues.push(refusedRemoteItem(rejected));
  }
  return { unknown, refusedIds };
}

/** The scan's entries the round keeps: known, and (a scoped round) around its scope. */
function localEntries(
  scan: ScanResult,
  unknown: UnknownPaths,
  scoped: ScopedRows | undefined,
): Map<RelativePath, LocalEntry> {
  const local = new Map<RelativePath, LocalEntry>();
  for (const entry of scan.entries) {
    if (!unknown.covers(entry.path) && (scoped === undefined || scoped.isAround(entry.path)))
      local.set(entry.path, entry);
  }
  return local;
}

/**
 * The round's rows by remote id, each taking the equal strings of the entries it pairs with. A
 * placeholder of its row (on-demand pairs) is unchanged whatever its time says: its bytes are the
 * device's, and a download filling it in place moves its mtime until it puts the device's back.
 */
function readRows(
  index: Iterable<IndexRow>,
  walk: RemoteWalkResult,
  local: Map<RelativePath, LocalEntry>,
  placeholders: ReadonlySet<string> | undefined,
): Map<string, IndexRow> {
  const rows = new Map<string, IndexRow>();
  for (const row of index) {
    const found = walk.entries.get(row.remoteId);
    if (found !== undefined) shareStrings(row, found);
    let entry = local.get(row.path);
    if (entry !== undefined && placeholders?.has(entry.inode) === true) entry = asSynced(local, entry, row);
    shareLocalValues(row, entry);
    rows.set(row.remoteId, row);
  }
  return rows;
}

/** The round's rows, and for a scoped round the rest of the index too. */
function rowLookup(rows: ReadonlyMap<string, IndexRow>, elsewhere: RowLookup | undefined): RowLookup {
  return elsewhere === undefined
    ? { get: (remoteId) => rows.get(remoteId), byInode: () => [] }
    : {
        get: (remoteId) => rows.get(remoteId) ?? elsewhere.get(remoteId),
        byInode: (inode) => elsewhere.byInode(inode),
      };
}

/**
 * The walk's entries the round keeps, parked ones read where the index has them. Left out: what is
 * below an unknown path, the other spellings of a name (one is synced), and names this computer
 * refuses (their paths become unknown, for the local side too), and what `selection` leaves out
 * (excluded and waiting folders, what is new in a copy about to go). Every folder above one left out is
 * marked (`holdsLeftOut`).
 */
function remoteEntries(
  walk: RemoteWalkResult,
  unknown: UnknownPaths,
  rows: RowLookup,
  issues: PassIssue[],
  selection: SelectionLeftOut,
): ReadonlyMap<string, RemoteEntry> {
  const unparked = new Unparker(rows);
  const names = chosenRemoteNames(walk, (id) => rows.get(id) !== undefined);
  const shadowedRemote = new Set<string>();
  // Folders that hold a remote item left out of the round (refused items were never in the walk).
  const leftOutParents = new Set(walk.rejected.map((rejected) => rejected.folderId));
  // The walk's own map stands for the remote side until an entry is left out or changed: then a copy
  // is made (a million entries need not be in two maps when nothing is left out).
  let copy: Map<string, RemoteEntry> | undefined;
  let position = 0;
  const leaveOut = (): void => {
    if (copy !== undefined) return;
    copy = new Map();
    for (const entry of walk.entries.values()) {
      if (copy.size === position - 1) break;
      copy.set(entry.id, entry);
    }
  };
  // Parents come before children in the walk, so a skipped folder is known before its content.
  for (const found of walk.entries.values()) {
    // Counts this entry: the ones before it were all taken as they are, unless `copy` exists.
    position += 1;
    const entry = unparked.entry(found);
    if (unknown.covers(entry.path)) {
      // A device item at the place of a kept copy of an excluded folder: left out, and said.
      const taken = selection.keptCopyHolds(found, entry.path);
      if (taken !== undefined) issues.push(taken);
      leftOutParents.add(found.parentId);
      leaveOut();
      continue;
    }
    // Two names in one folder that differ only in Unicode normalisation: the first one is synced.
    const clashesWithChosen =
      names.folders.has(found.parentId) &&
      names.chosen.get(`${found.parentId}/${nameKey(found.name)}`) !== found.id;
    const bySelection = selection.isEmpty ? undefined : selection.judge(found, entry.path);
    if (bySelection !== undefined) {
      if (bySelection.issue !== undefined) issues.push(bySelection.issue);
      // Left out by the twin of a synced name: that name stays known here, as does its item (seed 784).
      if (clashesWithChosen) shadowedRemote.add(found.id);
      else unknown.add(entry.path, 'itself-and-below');
      leftOutParents.add(found.parentId);
      leaveOut();
      continue;
    }
    if (shadowedRemote.has(found.parentId) || clashesWithChosen) {
      if (!shadowedRemote.has(found.parentId)) issues.push(normalisationClash(entry.path, 'remote'));
      shadowedRemote.add(found.id);
      leftOutParents.add(found.parentId);
      leaveOut();
      continue;
    }
    const leftOut = remoteLeftOut(entry.path, entry.name);
    if (leftOut !== undefined) {
      unknown.add(entry.path, 'itself-and-below');
      leftOutParents.add(found.parentId);
      issues.push(leftOut);
      leaveOut();
      continue;
    }
    if (entry !== found) leaveOut();
    copy?.set(entry.id, entry);
  }
  if (leftOutParents.size > 0) {
    copy ??= new Map(walk.entries);
    markHoldersOfLeftOut(copy, walk.entries, leftOutParents);
  }
  return copy ?? walk.entries;
}
