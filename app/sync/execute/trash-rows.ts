// The index rows a delete takes along: the row it is about, and which rows below a folder outlive it.
import type { ExecutionContext } from './execution-context.ts';
import type { Op } from './execute-shared.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';
import type { IndexEntry } from '../../model/items.ts';

/** The index row of the item the trash operation is about: the planner's, else by inode, else at its path. */
export function indexRowOf(context: ExecutionContext, op: Op<'local-trash'>): IndexEntry | undefined {
  const store = context.setup.index.store;
  // The planner's row first: an entry paired by path has a new inode (maybe another row's, reused) and
  // may spell the path otherwise (seed 3680: the row NFD, the new folder NFC).
  const planned = op.indexRemoteId === undefined ? undefined : store.get(op.indexRemoteId);
  return planned ?? store.byInode(op.inode).find((row) => row.kind === op.kind) ?? store.byPath(op.path);
}

/**
 * Whether an item indexed below a folder this pass deletes was elsewhere on the device by then: moved
 * out on the device (seed 20694) or by this pass before the delete.
 */
export function leftOnDevice(context: ExecutionContext, remoteId: string, deletedId: string): boolean {
  let parent = context.ledger.movedTo.get(remoteId) ?? context.setup.remote.get(remoteId)?.parentId;
  for (let depth = 0; parent !== undefined && depth < 4096; depth++) {
    if (parent === deletedId) return false;
    if (parent === context.setup.remoteRootId) return true;
    parent = context.ledger.movedTo.get(parent) ?? context.setup.remote.get(parent)?.parentId;
  }
  return false;
}

/**
 * Read before a local folder goes to the trash: the rows below it whose items left it on both sides, so
 * its removal parks them for their own operation instead. An item moved out the same way on both sides
 * and edited here keeps its row below the folder until its upload writes the row's new place (agreedPlace
 * in execute-edit.ts); removed with the folder's, that upload had no row to write (seed 9570).
 */
export async function leftBothSides(
  context: ExecutionContext,
  row: IndexEntry | undefined,
  op: Op<'local-trash'>,
): Promise<Set<string>> {
  const spared = new Set<string>();
  if (row?.kind !== 'folder') return spared;
  const { index, localRoot } = context.setup;
  for (const below of index.store.below(row.path)) {
    if (!leftOnDevice(context, below.remoteId, row.remoteId)) continue;
    // Still in the folder here (its inode at its place in the folder as it is on disk) goes with it.
    const there = await statOrUndefined(
      localPath(localRoot, `${op.path}${below.path.slice(row.path.length)}`),
    );
    if (there?.ino.toString() !== below.inode) spared.add(below.remoteId);
  }
  return spared;
}
