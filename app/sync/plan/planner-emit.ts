// Turns planned nodes into operations, in an order the executor can follow one after another.
import { BugError } from '../../../common/errors.ts';
import { nameKey, type LocalEntry, type RelativePath } from '../../model/items.ts';
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

function emitNode(tree: PlanTree, places: LocalPlaces, node: PlanNode, remoteRootId: string): Pending[] {
  const { item, decision } = node;
  const { local, remote, index } = item;
  const out: Pending[] = [];
  const finalPath = (): RelativePath => tree.finalPath(node);
  const at = (
    phase: Pending['phase'],
    depth: number,
    build: Pending['build'],
    localMove?: Pending['localMove'],
  ): void => {
    out.push(localMove ? { phase, depth, build, localMove } : { phase, depth, build });
  };
  const remoteParent = (): RemoteParent => {
    const parent = node.parent;
    if (!parent) return { kind: 'existing', remoteId: remoteRootId };
    if (parent.isCopy || parent.decision.push === 'create' || parent.remoteId === null) {
      return { kind: 'planned', path: tree.finalPath(parent) };
    }
    return { kind: 'existing', remoteId: parent.remoteId };
  };
  // A new remote item from local content: a folder is placed with the folders, a file with the transfers.
  const pushCreate = (entry: LocalEntry, replacesRemoteId: string | null, reason: OperationReason): void => {
    at(entry.kind === 'folder' ? 1 : 2, depthOf(finalPath()), () => ({
      op: entry.kind === 'folder' ? 'remote-create-folder' : 'upload',
      path: finalPath(),
      name: node.name,
      parent: remoteParent(),
      local: entry,
      replacesRemoteId,
      reason,
    }));
  };

  if (decision.action === 'index-remove' && index) {
    at(4, 0, () => ({ op: 'index-remove', remoteId: index.remoteId, index }));
    return out;
  }
  if (decision.action === 'index-update') {
    if (local && remote) at(4, 0, () => indexUpdate(index, local, remote));
    return out;
  }

  if (node.isCopy && local) {
    // The aside move happened in phase 0 (emitted by the original node); now upload the copy. When the
    // device's side is another item (its type changed there), the row's remote item is gone and the
    // row's local item is this copy: the copy takes the row over, else it stays behind (seed 5533).
    const orphanedRow = index !== null && remote !== null && index.remoteId !== remote.id;
    pushCreate(local, orphanedRow ? index.remoteId : null, 'conflict');
    return out;
  }

  if (decision.action === 'conflict' && local) {
    const copy = tree.nodes.find((other) => other.isCopy && other.item === item);
    at(0, depthOf(local.path), (paths) => {
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
    at(0, depthOf(index.path), () => ({
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
    at(0, depthOf(local.path), (paths) => ({
      op: 'local-trash',
      path: paths.current(local.path),
      inode: local.inode,
      kind: local.kind,
      reason: 'type-change',
    }));
  }

  if (decision.action === 'local-trash' && local) {
    const parent = tree.nodeAtLocalPath(parentPath(local.path));
    // A trashed folder takes its children with it (also the old folder of a type change).
    if (!(parent && (parent.decision.action === 'local-trash' || parent.decision.clearLocal))) {
      at(3, depthOf(local.path), (paths) => ({
        op: 'local-trash',
        path: paths.current(local.path),
        inode: local.inode,
        kind: local.kind,
        reason: 'sync',
      }));
    }
    return out;
  }
  if (decision.action === 'remote-delete' && remote) {
    const parent = tree.nodeWithRemoteId(remote.parentId);
    // device-api.md §3: one DELETE removes a folder with everything in it.
    if (!(parent && (parent.decision.action === 'remote-delete' || parent.decision.clearRemote))) {
      at(3, depthOf(remote.path), () => ({
        op: 'remote-delete',
        remoteId: remote.id,
        ifMatch: remote.eTag,
        path: remote.path,
        kind: remote.kind,
        reason: 'sync',
        ...(index !== null && index.remoteId !== remote.id ? { indexRemoteId: index.remoteId } : {}),
      }));
    }
    return out;
  }
  if (isDeleted(node)) return out;

  if (decision.push === 'create' && local) {
    pushCreate(local, index?.remoteId ?? null, decision.reason);
  }
  if (decision.push === 'content' && local && remote) {
    at(2, depthOf(finalPath()), () => ({
      op: 'upload-content',
      path: finalPath(),
      remoteId: remote.id,
      ifMatch: remote.eTag,
      local,
      reason: decision.reason,
    }));
  }
  // A remote item left under a temporary name goes to its place even when neither side moved it.
  if ((decision.pushMove || node.clashName !== null || remote?.parkedAs !== undefined) && remote) {
    at(1, depthOf(finalPath()), () => remoteMove(tree, node, remoteParent()));
  }
  if (decision.pull === 'create' && remote) {
    if (remote.kind === 'folder') {
      const target = (): RelativePath | undefined => places.target(node);
      out.push({
        phase: 1,
        depth: depthOf(finalPath()),
        build: () => {
          const path = placedTarget(places, node);
          places.madeAt(node, path);
          return { op: 'local-mkdir', path, remote, reason: decision.reason };
        },
        placement: { target },
      });
    } else {
      at(2, depthOf(finalPath()), () => ({
        op: 'download',
        path: finalPath(),
        remote,
        reason: decision.reason,
      }));
    }
  }
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
    at(4, 0, () => ({ op: 'index-remove', remoteId: index.remoteId, index }));
  }
  if (decision.pull === 'content' && local && remote) {
    at(2, depthOf(finalPath()), () => ({
      op: 'download-content',
      path: finalPath(),
      remote,
      expected: local,
      reason: decision.reason,
    }));
  }
  if (decision.pullMove && local && decision.pull !== 'create') {
    at(
      1,
      depthOf(finalPath()),
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
          reason: decision.reason,
        };
      },
      { source: local.path, target: () => places.target(node), inode: local.inode },
    );
  }
  return out;
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
