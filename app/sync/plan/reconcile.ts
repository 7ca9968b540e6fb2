// The reconciler: pairs what the local scan, the remote walk and the index say into items with changes.
import type { IndexRow, LocalEntry, RelativePath, RemoteEntry } from '../../model/items.ts';
import { hasName, nameKey } from '../../model/items.ts';
import { parentPath } from '../../model/paths.ts';
import { deriveLocalChange, deriveRemoteChange, type Change } from './reconcile-changes.ts';

export type { Change } from './reconcile-changes.ts';
// The path helpers moved to app/model/paths.ts; kept here for the rooms that still import them from here.

export interface ReconcileInput {
  /** By path as found on disk. */
  local: ReadonlyMap<RelativePath, LocalEntry>;
  /** By remote id; the synced remote folder itself is not in it. */
  remote: ReadonlyMap<string, RemoteEntry>;
  /** By remote id. */
  index: ReadonlyMap<string, IndexRow>;
  /** The id of the synced remote folder, the parent of top-level items. */
  remoteRootId: string;
}

/** One item as both sides and the index know it, with what changed on each side since the index. */
export interface ReconciledItem {
  index: IndexRow | null;
  local: LocalEntry | null;
  remote: RemoteEntry | null;
  localChange: Change;
  remoteChange: Change;
  /**
   * Set when the bytes were compared and differ though size and time agree (both sides edited the
   * file): the planner must not take the two for the same content.
   */
  contentDiffers?: boolean;
}

export function reconcile(input: ReconcileInput): ReconciledItem[] {
  const items = pairItems(input);
  const parentIdOfLocalPath = localParentIds(items, input.remoteRootId);
  for (const item of items) {
    item.localChange = deriveLocalChange(item.index, item.local, parentIdOfLocalPath);
    item.remoteChange = deriveRemoteChange(item.index, item.remote);
  }
  return items;
}

function pair(index: IndexRow | null, local: LocalEntry | null, remote: RemoteEntry | null): ReconciledItem {
  return { index, local, remote, localChange: 'none', remoteChange: 'none' };
}

/**
 * Pairs by identity first (remote id; local inode), then by path. A pass over 100,000 unchanged items
 * pairs them all by identity: the by-path maps hold only what is left, and positions in arrays stand
 * for the maps a pairing per item would otherwise fill and empty again.
 */
function pairItems(input: ReconcileInput): ReconciledItem[] {
  const locals = [...input.local.values()];
  const byInode = new LocalsByInode(locals, input.index);
  const rows = [...input.index.values()];
  const claims = claimLocalsByInode(rows, locals, byInode);
  const { items, withoutLocal, withoutRemote } = pairRows(rows, locals, claims, input.remote);
  const unpairedLocal = unclaimedLocals(locals, claims);
  pairSavedAgainByPath(withoutLocal, unpairedLocal);
  const pairedByPath = pairMadeAgainByPath(withoutRemote, input);
  pairNewOnBothSides(input, pairedByPath, unpairedLocal, items);
  return items;
}

/**
 * The scan's entries by inode, for the rows to find theirs, and whether an entry found so is the row's
 * item (`isSameLocalItem`), which for a folder may ask after the row's children.
 */
class LocalsByInode {
  readonly #locals: readonly LocalEntry[];
  readonly #index: ReadonlyMap<string, IndexRow>;
  readonly #positionByInode = new Map<string, number>();
  /** Built on first need: only a folder whose inode turned up under another name asks. */
  #childRows: Map<string, IndexRow[]> | undefined;

  constructor(locals: readonly LocalEntry[], index: ReadonlyMap<string, IndexRow>) {
    this.#locals = locals;
    this.#index = index;
    // Only rows look entries up by inode (the first pass over a tree already on both sides has none).
    if (index.size > 0)
      for (let at = 0; at < locals.length; at++)
        this.#positionByInode.set((locals[at] as LocalEntry).inode, at);
  }

  /** The position in `locals` of the entry with this inode. */
  positionOf(inode: string | null): number | undefined {
    return inode === null ? undefined : this.#positionByInode.get(inode);
  }

  isSameItem(index: IndexRow, local: LocalEntry): boolean {
    return isSameLocalItem(index, local, this.#keepsAChild);
  }

  readonly #keepsAChild = (index: IndexRow, folder: LocalEntry): boolean =>
    this.#childrenOf(index.remoteId).some((child) => {
      const at = this.positionOf(child.inode);
      const found = at === undefined ? undefined : this.#locals[at];
      // The entry must be that child, not a new one that reused its inode (seed 6722: a file made in
      // a new folder got the inode of a deleted folder's subfolder). Rows lead down the tree: it ends.
      return (
        found !== undefined &&
        nameKey(parentPath(found.path)) === nameKey(folder.path) &&
        isSameLocalItem(child, found, this.#keepsAChild)
      );
    });

  #childrenOf(remoteId: string): IndexRow[] {
    if (this.#childRows === undefined) {
      this.#childRows = new Map();
      for (const row of this.#index.values()) {
        const siblings = this.#childRows.get(row.parentRemoteId);
        if (siblings) siblings.push(row);
        else this.#childRows.set(row.parentRemoteId, [row]);
      }
    }
    return this.#childRows.get(remoteId) ?? [];
  }
}

/** Which local entry each row holds by inode, by position: -1 for none, and the row that got each entry. */
interface InodeClaims {
  rowOfLocal: (IndexRow | undefined)[];
  localOfRow: Int32Array;
}

/**
 * Two rows can hold one inode: the file system may give a folder this engine makes the inode of one
 * deleted meanwhile (seed 321). The entry is one item, so one row gets it: the row at its path first.
 */
function claimLocalsByInode(
  rows: readonly IndexRow[],
  locals: readonly LocalEntry[],
  byInode: LocalsByInode,
): InodeClaims {
  const rowOfLocal: (IndexRow | undefined)[] = new Array<IndexRow | undefined>(locals.length);
  const localOfRow = new Int32Array(rows.length).fill(-1);
  for (let r = 0; r < rows.length; r++) {
    const index = rows[r] as IndexRow;
    const at = byInode.positionOf(index.inode);
    if (at === undefined) continue;
    const found = locals[at] as LocalEntry;
    if (!byInode.isSameItem(index, found)) continue;
    localOfRow[r] = at;
    const claimed = rowOfLocal[at];
    const atItsPath = (row: IndexRow): boolean => nameKey(row.path) === nameKey(found.path);
    if (!claimed || (atItsPath(index) && !atItsPath(claimed))) rowOfLocal[at] = index;
  }
  return { rowOfLocal, localOfRow };
}

/** One item per row, with the remote entry of its id and the local entry it claimed by inode. */
function pairRows(
  rows: readonly IndexRow[],
  locals: readonly LocalEntry[],
  claims: InodeClaims,
  remotes: ReadonlyMap<string, RemoteEntry>,
): { items: ReconciledItem[]; withoutLocal: ReconciledItem[]; withoutRemote: ReconciledItem[] } {
  const items: ReconciledItem[] = [];
  const withoutLocal: ReconciledItem[] = [];
  const withoutRemote: ReconciledItem[] = [];
  for (let r = 0; r < rows.length; r++) {
    const index = rows[r] as IndexRow;
    const remote = remotes.get(index.remoteId) ?? null;
    const at = claims.localOfRow[r] as number;
    const local = at >= 0 && claims.rowOfLocal[at] === index ? (locals[at] as LocalEntry) : null;
    const item = pair(index, local, remote);
    items.push(item);
    if (!local) withoutLocal.push(item);
    if (!remote) withoutRemote.push(item);
  }
  return { items, withoutLocal, withoutRemote };
}

/** What identity did not pair, by path (NFC). */
function unclaimedLocals(locals: readonly LocalEntry[], claims: InodeClaims): Map<string, LocalEntry> {
  const unpaired = new Map<string, LocalEntry>();
  for (let at = 0; at < locals.length; at++) {
    const local = locals[at] as LocalEntry;
    if (claims.rowOfLocal[at] === undefined) unpaired.set(nameKey(local.path), local);
  }
  return unpaired;
}

/**
 * An editor's atomic save gives the file a new inode at the same path; a type change (file ↔ folder)
 * does too. Either way the entry at the index's path is that item's local side.
 */
function pairSavedAgainByPath(
  withoutLocal: readonly ReconciledItem[],
  unpairedLocal: Map<string, LocalEntry>,
): void {
  for (const item of withoutLocal) {
    const key = nameKey(item.index?.path ?? '');
    const local = unpairedLocal.get(key);
    if (local) {
      item.local = local;
      unpairedLocal.delete(key);
    }
  }
}

/**
 * An item the device re-created (a type change, or a folder made again) has a new id at the same path:
 * pair it by path with the row whose id is gone. (Only rows gone from the device ask: the first pass
 * over a million items on both sides has none, and builds no map of them by path.) Returns the ids of
 * the remote entries so paired.
 */
function pairMadeAgainByPath(withoutRemote: readonly ReconciledItem[], input: ReconcileInput): Set<string> {
  const pairedByPath = new Set<string>();
  if (withoutRemote.length === 0) return pairedByPath;
  const remoteByPath = new Map<string, RemoteEntry>();
  for (const remote of input.remote.values())
    if (!input.index.has(remote.id)) remoteByPath.set(nameKey(remote.path), remote);
  for (const item of withoutRemote) {
    const key = nameKey(item.index?.path ?? '');
    const remote = remoteByPath.get(key);
    // A file made again is a new file (the old one goes to the trash); a folder is the same folder.
    if (remote && (remote.kind === 'folder' || remote.kind !== item.index?.kind)) {
      item.remote = remote;
      remoteByPath.delete(key);
      pairedByPath.add(remote.id);
    }
  }
  return pairedByPath;
}

/** Items new on both sides at the same path are one item (a folder made twice, a file copied twice). */
function pairNewOnBothSides(
  input: ReconcileInput,
  pairedByPath: ReadonlySet<string>,
  unpairedLocal: Map<string, LocalEntry>,
  items: ReconciledItem[],
): void {
  for (const remote of input.remote.values()) {
    if (input.index.has(remote.id) || pairedByPath.has(remote.id)) continue;
    const key = nameKey(remote.path);
    const local = unpairedLocal.get(key) ?? null;
    if (local) unpairedLocal.delete(key);
    items.push(pair(null, local, remote));
  }
  for (const local of unpairedLocal.values()) items.push(pair(null, local, null));
}

/**
 * Whether the entry with the index row's inode is that item, not a new one that reused the inode: the
 * kind must match, and a file must keep either its size and mtime (a move) or its name (an edit, maybe
 * inside a moved folder). A folder's mtime changes with its children, so it is no check for folders:
 * a folder must keep its name or hold one of its synced children still. A folder deleted and another
 * made at once often get the same inode, and reading that as a rename moves the old one's remote
 * item (and what the other side put in it) to the new name.
 */
function isSameLocalItem(
  index: IndexRow,
  local: LocalEntry,
  keepsAChild: (index: IndexRow, folder: LocalEntry) => boolean,
): boolean {
  if (local.kind !== index.kind) return false;
  if (local.kind === 'file' && local.size === index.localSize && local.mtimeNs === index.localMtimeNs) {
    return true;
  }
  if (hasName(local.path, index.name)) return true;
  return local.kind === 'folder' && keepsAChild(index, local);
}

/** For each local folder path (as NFC key), the remote id of the folder there, or null for a new one. */
function localParentIds(
  items: readonly ReconciledItem[],
  remoteRootId: string,
): (path: RelativePath) => string | null {
  // Only folders hold items: files need not be in the map.
  const idByPath = new Map<string, string | null>();
  for (const item of items) {
    if (item.local?.kind !== 'folder') continue;
    idByPath.set(nameKey(item.local.path), item.index?.remoteId ?? item.remote?.id ?? null);
  }
  return (path) => {
    const parent = parentPath(path);
    if (parent === '') return remoteRootId;
    return idByPath.get(nameKey(parent)) ?? null;
  };
}
