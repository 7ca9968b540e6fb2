// The reconciler: pairs what the local scan, the remote walk and the index say into items with changes.
import type { IndexEntry, LocalEntry, RelativePath, RemoteEntry } from './model.ts';
import { nameKey } from './model.ts';
import { deriveLocalChange, deriveRemoteChange, type Change } from './reconcile-changes.ts';

export type { Change } from './reconcile-changes.ts';

export interface ReconcileInput {
  /** By path as found on disk. */
  local: ReadonlyMap<RelativePath, LocalEntry>;
  /** By remote id; the synced remote folder itself is not in it. */
  remote: ReadonlyMap<string, RemoteEntry>;
  /** By remote id. */
  index: ReadonlyMap<string, IndexEntry>;
  /** The id of the synced remote folder, the parent of top-level items. */
  remoteRootId: string;
}

/** One item as both sides and the index know it, with what changed on each side since the index. */
export interface ReconciledItem {
  index: IndexEntry | null;
  local: LocalEntry | null;
  remote: RemoteEntry | null;
  localChange: Change;
  remoteChange: Change;
}

export function reconcile(input: ReconcileInput): ReconciledItem[] {
  const pairs = pairItems(input);
  const parentIdOfLocalPath = localParentIds(pairs, input.remoteRootId);
  return pairs.map((pair) => ({
    ...pair,
    localChange: deriveLocalChange(pair.index, pair.local, parentIdOfLocalPath),
    remoteChange: deriveRemoteChange(pair.index, pair.remote),
  }));
}

interface Pair {
  index: IndexEntry | null;
  local: LocalEntry | null;
  remote: RemoteEntry | null;
}

function pairItems(input: ReconcileInput): Pair[] {
  const localByInode = new Map<string, LocalEntry>();
  for (const entry of input.local.values()) localByInode.set(entry.inode, entry);
  const unpairedLocal = new Map<string, LocalEntry>();
  for (const entry of input.local.values()) unpairedLocal.set(nameKey(entry.path), entry);
  const unpairedRemote = new Map(input.remote);

  // Built on first need: only a folder whose inode turned up under another name asks.
  let childRows: Map<string, IndexEntry[]> | undefined;
  const childrenOf = (remoteId: string): IndexEntry[] => {
    if (childRows === undefined) {
      childRows = new Map();
      for (const row of input.index.values()) {
        const siblings = childRows.get(row.parentRemoteId);
        if (siblings) siblings.push(row);
        else childRows.set(row.parentRemoteId, [row]);
      }
    }
    return childRows.get(remoteId) ?? [];
  };
  const keepsAChild = (index: IndexEntry, folder: LocalEntry): boolean =>
    childrenOf(index.remoteId).some((child) => {
      const found = child.inode === null ? undefined : localByInode.get(child.inode);
      return found !== undefined && nameKey(parentPath(found.path)) === nameKey(folder.path);
    });

  // Two rows can hold one inode: the file system may give a folder this engine makes the inode of one
  // deleted meanwhile (seed 321). The entry is one item, so one row gets it: the row at its path first.
  const rowOfLocal = new Map<LocalEntry, IndexEntry>();
  for (const index of input.index.values()) {
    const byInode = index.inode === null ? undefined : localByInode.get(index.inode);
    if (!byInode || !isSameLocalItem(index, byInode, keepsAChild)) continue;
    const claimed = rowOfLocal.get(byInode);
    const atItsPath = (row: IndexEntry): boolean => nameKey(row.path) === nameKey(byInode.path);
    if (!claimed || (atItsPath(index) && !atItsPath(claimed))) rowOfLocal.set(byInode, index);
  }

  const pairs: Pair[] = [];
  const withoutLocal: Pair[] = [];
  const withoutRemote: Pair[] = [];
  for (const index of input.index.values()) {
    const remote = unpairedRemote.get(index.remoteId) ?? null;
    if (remote) unpairedRemote.delete(index.remoteId);
    const byInode = index.inode === null ? undefined : localByInode.get(index.inode);
    const local = byInode && rowOfLocal.get(byInode) === index ? byInode : null;
    if (local) unpairedLocal.delete(nameKey(local.path));
    const pair: Pair = { index, local, remote };
    pairs.push(pair);
    if (!local) withoutLocal.push(pair);
    if (!remote) withoutRemote.push(pair);
  }

  // An editor's atomic save gives the file a new inode at the same path; a type change (file ↔
  // folder) does too. Either way the entry at the index's path is that item's local side.
  for (const pair of withoutLocal) {
    const key = nameKey(pair.index?.path ?? '');
    const local = unpairedLocal.get(key);
    if (local) {
      pair.local = local;
      unpairedLocal.delete(key);
    }
  }

  // An item the device re-created (a type change, or a folder made again) has a new id at the same
  // path: pair it by path with the row whose id is gone.
  const remoteByPath = new Map<string, RemoteEntry>();
  for (const remote of unpairedRemote.values()) remoteByPath.set(nameKey(remote.path), remote);
  for (const pair of withoutRemote) {
    const key = nameKey(pair.index?.path ?? '');
    const remote = remoteByPath.get(key);
    // A file made again is a new file (the old one goes to the trash); a folder is the same folder.
    if (remote && (remote.kind === 'folder' || remote.kind !== pair.index?.kind)) {
      pair.remote = remote;
      remoteByPath.delete(key);
      unpairedRemote.delete(remote.id);
    }
  }

  // Items new on both sides at the same path are one item (a folder made twice, a file copied twice).
  for (const remote of unpairedRemote.values()) {
    const key = nameKey(remote.path);
    const local = unpairedLocal.get(key) ?? null;
    if (local) unpairedLocal.delete(key);
    pairs.push({ index: null, local, remote });
  }
  for (const local of unpairedLocal.values()) pairs.push({ index: null, local, remote: null });
  return pairs;
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
  index: IndexEntry,
  local: LocalEntry,
  keepsAChild: (index: IndexEntry, folder: LocalEntry) => boolean,
): boolean {
  if (local.kind !== index.kind) return false;
  const sameName = nameKey(baseName(local.path)) === nameKey(index.name);
  if (local.kind === 'folder') return sameName || keepsAChild(index, local);
  const sameContent = local.size === index.localSize && local.mtimeNs === index.localMtimeNs;
  return sameContent || sameName;
}

/** For each local path (as NFC key), the remote id of the item there, or null for a new one. */
function localParentIds(pairs: Pair[], remoteRootId: string): (path: RelativePath) => string | null {
  const idByPath = new Map<string, string | null>();
  for (const pair of pairs) {
    if (!pair.local) continue;
    idByPath.set(nameKey(pair.local.path), pair.index?.remoteId ?? pair.remote?.id ?? null);
  }
  return (path) => {
    const parent = parentPath(path);
    if (parent === '') return remoteRootId;
    return idByPath.get(nameKey(parent)) ?? null;
  };
}

export function baseName(path: RelativePath): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function parentPath(path: RelativePath): RelativePath {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
