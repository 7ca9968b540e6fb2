// An incremental round: only the changed subtrees and what surrounds them; elsewhere the index stands for the disk.
import type { IndexStore } from '../../index/index-store.ts';
import type { IndexRow, LocalEntry, RelativePath, RemoteEntry } from '../../model/items.ts';
import { passInputs, type PassInputs } from './pass-inputs.ts';
import type { PassIssue } from '../pass-report.ts';
import type { StandingIssues } from './quiet-pass.ts';
import { nameKey } from '../../model/items.ts';
import { parentPath } from '../../model/paths.ts';
import type { ReconcileInput } from '../plan/reconcile.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { ScanResult } from '../local/scanner.ts';

/**
 * Paths (NFC) an incremental round looks at: inside a changed subtree, a folder on the way to one (a
 * parent of what changed), or an item beside one (a name a new item must not take).
 */
export class PassScope {
  readonly roots: readonly RelativePath[];
  readonly #keys: readonly string[];
  /** The keys as a set, for many roots: a round around a thousand differences asks for every scanned item. */
  readonly #keySet: ReadonlySet<string> | undefined;
  readonly #ancestors = new Set<string>(['']);
  readonly #parents = new Set<string>();

  constructor(roots: readonly RelativePath[]) {
    this.roots = roots;
    this.#keys = roots.map(nameKey);
    this.#keySet = this.#keys.length > 16 ? new Set(this.#keys) : undefined;
    for (const key of this.#keys) {
      this.#parents.add(parentPath(key));
      for (let slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
        this.#ancestors.add(key.slice(0, slash));
      }
    }
  }

  /** Inside a changed subtree: what the disk holds there was scanned. */
  covers(path: RelativePath): boolean {
    const key = nameKey(path);
    const keys = this.#keySet;
    if (keys === undefined) return this.#keys.some((root) => key === root || key.startsWith(`${root}/`));
    if (keys.has(key)) return true;
    for (let slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
      if (keys.has(key.slice(0, slash))) return true;
    }
    return false;
  }

  isAround(path: RelativePath): boolean {
    const key = nameKey(path);
    return this.covers(key) || this.#ancestors.has(key) || this.#parents.has(parentPath(key));
  }

  /** The paths (NFC) `isAround` takes: the roots' subtrees, the folders on the way, and their parents' children. */
  get extent(): { subtrees: readonly string[]; folders: readonly string[]; childrenOf: readonly string[] } {
    return { subtrees: this.#keys, folders: [...this.#ancestors], childrenOf: [...this.#parents] };
  }
}

/** SQLite's order of paths (memcmp of UTF-8, that is code points): `IndexStore.entries()` comes in it. */
function byStoredPath(a: IndexRow, b: IndexRow): number {
  const x = a.path;
  const y = b.path;
  const length = Math.min(x.length, y.length);
  for (let at = 0; at < length; at++) {
    let p = x.charCodeAt(at);
    let q = y.charCodeAt(at);
    if (p === q) continue;
    // UTF-16 puts surrogates (code points from U+10000) before U+E000-U+FFFF; code points do not.
    if (p >= 0xd800 && q >= 0xd800) {
      p = p < 0xe000 ? p + 0x2000 : p - 0x800;
      q = q < 0xe000 ? q + 0x2000 : q - 0x800;
    }
    return p - q;
  }
  return x.length - y.length;
}

/**
 * The index rows `scope.isAround`, in the order of `index.entries()`, read by path ranges: a scoped
 * round need not read a million rows to keep a few. Stored paths are compared as they are spelled, so
 * the rows whose path is not ASCII (whose NFC form may differ) are read too and sorted by `isAround`.
 */
export function rowsAround(index: IndexStore, scope: PassScope): IndexRow[] {
  const found = new Map<string, IndexRow>();
  const take = (rows: Iterable<IndexRow>): void => {
    for (const row of rows)
      if (scope.isAround(row.path) && !found.has(row.remoteId)) found.set(row.remoteId, row);
  };
  const { subtrees, folders, childrenOf } = scope.extent;
  for (const path of subtrees) take(index.rowsWithin(path));
  for (const path of childrenOf) take(index.rowsInFolder(path));
  for (const path of folders) {
    const entry = path === '' ? undefined : index.byPath(path);
    if (entry !== undefined) {
      const { contentHash: _hash, ...row } = entry;
      take([row]);
    }
  }
  take(index.nonAsciiRows());
  return [...found.values()].sort(byStoredPath);
}

/**
 * A scoped round's inputs: `scopeInputs(passInputs(scan, walk, index.entries(), ...), scope)` without
 * reading every row. passInputs looks rows up beyond the scope only by a remote entry's id (a parked or
 * a clashing name) or by a local entry's inode (a clashing name): the index answers those one by one.
 */
export function scopedPassInputs(
  scan: ScanResult,
  walk: RemoteWalkResult,
  index: IndexStore,
  remoteRootId: string,
  scope: PassScope,
): PassInputs {
  const rows = rowsAround(index, scope);
  const elsewhere = { elsewhere: index, isAround: (path: RelativePath) => scope.isAround(path) };
  let inputs = passInputs(scan, walk, rows, remoteRootId, elsewhere);
  // An item the device moved into the scope from outside it: its row is where the index last had it,
  // outside. Without the row the item reads as new and comes down beside its old self (soak seed 257).
  const known = new Set<string>();
  for (const row of inputs.input.index.values()) known.add(row.remoteId);
  const moved: IndexRow[] = [];
  for (const entry of inputs.input.remote.values()) {
    if (known.has(entry.id) || !scope.isAround(entry.path)) continue;
    const found = index.get(entry.id);
    if (found === undefined) continue;
    const { contentHash: _hash, ...row } = found;
    moved.push(row);
  }
  if (moved.length > 0) {
    inputs = passInputs(scan, walk, [...rows, ...moved].sort(byStoredPath), remoteRootId, elsewhere);
  }
  return { ...inputs, input: scopeInputs(inputs.input, scope) };
}

/**
 * An incremental round's issues: what it found inside its scope, and the last settled pass's issues
 * outside it, which still stand (a name left out beside an unrelated change is still left out; seed
 * 8522 lost its NAME_CLASH from the report that way). The scan's issues stay first, `fromScan` of them.
 */
export function withStandingOutside(
  found: StandingIssues,
  standing: StandingIssues,
  scope: PassScope,
): StandingIssues {
  const outside = (issue: PassIssue): boolean => !scope.covers(issue.path);
  const keptScan = standing.issues.slice(0, standing.fromScan).filter(outside);
  const keptOther = standing.issues.slice(standing.fromScan).filter(outside);
  if (keptScan.length === 0 && keptOther.length === 0) return found;
  return {
    issues: [
      ...found.issues.slice(0, found.fromScan),
      ...keptScan,
      ...found.issues.slice(found.fromScan),
      ...keptOther,
    ],
    fromScan: found.fromScan + keptScan.length,
  };
}

/** The local side of an index row, as it was when last synced (outside the scanned subtrees). */
function asOnDisk(row: IndexRow): LocalEntry | undefined {
  if (row.inode === null || row.localSize === null || row.localMtimeNs === null) return undefined;
  return { path: row.path, kind: row.kind, inode: row.inode, size: row.localSize, mtimeNs: row.localMtimeNs };
}

/**
 * Narrows a round's inputs (from a scan limited to the scope) to the items around the scope. Index
 * rows outside the scanned subtrees stand for their local items: they were not watched to change.
 */
export function scopeInputs(input: ReconcileInput, scope: PassScope): ReconcileInput {
  const local = new Map<RelativePath, LocalEntry>();
  const scanned = new Set<string>();
  for (const entry of input.local.values()) {
    if (!scope.isAround(entry.path)) continue;
    local.set(entry.path, entry);
    scanned.add(nameKey(entry.path));
  }
  const remote = new Map<string, RemoteEntry>();
  for (const entry of input.remote.values()) if (scope.isAround(entry.path)) remote.set(entry.id, entry);
  const index = new Map<string, IndexRow>();
  for (const row of input.index.values()) {
    // A row outside comes in with its remote item when the device moved that item into the scope; its
    // local item stands where the index has it (outside the scanned subtrees, unwatched to change).
    if (!scope.isAround(row.path) && !remote.has(row.remoteId)) continue;
    index.set(row.remoteId, row);
    const onDisk = scope.covers(row.path) || scanned.has(nameKey(row.path)) ? undefined : asOnDisk(row);
    if (onDisk) local.set(onDisk.path, onDisk);
  }
  return { local, remote, index, remoteRootId: input.remoteRootId };
}

/**
 * Local paths of the folders whose listing changed on the device in `walk` (listed in full, or gone
 * mid-walk): where each is now and where the index last had it. `''` when the synced folder itself
 * changed. Their subtrees hold every remote add, delete, rename and move of the walk.
 */
export function remoteChangedRoots(
  walk: RemoteWalkResult,
  index: { get(remoteId: string): IndexRow | undefined },
  remoteRootId: string,
): RelativePath[] {
  const roots = new Set<RelativePath>();
  const add = (folderId: string): void => {
    if (folderId === remoteRootId) {
      roots.add('');
      return;
    }
    const now = walk.entries.get(folderId)?.path;
    const before = index.get(folderId)?.path;
    if (now !== undefined) roots.add(now);
    if (before !== undefined) roots.add(before);
  };
  for (const folderId of walk.listed) add(folderId);
  for (const vanished of walk.vanished) add(vanished.id);
  return [...roots];
}

/**
 * The folders a scoped round's walk found changed on the device (listed in full, or gone) whose
 * children disagree with the index, where the round's scope does not reach: it plans nothing there,
 * and the walk cache answers 304 for them from now on, so the next poll must be told (soak seed 30,
 * issue 18). A folder listed in full only because this engine wrote into it agrees with the index.
 */
export function unplannedRemoteRoots(
  walk: RemoteWalkResult,
  index: { get(remoteId: string): IndexRow | undefined; children(parentRemoteId: string): IndexRow[] },
  remoteRootId: string,
  scope: PassScope,
): RelativePath[] {
  const changed = [...walk.vanished.map((vanished) => vanished.id)];
  const listed = [...walk.listed].filter((folderId) => {
    const path = folderId === remoteRootId ? '' : walk.entries.get(folderId)?.path;
    return path === undefined || !scope.covers(path);
  });
  if (listed.length > 0) {
    const children = new Map<string, RemoteEntry[]>();
    for (const entry of walk.entries.values()) {
      if (listed.includes(entry.parentId))
        children.set(entry.parentId, [...(children.get(entry.parentId) ?? []), entry]);
    }
    for (const folderId of listed) {
      if (!agrees(children.get(folderId) ?? [], index.children(folderId))) changed.push(folderId);
    }
  }
  const roots = new Set<RelativePath>();
  for (const folderId of changed) {
    if (folderId === remoteRootId) {
      roots.add('');
      continue;
    }
    const now = walk.entries.get(folderId)?.path;
    const before = index.get(folderId)?.path;
    if (now !== undefined && !scope.covers(now)) roots.add(now);
    if (before !== undefined && !scope.covers(before)) roots.add(before);
  }
  return [...roots];
}

/** The same items, names and kinds, files at the same size and time (what deriveRemoteChange reads). */
function agrees(walked: readonly RemoteEntry[], rows: readonly IndexRow[]): boolean {
  if (walked.length !== rows.length) return false;
  const byId = new Map(rows.map((row) => [row.remoteId, row]));
  return walked.every((entry) => {
    const row = byId.get(entry.id);
    if (row === undefined || row.kind !== entry.kind || nameKey(row.name) !== nameKey(entry.name))
      return false;
    return entry.kind === 'folder' || (row.size === entry.size && row.mTimeMs === entry.mTimeMs);
  });
}
