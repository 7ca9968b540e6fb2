// Operations that change existing items on the device: renames and moves, deletes.
import { randomBytes } from 'node:crypto';
import { currentETag, parentId, type ExecutionContext } from './execution-context.ts';
import { codeOf, indexPathIn, replanOn, remoteParentOf, touchParentOf, type Op } from './execute-shared.ts';
import { prepareFolderDelete } from './subtree-check.ts';
import { leftOnDevice } from './trash-rows.ts';
import { baseName } from '../../model/paths.ts';
import { MOVING_PREFIX } from '../../model/names.ts';

/** A temporary name `pass-inputs.ts` reads as "still where the index has it" after a crash. */
function parkingName(): string {
  return `${MOVING_PREFIX}${randomBytes(6).toString('hex')}`;
}

/**
 * A create whose name is still held by an item this plan moves away later (seed 2070: the file
 * `notes` goes into the new folder `notes`, so neither can go first): the holder waits under a
 * temporary name in its folder, and its own move later gives it its final name. False when the holder
 * is not one this plan moves, so the create's conflict stands.
 */
export async function parkHolderOfName(
  context: ExecutionContext,
  folderId: string,
  name: string,
): Promise<boolean> {
  const holder = await context.setup.client.findByName(folderId, name, { signal: context.setup.signal });
  if (holder === undefined || !context.ledger.pendingRemoteMoves.has(holder.id)) return false;
  const ifMatch = currentETag(context, holder.id, holder.eTag);
  const parked = await context.setup.client.patch(
    holder.id,
    { name: parkingName() },
    { ifMatch, signal: context.setup.signal },
  );
  if (parked.eTag !== undefined) context.ledger.eTags.set(holder.id, parked.eTag);
  context.ledger.parkedNames.set(holder.id, holder.name);
  context.ledger.touchedFolders.add(folderId);
  return true;
}

export async function moveRemote(context: ExecutionContext, op: Op<'remote-move'>): Promise<void> {
  // A move that keeps its name still sends it when a create parked the item under a temporary one.
  const unparkName = context.ledger.parkedNames.get(op.remoteId);
  if (op.name === null && unparkName !== undefined) op = { ...op, name: unparkName };
  const toParent = op.parent === null ? null : parentId(context, op.parent, op.toPath);
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  const store = context.setup.index.store;
  const fromParent = context.ledger.movedTo.get(op.remoteId) ?? remoteParentOf(context, op.remoteId);
  // Until the device has answered, the listings of both folders are not known: the next walk asks.
  const touchBoth = (): void => {
    if (fromParent !== undefined) context.ledger.touchedFolders.add(fromParent);
    if (toParent !== null) context.ledger.touchedFolders.add(toParent);
  };
  const intent = store.recordIntent({
    action: 'patch',
    path: op.toPath,
    remoteId: op.remoteId,
    parentRemoteId: toParent,
    detail: { name: op.name, ifMatch },
  });
  let eTag: string | undefined;
  try {
    const answer = await context.setup.client.patch(
      op.remoteId,
      {
        ...(op.name === null ? {} : { name: op.name }),
        ...(toParent === null ? {} : { parentId: toParent }),
      },
      { ifMatch, signal: context.setup.signal },
    );
    eTag = answer.eTag;
  } catch (error) {
    store.completeIntent(intent);
    touchBoth();
    if (codeOf(error) === 'CONFLICT' && (await parkUntilNameIsFree(context, op, toParent, ifMatch))) return;
    // It does not move this round: a rename waiting for its name must not wait for it (seed 41847).
    context.ledger.pendingRemoteMoves.delete(op.remoteId);
    replanOn(error, op.toPath, ['PRECONDITION_FAILED', 'NOT_FOUND', 'CONFLICT']);
  }
  context.ledger.pendingRemoteMoves.delete(op.remoteId);
  // The walk cache learns this move (no listing of both folders next time), unless the device's
  // answer lacks the new eTag or the item went through a temporary name the cache never saw.
  if (eTag === undefined || fromParent === undefined || unparkName !== undefined) touchBoth();
  else {
    const toParentId = toParent ?? fromParent;
    context.ledger.ownMoves.push({
      remoteId: op.remoteId,
      fromParentId: fromParent,
      toParentId,
      name: op.name,
      eTag,
    });
  }
  context.ledger.parkedNames.delete(op.remoteId);
  // Where the device has it now, also after a rename: a parked item's folder is not the index's.
  const finalParent = toParent ?? fromParent;
  if (finalParent !== undefined) context.ledger.movedTo.set(op.remoteId, finalParent);
  store.completeIntent(intent, () => {
    // The new eTag stands for the content the index knows only if the move was based on that version.
    const row = store.get(op.remoteId);
    const sameContent = row !== undefined && row.eTag === ifMatch;
    // Below the new folder's row as the index has it now, not the plan's final path: a folder above may
    // still wait for its own rename under a temporary name (seed 42922: `docs → sub` waited while `sub`
    // went into `docs/Docs`). The name as on disk (the index holds local paths), maybe another NFC/NFD
    // spelling than the device's (seed 34453).
    const path = indexPathIn(context, finalParent, baseName(op.toPath)) ?? op.toPath;
    context.setup.index.move(op.remoteId, path, finalParent ?? null, sameContent ? eTag : undefined);
  });
  if (eTag !== undefined) context.ledger.eTags.set(op.remoteId, eTag);
  if (op.reason !== 'type-change') {
    if (op.parent === null) context.ledger.counts.renamed += 1;
    else context.ledger.counts.moved += 1;
  }
}

/**
 * A rename whose new name is still held by an item this plan moves away later (a swap, a chain): the
 * item waits under a temporary name in its target folder, and the final rename runs after the others.
 */
async function parkUntilNameIsFree(
  context: ExecutionContext,
  op: Op<'remote-move'>,
  toParent: string | null,
  ifMatch: string,
): Promise<boolean> {
  const remote = context.setup.remote.get(op.remoteId);
  const folderId = toParent ?? remote?.parentId;
  const finalName = op.name ?? context.ledger.parkedNames.get(op.remoteId) ?? remote?.name;
  if (folderId === undefined || finalName === undefined) return false;
  const holder = await context.setup.client.findByName(folderId, finalName, { signal: context.setup.signal });
  if (holder === undefined || !context.ledger.pendingRemoteMoves.has(holder.id)) return false;
  const parked = await context.setup.client.patch(
    op.remoteId,
    {
      name: parkingName(),
      ...(toParent === null ? {} : { parentId: toParent }),
    },
    { ifMatch, signal: context.setup.signal },
  );
  if (parked.eTag !== undefined) context.ledger.eTags.set(op.remoteId, parked.eTag);
  const parent = toParent === null ? null : ({ kind: 'existing', remoteId: toParent } as const);
  context.ledger.deferred.push({ ...op, name: finalName, parent, ifMatch: parked.eTag ?? ifMatch });
  return true;
}

export async function deleteRemote(context: ExecutionContext, op: Op<'remote-delete'>): Promise<void> {
  const store = context.setup.index.store;
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  touchParentOf(context, op.remoteId);
  context.ledger.touchedFolders.add(op.remoteId);
  let removed = 0;
  const intent = store.recordIntent({
    action: 'delete',
    path: op.path,
    remoteId: op.remoteId,
    parentRemoteId: null,
    detail: { ifMatch, kind: op.kind },
  });
  try {
    const deleteIfMatch =
      op.kind === 'folder' ? await prepareFolderDelete(context, op.remoteId, op.path, ifMatch) : ifMatch;
    await context.setup.client.delete(op.remoteId, { ifMatch: deleteIfMatch, signal: context.setup.signal });
  } catch (error) {
    // Already gone is what we wanted.
    if (codeOf(error) !== 'NOT_FOUND') {
      store.completeIntent(intent);
      replanOn(error, op.path, ['PRECONDITION_FAILED', 'CONFLICT']);
    }
  }
  context.ledger.pendingRemoteDeletes.delete(op.remoteId);
  store.completeIntent(intent, () => {
    // A folder the device re-created is still indexed under its old id, maybe at another spelling of
    // its path (seed 21173: the row NFC, the new folder NFD). Rows of items that left it stay, parked
    // for the operation that places them.
    const row =
      store.get(op.remoteId) ?? (op.indexRemoteId === undefined ? undefined : store.get(op.indexRemoteId));
    removed = row
      ? context.setup.index.removeTree(row.remoteId, (child) =>
          leftOnDevice(context, child.remoteId, op.remoteId),
        )
      : 0;
  });
  // A folder counts with everything it held (what had left it before is not deleted).
  if (op.reason !== 'type-change') {
    context.ledger.counts.deleted += Math.max(1, removed);
    context.ledger.deletedItems.remote += Math.max(1, removed);
  }
}
