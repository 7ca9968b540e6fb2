// Which reconciled items the planner must look at: what changed, plus the folders and names around it.
import { nameKey } from '../../model/items.ts';
import { sameContent } from './planner-decide.ts';
import { parentPath } from '../../model/paths.ts';
import type { ReconciledItem } from './reconcile.ts';

/**
 * Unchanged on both sides and on disk under the inode the index knows: nothing to do for it (unless
 * the device still has it under a temporary name).
 */
function isQuiet(item: ReconciledItem): boolean {
  return (
    item.index !== null &&
    item.local !== null &&
    item.remote !== null &&
    item.localChange === 'none' &&
    item.remoteChange === 'none' &&
    item.local.inode === item.index.inode &&
    item.remote.parkedAs === undefined
  );
}

const CHANGED = 0;
const QUIET = 1;
const ADOPTED = 2;

/** A settled folder's paths on both sides, which its children's must continue. */
interface SettledFolder {
  localPath: string;
  remotePath: string;
}

/**
 * New on both sides at one path with the same content (a tree already on both sides when it is first
 * synced): the planner decides `index-update` for it, whatever the tree around it. It needs no place
 * in the tree either when its folder is the root or a settled folder at that same path on both sides
 * (a quiet item, or one adopted like it), and nothing beside it changed (checked by the caller).
 */
function isAdopted(
  item: ReconciledItem,
  remoteRootId: string,
  settled: ReadonlyMap<string, SettledFolder>,
): boolean {
  const { index, local, remote } = item;
  if (index !== null || local === null || remote === null) return false;
  if (remote.parkedAs !== undefined || remote.holdsLeftOut === true) return false;
  if (local.path !== remote.path || !sameContent(local, remote)) return false;
  const parent = parentPath(local.path);
  if (parent === '') return remote.parentId === remoteRootId;
  const folder = settled.get(remote.parentId);
  return folder !== undefined && folder.localPath === parent && folder.remotePath === parent;
}

/** What the planner places in its tree, and the items it only records as they are (`index-update`). */
export interface ItemsToPlan {
  planned: ReconciledItem[];
  /** Adopted items (new on both sides, equal) left out of the tree: their rows are written as found. */
  recorded: ReconciledItem[];
}

/**
 * The items a plan depends on. A pass where little changed is mostly quiet items, which need no
 * operation; the planner still needs the folders above each changed item (its place in the tree) and
 * the items beside them (the names a conflicted copy or a case clash must not take). Everything else
 * is left out, so a pass over 100,000 unchanged files plans nothing and builds no tree, and the first
 * pass over a million files already on both sides records them without a tree of a million nodes.
 */
export function itemsToPlan(items: readonly ReconciledItem[], remoteRootId: string): ItemsToPlan {
  // Each item's state, by position (a million-entry set of the adopted ones would be garbage after).
  const state = new Uint8Array(items.length);
  const settledFolders = new Map<string, SettledFolder>();
  let changedCount = 0;
  for (let at = 0; at < items.length; at++) {
    const item = items[at] as ReconciledItem;
    const quiet = isQuiet(item);
    if (!quiet && !isAdopted(item, remoteRootId, settledFolders)) {
      changedCount += 1;
      continue;
    }
    state[at] = quiet ? QUIET : ADOPTED;
    const { index, local, remote } = item;
    // A folder the device made again (paired by path) keeps its old id in the tree: not a parent here.
    if (local?.kind === 'folder' && remote !== null && (index === null || index.remoteId === remote.id))
      settledFolders.set(remote.id, { localPath: local.path, remotePath: remote.path });
  }
  const adoptedAt = (at: number): boolean => state[at] === ADOPTED;
  if (changedCount === 0) return { planned: [], recorded: items.filter((_, at) => adoptedAt(at)) };
  if (changedCount === items.length) return { planned: [...items], recorded: [] };
  // The id and parent id a settled item has in the tree: a quiet item's row's, an adopted one's entry's.
  const idOf = (item: ReconciledItem): string => item.index?.remoteId ?? item.remote?.id ?? '';
  const parentIdOf = (item: ReconciledItem): string =>
    item.index?.parentRemoteId ?? item.remote?.parentId ?? '';
  // Settled folders only: the climb below looks up parents, and a parent is a folder. (All quiet items
  // were two maps of a million entries in a pass over a million files that changed one.)
  const settledById = new Map<string, ReconciledItem>();
  const settledIdByLocalPath = new Map<string, string>();
  for (let at = 0; at < items.length; at++) {
    const item = items[at] as ReconciledItem;
    if (state[at] === CHANGED || (item.index ?? item.remote)?.kind !== 'folder') continue;
    settledById.set(idOf(item), item);
    if (item.local) settledIdByLocalPath.set(nameKey(item.local.path), idOf(item));
  }
  // Folder ids around changed items: their parents on every side, and those folders' own parents.
  const folders = new Set<string>();
  const climb = (folderId: string | undefined): void => {
    for (let id = folderId; id !== undefined && !folders.has(id);) {
      folders.add(id);
      const folder = settledById.get(id);
      id = folder === undefined ? undefined : parentIdOf(folder);
    }
  };
  for (let at = 0; at < items.length; at++) {
    if (state[at] !== CHANGED) continue;
    const item = items[at] as ReconciledItem;
    climb(item.index?.parentRemoteId);
    climb(item.remote?.parentId);
    if (item.local) {
      const parent = parentPath(item.local.path);
      if (parent !== '') climb(settledIdByLocalPath.get(nameKey(parent)));
    }
  }
  // In the reconciler's order, which the plan keeps among operations of one phase and depth.
  const planned: ReconciledItem[] = [];
  const recorded: ReconciledItem[] = [];
  for (let at = 0; at < items.length; at++) {
    const item = items[at] as ReconciledItem;
    if (state[at] === CHANGED || folders.has(idOf(item)) || folders.has(parentIdOf(item))) planned.push(item);
    else if (adoptedAt(at)) recorded.push(item);
  }
  return { planned, recorded };
}
