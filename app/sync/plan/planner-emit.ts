// Turns planned nodes into operations, in an order the executor can follow one after another.
import { BugError } from '../../../common/errors.ts';
import { nameKey, type LocalEntry, type RelativePath, type RemoteEntry } from '../../model/items.ts';
import { indexUpdate, type Operation, type OperationReason, type RemoteParent } from './operations.ts';
import { LocalMoveQueue, LocalPlaces, PathTracker, type Pending } from './planner-moves.ts';
import { isDeleted, type PlanNode, type PlanTree } from './planner-tree.ts';
import { parentPath } from '../../model/paths.ts';

export function emitOperations(tree: PlanTree, remoteRootId: string): Operation[] {
  const paths = new PathTracker();
  const places = new LocalPlaces(paths);
  const pending: Pending[] = [];
  for (const node of tree.nodes) pending.push(...emitNode(tree, places, node, remoteRootId));
  // Stable sort: within a phase and depth, the reconciler's order is kept.
  const ordered = pending
    .map((entry, position) => ({ entry, position }))
    .sort(
      (a, b) =>
        a.entry.phase - b.entry.phase ||
        (a.entry.phase === 3 || a.entry.phase === 0
          ? b.entry.depth - a.entry.depth
          : a.entry.depth - b.entry.depth) ||
        a.position - b.position,
    );
  const operations: Operation[] = [];
  const emit = (entry: Pending): void => {
    const operation = entry.build(paths);
    if (operation) operations.push(operation);
  };
  const moves = new LocalMoveQueue(paths, emit, operations);
  moves.register(ordered.map(({ entry }) => entry).filter((entry) => entry.localMove));
  for (const { entry } of ordered) {
    if (entry.phase > 1) moves.flush();
    if (entry.localMove || entry.placement) moves.add(entry);
    else emit(entry);
  }
  moves.flush();
  return operations;
}

function depthOf(path: RelativePath): number {
  return path === '' ? 0 : path.split('/').length;
}

/** What the steps of one node's emission share: the node, where it goes, and what it emitted so far. */
interface NodeEmission {
  tree: PlanTree;
  places: LocalPlaces;
  node: PlanNode;
  remoteRootId: string;
  out: Pending[];
}

/**
 * The operations of one node, in the order its steps take them (the sort keeps that order within a
 * phase and depth): the index alone, a conflict's copy, what clears the way, a delete, then what goes
 * up and what comes down.
 */
function emitNode(tree: PlanTree, places: LocalPlaces, node: PlanNode, remoteRootId: string): Pending[] {
  const emission: NodeEmission = { tree, places, node, remoteRootId, out: [] };
  if (emitIndexOnly(emission)) return emission.out;
  if (node.isCopy && node.item.local) {
    emitConflictCopy(emission, node.item.local);
    return emission.out;
  }
  emitClearingTheWay(emission);
  emitDelete(emission);
  if (isDeleted(node)) return emission.out;
  emitPush(emission);
  emitPull(emission);
  return emission.out;
}

function addPending(
  emission: NodeEmission,
  phase: Pending['phase'],
  depth: number,
  build: Pending['build'],
  localMove?: Pending['localMove'],
): void {
  emission.out.push(localMove ? { phase, depth, build, localMove } : { phase, depth, build });
}

function finalPath(emission: NodeEmission): RelativePath {
  return emission.tree.finalPath(emission.node);
}

/** The node's parent on the device: an existing folder, or one this plan makes or moves first. */
function remoteParent(emission: NodeEmission): RemoteParent {
  const parent = emission.node.parent;
  if (!parent) return { kind: 'existing', remoteId: emission.remoteRootId };
  if (parent.isCopy || parent.decision.push === 'create' || parent.remoteId === null) {
    return { kind: 'planned', path: emission.tree.finalPath(parent) };
  }
  return { kind: 'existing', remoteId: parent.remoteId };
}

/** A new remote item from local content: a folder is placed with the folders, a file with the transfers. */
function pushCreate(
  emission: NodeEmission,
  entry: LocalEntry,
  replacesRemoteId: string | null,
  reason: OperationReason,
): void {
  addPending(emission, entry.kind === 'folder' ? 1 : 2, depthOf(finalPath(emission)), () => ({
    op: entry.kind === 'folder' ? 'remote-create-folder' : 'upload',
    path: finalPath(emission),
    name: emission.node.name,
    parent: remoteParent(emission),
    local: entry,
    replacesRemoteId,
    reason,
  }));
}

/** A node decided for the index alone: its row removed or updated. Returns whether that was all. */
function emitIndexOnly(emission: NodeEmission): boolean {
  const { decision, item } = emission.node;
  const { local, remote, index } = item;
  if (decision.action === 'index-remove' && index) {
    addPending(emission, 4, 0, () => ({ op: 'index-remove', remoteId: index.remoteId, index }));
    return true;
  }
  if (decision.action === 'index-update') {
    if (local && remote) addPending(emission, 4, 0, () => indexUpdate(index, local, remote));
    return true;
  }
  return false;
}

/**
 * The aside move happened in phase 0 (emitted by the original node); now upload the copy. When the
 * device's side is another item (its type changed there), the row's remote item is gone and the row's
 * local item is this copy: the copy takes the row over, else it stays behind (seed 5533).
 */
function emitConflictCopy(emission: NodeEmission, local: LocalEntry): void {
  const { index, remote } = emission.node.item;
  const orphanedRow = index !== null && remote !== null && index.remoteId !== remote.id;
  pushCreate(emission, local, orphanedRow ? index.remoteId : null, 'conflict');
}

/** Phase 0: a conflict's local item moved aside, and the old side of a type change cleared. */
function emitClearingTheWay(emission: NodeEmission): void {
  const { tree, node } = emission;
  const { item, decision } = node;
  const { local, remote, index } = item;
  if (decision.action === 'conflict' && local) {
    const copy = tree.nodes.find((other) => other.isCopy && other.item === item);
    addPending(emission, 0, depthOf(local.path), (paths) => {
      const from = paths.current(local.path);
      const parent = parentPath(from);
      const to = parent === '' ? (copy?.name ?? '') : `${parent}/${copy?.name ?? ''}`;
      paths.moved(from, to);
      return {
        op: 'local-move',
        fromPath: from,
        toPath: to,
        inode: local.inode,
        remoteId: null,
        reason: 'conflict',
      };
    });
  }
  if (decision.clearRemote && index) {
    // The device's item at the row's place: a folder it made again there has another id (seed 25712).
    const cleared = remote ?? index;
    const clearedId = remote?.id ?? index.remoteId;
    addPending(emission, 0, depthOf(index.path), () => ({
      op: 'remote-delete',
      remoteId: clearedId,
      ifMatch: cleared.eTag,
      path: index.path,
      kind: cleared.kind,
      reason: 'type-change',
      ...(clearedId === index.remoteId ? {} : { indexRemoteId: index.remoteId }),
    }));
  }
  if (decision.clearLocal && local) {
    addPending(emission, 0, depthOf(local.path), (paths) => ({
      op: 'local-trash',
      path: paths.current(local.path),
      inode: local.inode,
      kind: local.kind,
      reason: 'type-change',
      ...(index === null ? {} : { indexRemoteId: index.remoteId }),
    }));
  }
}

/** Phase 3: a delete on one side, unless a folder above it is deleted there too and takes it along. */
function emitDelete(emission: NodeEmission): void {
  const { tree, node } = emission;
  const { decision } = node;
  const { local, remote, index } = node.item;
  if (decision.action === 'local-trash' && local) {
    const parent = tree.nodeAtLocalPath(parentPath(local.path));
    // A trashed folder takes its children with it (also the old folder of a type change).
    if (!(parent && (parent.decision.action === 'local-trash' || parent.decision.clearLocal))) {
      addPending(emission, 3, depthOf(local.path), (paths) => ({
        op: 'local-trash',
        path: paths.current(local.path),
        inode: local.inode,
        kind: local.kind,
        reason: 'sync',
        ...(index === null ? {} : { indexRemoteId: index.remoteId }),
      }));
    }
    return;
  }
  if (decision.action === 'remote-delete' && remote) {
    const parent = tree.nodeWithRemoteId(remote.parentId);
    // device-api.md §3: one DELETE removes a folder with everything in it.
    if (!(parent && (parent.decision.action === 'remote-delete' || parent.decision.clearRemote))) {
      addPending(emission, 3, depthOf(remote.path), () => ({
        op: 'remote-delete',
        remoteId: remote.id,
        ifMatch: remote.eTag,
        path: remote.path,
        kind: remote.kind,
        reason: 'sync',
        ...(index !== null && index.remoteId !== remote.id ? { indexRemoteId: index.remoteId } : {}),
      }));
    }
  }
}

/** What goes up: a new item, new content, and a remote move or rename to the item's final place. */
function emitPush(emission: NodeEmission): void {
  const { tree, node } = emission;
  const { decision } = node;
  const { local, remote, index } = node.item;
  if (decision.push === 'create' && local) {
    pushCreate(emission, local, index?.remoteId ?? null, decision.reason);
  }
  if (decision.push === 'content' && local && remote) {
    addPending(emission, 2, depthOf(finalPath(emission)), () => ({
      op: 'upload-content',
      path: finalPath(emission),
      remoteId: remote.id,
      ifMatch: remote.eTag,
      local,
      reason: decision.reason,
    }));
  }
  // A remote item left under a temporary name goes to its place even when neither side moved it.
  if ((decision.pushMove || node.clashName !== null || remote?.parkedAs !== undefined) && remote) {
    addPending(emission, 1, depthOf(finalPath(emission)), () =>
      remoteMove(tree, node, remoteParent(emission)),
    );
  }
}

/** What comes down: a new item, the row it replaces, new content, and a local move to its place. */
function emitPull(emission: NodeEmission): void {
  const { decision } = emission.node;
  const { local, remote, index } = emission.node.item;
  if (decision.pull === 'create' && remote) pullCreate(emission, remote);
  // The device's item replaced the row's (a type change there, paired by path): no operation on it
  // writes the old row, which would stay wherever the new item lands under another name (a case
  // clash, seeds 2360 and 6431). A conflict's copy takes the row over; a cleared local item takes it away.
  if (
    decision.pull === 'create' &&
    remote &&
    index &&
    index.remoteId !== remote.id &&
    decision.action !== 'conflict' &&
    !decision.clearLocal
  ) {
    addPending(emission, 4, 0, () => ({ op: 'index-remove', remoteId: index.remoteId, index }));
  }
  if (decision.pull === 'content' && local && remote) {
    addPending(emission, 2, depthOf(finalPath(emission)), () => ({
      op: 'download-content',
      path: finalPath(emission),
      remote,
      expected: local,
      reason: decision.reason,
    }));
  }
  if (decision.pullMove && local && decision.pull !== 'create') pullMove(emission, local);
}

/** A new item from the device: a folder is made where its parent is by then, a file is downloaded. */
function pullCreate(emission: NodeEmission, remote: RemoteEntry): void {
  const { places, node } = emission;
  const reason = node.decision.reason;
  if (remote.kind === 'folder') {
    const target = (): RelativePath | undefined => places.target(node);
    emission.out.push({
      phase: 1,
      depth: depthOf(finalPath(emission)),
      build: () => {
        const path = placedTarget(places, node);
        places.madeAt(node, path);
        return { op: 'local-mkdir', path, remote, reason };
      },
      placement: { target },
    });
  } else {
    addPending(emission, 2, depthOf(finalPath(emission)), () => ({
      op: 'download',
      path: finalPath(emission),
      remote,
      reason,
    }));
  }
}

/** A local item moved to where the device has it, from wherever earlier moves of the plan left it. */
function pullMove(emission: NodeEmission, local: LocalEntry): void {
  const { places, node } = emission;
  const { remote } = node.item;
  const { reason } = node.decision;
  addPending(
    emission,
    1,
    depthOf(finalPath(emission)),
    (paths) => {
      const from = paths.current(local.path);
      const to = placedTarget(places, node);
      if (from === to) return null;
      paths.moved(from, to);
      return {
        op: 'local-move',
        fromPath: from,
        toPath: to,
        inode: local.inode,
        remoteId: remote?.id ?? null,
        reason,
      };
    },
    { source: local.path, target: () => places.target(node), inode: local.inode },
  );
}

/** The local move queue emits a placement only once its parent is on disk, so there is a target. */
function placedTarget(places: LocalPlaces, node: PlanNode): RelativePath {
  const target = places.target(node);
  if (target === undefined) throw new BugError('a local item was placed before its parent');
  return target;
}

/** One PATCH: only the name and/or the parent that differ from what the device has. */
function remoteMove(tree: PlanTree, node: PlanNode, parent: RemoteParent): Operation | null {
  const remote = node.item.remote;
  if (!remote) return null;
  // Compared with where the device really has it: a parked item's entry says where the index has it.
  const current = remote.parkedAs ?? remote;
  const name = nameKey(node.name) === nameKey(current.name) ? null : node.name;
  const currentParent = current.parentId;
  const sameParent = parent.kind === 'existing' && parent.remoteId === currentParent;
  if (name === null && sameParent) return null;
  return {
    op: 'remote-move',
    remoteId: remote.id,
    ifMatch: remote.eTag,
    fromPath: remote.path,
    toPath: tree.finalPath(node),
    name,
    parent: sameParent ? null : parent,
    reason: node.clashName !== null ? 'case-clash' : node.decision.reason,
  };
}
