// Which reconciled items the planner must look at: what changed, plus the folders and names around it.
import { nameKey } from './model.ts';
import { parentPath, type ReconciledItem } from './reconcile.ts';

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

/**
 * The items a plan depends on. A pass where little changed is mostly quiet items, which need no
 * operation; the planner still needs the folders above each changed item (its place in the tree) and
 * the items beside them (the names a conflicted copy or a case clash must not take). Everything else
 * is left out, so a pass over 100,000 unchanged files plans nothing and builds no tree.
 */
export function itemsToPlan(items: readonly ReconciledItem[]): ReconciledItem[] {
  const changed = items.filter((item) => !isQuiet(item));
  if (changed.length === 0) return [];
  if (changed.length === items.length) return [...items];
  // Quiet folders only: the climb below looks up parents, and a parent is a folder. (All quiet items
  // were two maps of a million entries in a pass over a million files that changed one.)
  const quietById = new Map<string, ReconciledItem>();
  const quietIdByLocalPath = new Map<string, string>();
  for (const item of items) {
    if (!isQuiet(item) || item.index === null || item.index.kind !== 'folder') continue;
    quietById.set(item.index.remoteId, item);
    if (item.local) quietIdByLocalPath.set(nameKey(item.local.path), item.index.remoteId);
  }
  // Folder ids around changed items: their parents on every side, and those folders' own parents.
  const folders = new Set<string>();
  const climb = (folderId: string | undefined): void => {
    for (let id = folderId; id !== undefined && !folders.has(id);) {
      folders.add(id);
      id = quietById.get(id)?.index?.parentRemoteId;
    }
  };
  for (const item of changed) {
    climb(item.index?.parentRemoteId);
    climb(item.remote?.parentId);
    if (item.local) {
      const parent = parentPath(item.local.path);
      if (parent !== '') climb(quietIdByLocalPath.get(nameKey(parent)));
    }
  }
  // In the reconciler's order, which the plan keeps among operations of one phase and depth.
  return items.filter((item) => {
    if (!isQuiet(item)) return true;
    const index = item.index;
    return index !== null && (folders.has(index.remoteId) || folders.has(index.parentRemoteId));
  });
}
