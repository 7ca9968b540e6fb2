// The planner: a pure function from the reconciled state of a pass to the operations that sync it.
import { assertNever } from '../../../common/errors.ts';
import { indexUpdate, type Operation } from './operations.ts';
import { decide } from './planner-decide.ts';
import { emitOperations } from './planner-emit.ts';
import { itemsToPlan } from './planner-scope.ts';
import { PlanTree } from './planner-tree.ts';
import type { RelativePath } from '../../model/items.ts';
import type { ReconciledItem } from './reconcile.ts';

export interface DeleteGuard {
  /** A side's deletes are held only when there are more than this many... */
  maxItems: number;
  /** ...and they are more than this fraction (0-1) of that side's items. */
  maxFraction: number;
}

export const DEFAULT_DELETE_GUARD: DeleteGuard = { maxItems: 50, maxFraction: 0.3 };

export interface PlanInput {
  items: readonly ReconciledItem[];
  /** The id of the synced remote folder. */
  remoteRootId: string;
  /** For conflicted-copy names; the planner reads no clock. */
  now: Date;
  /** The local folder root does not exist (an unmounted drive): nothing is planned. */
  localRootMissing: boolean;
  /** The local file system treats names that differ only in case as one. */
  caseInsensitive: boolean;
  deleteGuard?: DeleteGuard;
  /**
   * Items deleted on each side by the passes just before this one (delete-run.ts): the guard counts
   * them with this plan's deletes, so a deletion that reaches the engine in parts is held as a whole.
   */
  earlierDeletes?: { local: number; remote: number };
  /**
   * The user confirmed a pass the guard held (`--confirm-deletes`); for an emptied local root, that its
   * items are to be deleted on the device.
   */
  confirmDeletes?: boolean;
  /**
   * The user answered a held delete with restore (`--restore`): an emptied local root is filled again
   * from the device, and a plan the guard would hold undoes its deletes instead (what was deleted here
   * comes back from the device, what was deleted on the device goes up again). Wins over `confirmDeletes`.
   */
  restoreDeletes?: boolean;
  /**
   * The items are the part of the tree around some changed paths (an incremental pass): the guard
   * compares deletes with these totals of the whole tree, and nothing is read as an empty root.
   */
  partOf?: { localTotal: number; remoteTotal: number };
  /**
   * Every item goes through the tree, quiet and adopted ones too (planner-scope.ts leaves them out):
   * what the tests compare those shortcuts with. The operations are the same, bar the order of rows recorded.
   */
  everyItemInTree?: boolean;
}

/** How many items a plan deletes on each side (local = moved to the trash), out of how many. */
export interface DeleteCounts {
  local: number;
  localTotal: number;
  remote: number;
  remoteTotal: number;
}

export type Plan =
  | { status: 'ready'; operations: Operation[]; deletes: DeleteCounts }
  | {
      status: 'held';
      reason: 'mass-delete' | 'local-root-missing' | 'emptied-root';
      operations: Operation[];
      deletes: DeleteCounts;
      /** The paths the held deletes would remove on each side, sorted, at most HELD_PATHS_SHOWN each. */
      deletedPaths: { local: RelativePath[]; remote: RelativePath[] };
      /** The deletes of the passes just before, which the guard counted with these. */
      earlierDeletes: { local: number; remote: number };
    };

/** How many paths of a held delete are kept to show (the counts say how many there are in all). */
export const HELD_PATHS_SHOWN = 500;

export function plan(input: PlanInput): Plan {
  const items = input.items;
  const earlier = input.earlierDeletes ?? { local: 0, remote: 0 };
  const localTotal = input.partOf?.localTotal ?? countOf(items, (item) => item.local !== null);
  const remoteTotal = input.partOf?.remoteTotal ?? countOf(items, (item) => item.remote !== null);
  // An empty root with a non-empty index may be a wiped or unmounted folder as well as the user's own
  // deletes: never read silently either way. Held unless the user chose to delete or to restore.
  const emptied =
    input.partOf === undefined &&
    localTotal === 0 &&
    items.some((item) => item.index !== null && item.index.inode !== null);
  const { planned, recorded } =
    input.everyItemInTree === true
      ? { planned: items, recorded: [] }
      : itemsToPlan(items, input.remoteRootId);
  const guard = input.deleteGuard ?? DEFAULT_DELETE_GUARD;
  // Out of what the side held before the earlier deletes; a plan that deletes nothing on a side is
  // never held for that side's earlier deletes.
  const tooMany = (count: number, before: number, total: number): boolean =>
    count > 0 && count + before > guard.maxItems && count + before > guard.maxFraction * (total + before);
  const massDelete = (counts: DeleteCounts): boolean =>
    tooMany(counts.local, earlier.local, localTotal) || tooMany(counts.remote, earlier.remote, remoteTotal);
  let restore = emptied && input.restoreDeletes === true;
  let { tree, deletes } = treeOf(planned, restore, input, localTotal, remoteTotal);
  // Restore answers a hold: only a plan the guard would hold has its deletes undone (never a later,
  // ordinary pass the answer reached after the hold was gone).
  if (!restore && input.restoreDeletes === true && massDelete(deletes)) {
    restore = true;
    ({ tree, deletes } = treeOf(planned, restore, input, localTotal, remoteTotal));
  }
  const held = (reason: 'mass-delete' | 'local-root-missing' | 'emptied-root'): Plan => ({
    status: 'held',
    reason,
    operations: [],
    deletes,
    deletedPaths: { local: deletedPaths(tree, 'local-trash'), remote: deletedPaths(tree, 'remote-delete') },
    earlierDeletes: earlier,
  });
  if (input.localRootMissing) return held('local-root-missing');
  // Only when it would delete on the device: nothing to ask when the device lost those items too.
  if (emptied && !restore && !input.confirmDeletes && deletes.remote > 0) {
    return held('emptied-root');
  }
  if (!input.confirmDeletes && !restore && massDelete(deletes)) return held('mass-delete');
  const operations = emitOperations(tree, input.remoteRootId);
  const updated = withIndexUpdates(items, operations);
  // Adopted items no other item needed in the tree: recorded as found, as the tree would decide.
  for (const { local, remote } of recorded)
    if (local && remote) updated.push(indexUpdate(null, local, remote));
  return { status: 'ready', operations: updated, deletes };
}

/** The items decided and placed in the plan's tree, and the deletes it makes on each side. */
function treeOf(
  planned: readonly ReconciledItem[],
  restore: boolean,
  input: PlanInput,
  localTotal: number,
  remoteTotal: number,
): { tree: PlanTree; deletes: DeleteCounts } {
  const decided = planned.map((item) => ({ item, decision: decide(item, restore) }));
  const tree = new PlanTree(decided, input);
  const deletes: DeleteCounts = {
    local: tree.nodes.filter((node) => node.decision.action === 'local-trash').length,
    localTotal,
    remote: tree.nodes.filter((node) => node.decision.action === 'remote-delete').length,
    remoteTotal,
  };
  return { tree, deletes };
}

/** Counted, not filtered: an array of a million items is garbage only a full GC frees. */
function countOf(items: readonly ReconciledItem[], holds: (item: ReconciledItem) => boolean): number {
  let count = 0;
  for (const item of items) if (holds(item)) count += 1;
  return count;
}

function deletedPaths(tree: PlanTree, action: 'local-trash' | 'remote-delete'): RelativePath[] {
  const paths = tree.nodes
    .filter((node) => node.decision.action === action)
    .map((node) => node.item.index?.path ?? node.item.local?.path ?? node.item.remote?.path ?? '')
    .sort();
  return paths.slice(0, HELD_PATHS_SHOWN);
}

/**
 * An item that changed on a side but needs no operation (both sides made the same change) still gets
 * its index row moved to the new common base.
 */
function withIndexUpdates(items: readonly ReconciledItem[], operations: Operation[]): Operation[] {
  const touched = new Set<string>();
  // Operations that write the item's whole row; a move only changes its place.
  const written = new Set<string>();
  for (const operation of operations) {
    switch (operation.op) {
      case 'upload-content':
      case 'remote-delete':
      case 'index-update':
      case 'index-remove':
        touched.add(operation.remoteId);
        written.add(operation.remoteId);
        break;
      case 'remote-move':
        touched.add(operation.remoteId);
        break;
      case 'download':
      case 'download-content':
      case 'local-mkdir':
        touched.add(operation.remote.id);
        written.add(operation.remote.id);
        break;
      case 'local-move':
        if (operation.remoteId !== null) touched.add(operation.remoteId);
        break;
      case 'upload':
      case 'remote-create-folder':
        if (operation.replacesRemoteId !== null) touched.add(operation.replacesRemoteId);
        break;
      case 'local-trash':
        break;
      default:
        assertNever(operation, 'operation');
    }
  }
  const updates: Operation[] = [];
  for (const item of items) {
    const { index, local, remote } = item;
    if (!index || !local || !remote || written.has(remote.id)) continue;
    // A folder the device re-created is indexed under its old id: after a move too, the row takes the new one.
    const reCreated = index.remoteId !== remote.id;
    if (touched.has(remote.id) && !reCreated) continue;
    // Unchanged, unless an atomic save gave the same content a new inode the index must learn.
    const unchanged = item.localChange === 'none' && item.remoteChange === 'none';
    if (unchanged && local.inode === index.inode && index.remoteId === remote.id) continue;
    updates.push(indexUpdate(index, local, remote));
  }
  return [...operations, ...updates];
}
