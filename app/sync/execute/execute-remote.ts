// Operations that change existing items on the device: content edits, renames and moves, deletes.
import { randomBytes } from 'node:crypto';
import { countTransfer, currentETag, parentId, type ExecutionContext } from './execution-context.ts';
import {
  changedWhileSent,
  codeOf,
  indexPathIn,
  localDetail,
  readToSend,
  replanOn,
  remoteParentOf,
  touchParentOf,
  transferProgress,
  unchangedLocal,
  type Op,
} from './execute-shared.ts';
import { MAX_EDIT_CHECK_BYTES, remoteHash } from '../recovery/intent-recovery.ts';
import { prepareFolderDelete } from './subtree-check.ts';
import { msOfNs, nameKey, type IndexEntry, type RelativePath } from '../../model/items.ts';
import { baseName } from '../plan/reconcile.ts';
import { MOVING_PREFIX } from '../local/local-names.ts';

export async function uploadContent(context: ExecutionContext, op: Op<'upload-content'>): Promise<void> {
  const absolute = await unchangedLocal(context, op.path, op.local);
  const store = context.index.store;
  const row = store.get(op.remoteId);
  const { content, contentHash } = await readToSend(context, op.path, absolute, op.local);
  const mTimeMs = msOfNs(op.local.mtimeNs);
  const recordLocal = (eTag: string | null): void => {
    if (!row) return;
    context.index.place({
      ...row,
      ...agreedPlace(context, op.remoteId, op.path),
      ...(eTag === null ? {} : { eTag, size: op.local.size, mTimeMs }),
      inode: op.local.inode,
      localSize: op.local.size,
      localMtimeNs: op.local.mtimeNs,
      contentHash,
    });
  };
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  // Touched but not changed (same bytes as both sides last agreed on): nothing to send but the time.
  if (row?.contentHash === contentHash && row.size === op.local.size) {
    if (row.mTimeMs !== mTimeMs) {
      // interface.md "POST /v2/files/:id/patch": mTime alone, guarded like any write. A crash before the
      // index is written leaves both sides at the same size and time: the next round only records it.
      touchParentOf(context, op.remoteId);
      try {
        const patched = await context.client.patch(
          op.remoteId,
          { mTimeMs },
          { ifMatch, signal: context.signal },
        );
        context.eTags.set(op.remoteId, patched.eTag ?? ifMatch);
        recordLocal(patched.eTag ?? null);
      } catch (error) {
        replanOn(error, op.path, ['PRECONDITION_FAILED', 'NOT_FOUND']);
      }
      context.counts.timesUpdated += 1;
      return;
    }
    recordLocal(null);
    return;
  }
  touchParentOf(context, op.remoteId);
  const intent = store.recordIntent({
    action: 'edit',
    path: op.path,
    remoteId: op.remoteId,
    parentRemoteId: null,
    detail: { ...localDetail(op.local), mTimeMs, contentHash, ifMatch },
  });
  let eTag: string;
  try {
    const put = await context.client.putContent(op.remoteId, content, {
      ifMatch,
      signal: context.signal,
      onProgress: transferProgress(context, op.path, 'up', op.local.size),
    });
    eTag = put.eTag ?? '';
  } catch (error) {
    // A PUT whose answer was lost (or a retry of it, meeting its own new version) may have taken
    // effect: recognise the device's version by its content, or look at the item again.
    const unsure = codeOf(error) === 'PRECONDITION_FAILED' || codeOf(error) === 'OUTCOME_UNKNOWN';
    const own = unsure ? await ownVersion(context, op, contentHash) : undefined;
    if (own === undefined) {
      store.completeIntent(intent);
      // Changed while sent: the PUT was cut off before its last bytes, so the device kept its version.
      replanOn(changedWhileSent(error, op.path), op.path, [
        'PRECONDITION_FAILED',
        'NOT_FOUND',
        'OUTCOME_UNKNOWN',
      ]);
    }
    eTag = own;
  }
  // A PUT stamps the device's clock; the file's own time goes back on so the edit does not echo.
  try {
    const patched = await context.client.patch(
      op.remoteId,
      { mTimeMs },
      { ifMatch: eTag, signal: context.signal },
    );
    eTag = patched.eTag ?? eTag;
  } catch (error) {
    if (codeOf(error) !== 'PRECONDITION_FAILED' && codeOf(error) !== 'NOT_FOUND') throw error;
  }
  store.completeIntent(intent, () => recordLocal(eTag));
  context.eTags.set(op.remoteId, eTag);
  countTransfer(context, 'uploaded', op.remoteId);
  context.counts.bytesUp += op.local.size;
}

/**
 * Where the row of an uploaded item goes when both sides hold it at `path` and the row is elsewhere:
 * both moved it to the same place (seed 29859), so no move of this plan wrote the row's place, and the
 * planner left out the index-update that would have, because this operation writes the row. Undefined
 * (the row keeps its place) when the row is there already, or when the device's item is not at `path`
 * (a move of it failed): the next round must still see that move.
 */
function agreedPlace(
  context: ExecutionContext,
  remoteId: string,
  path: RelativePath,
): Pick<IndexEntry, 'path' | 'name' | 'parentRemoteId'> | undefined {
  const store = context.index.store;
  const row = store.get(remoteId);
  const remote = context.remote.get(remoteId);
  if (!row || !remote || nameKey(row.path) === nameKey(path)) return undefined;
  // The device's item is where the walk saw it, or in the folder a move of this pass put it in.
  const parentRemoteId = context.movedTo.get(remoteId) ?? remote.parentId;
  const remotePath = indexPathIn(context, parentRemoteId, remote.name);
  if (remotePath === undefined || nameKey(remotePath) !== nameKey(path)) return undefined;
  return { path, name: baseName(path), parentRemoteId };
}

/** The eTag of the device's version when its content is exactly `contentHash` (small files only). */
async function ownVersion(
  context: ExecutionContext,
  op: Op<'upload-content'>,
  contentHash: string,
): Promise<string | undefined> {
  if (op.local.size > MAX_EDIT_CHECK_BYTES) return undefined;
  const file = await context.client.getFile(op.remoteId, { signal: context.signal });
  if (file.isFolder || file.size !== op.local.size) return undefined;
  return (await remoteHash(context, file)) === contentHash ? file.eTag : undefined;
}

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
  const holder = await context.client.findByName(folderId, name, { signal: context.signal });
  if (holder === undefined || !context.pendingRemoteMoves.has(holder.id)) return false;
  const ifMatch = currentETag(context, holder.id, holder.eTag);
  const parked = await context.client.patch(
    holder.id,
    { name: parkingName() },
    { ifMatch, signal: context.signal },
  );
  if (parked.eTag !== undefined) context.eTags.set(holder.id, parked.eTag);
  context.parkedNames.set(holder.id, holder.name);
  context.touchedFolders.add(folderId);
  return true;
}

export async function moveRemote(context: ExecutionContext, op: Op<'remote-move'>): Promise<void> {
  // A move that keeps its name still sends it when a create parked the item under a temporary one.
  const unparkName = context.parkedNames.get(op.remoteId);
  if (op.name === null && unparkName !== undefined) op = { ...op, name: unparkName };
  const toParent = op.parent === null ? null : parentId(context, op.parent, op.toPath);
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  const store = context.index.store;
  const fromParent = context.movedTo.get(op.remoteId) ?? remoteParentOf(context, op.remoteId);
  // Until the device has answered, the listings of both folders are not known: the next walk asks.
  const touchBoth = (): void => {
    if (fromParent !== undefined) context.touchedFolders.add(fromParent);
    if (toParent !== null) context.touchedFolders.add(toParent);
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
    const answer = await context.client.patch(
      op.remoteId,
      {
        ...(op.name === null ? {} : { name: op.name }),
        ...(toParent === null ? {} : { parentId: toParent }),
      },
      { ifMatch, signal: context.signal },
    );
    eTag = answer.eTag;
  } catch (error) {
    store.completeIntent(intent);
    touchBoth();
    if (codeOf(error) === 'CONFLICT' && (await parkUntilNameIsFree(context, op, toParent, ifMatch))) return;
    // It does not move this round: a rename waiting for its name must not wait for it (seed 41847).
    context.pendingRemoteMoves.delete(op.remoteId);
    replanOn(error, op.toPath, ['PRECONDITION_FAILED', 'NOT_FOUND', 'CONFLICT']);
  }
  context.pendingRemoteMoves.delete(op.remoteId);
  // The walk cache learns this move (no listing of both folders next time), unless the device's
  // answer lacks the new eTag or the item went through a temporary name the cache never saw.
  if (eTag === undefined || fromParent === undefined || unparkName !== undefined) touchBoth();
  else {
    const toParentId = toParent ?? fromParent;
    context.ownMoves.push({
      remoteId: op.remoteId,
      fromParentId: fromParent,
      toParentId,
      name: op.name,
      eTag,
    });
  }
  context.parkedNames.delete(op.remoteId);
  // Where the device has it now, also after a rename: a parked item's folder is not the index's.
  const finalParent = toParent ?? fromParent;
  if (finalParent !== undefined) context.movedTo.set(op.remoteId, finalParent);
  store.completeIntent(intent, () => {
    // The new eTag stands for the content the index knows only if the move was based on that version.
    const row = store.get(op.remoteId);
    const sameContent = row !== undefined && row.eTag === ifMatch;
    // Below the new folder's row as the index has it now, not the plan's final path: a folder above may
    // still wait for its own rename under a temporary name (seed 42922: `docs → sub` waited while `sub`
    // went into `docs/Docs`). The name as on disk (the index holds local paths), maybe another NFC/NFD
    // spelling than the device's (seed 34453).
    const path = indexPathIn(context, finalParent, baseName(op.toPath)) ?? op.toPath;
    context.index.move(op.remoteId, path, finalParent ?? null, sameContent ? eTag : undefined);
  });
  if (eTag !== undefined) context.eTags.set(op.remoteId, eTag);
  if (op.reason !== 'type-change') {
    if (op.parent === null) context.counts.renamed += 1;
    else context.counts.moved += 1;
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
  const remote = context.remote.get(op.remoteId);
  const folderId = toParent ?? remote?.parentId;
  const finalName = op.name ?? context.parkedNames.get(op.remoteId) ?? remote?.name;
  if (folderId === undefined || finalName === undefined) return false;
  const holder = await context.client.findByName(folderId, finalName, { signal: context.signal });
  if (holder === undefined || !context.pendingRemoteMoves.has(holder.id)) return false;
  const parked = await context.client.patch(
    op.remoteId,
    {
      name: parkingName(),
      ...(toParent === null ? {} : { parentId: toParent }),
    },
    { ifMatch, signal: context.signal },
  );
  if (parked.eTag !== undefined) context.eTags.set(op.remoteId, parked.eTag);
  const parent = toParent === null ? null : ({ kind: 'existing', remoteId: toParent } as const);
  context.deferred.push({ ...op, name: finalName, parent, ifMatch: parked.eTag ?? ifMatch });
  return true;
}

export async function deleteRemote(context: ExecutionContext, op: Op<'remote-delete'>): Promise<void> {
  const store = context.index.store;
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  touchParentOf(context, op.remoteId);
  context.touchedFolders.add(op.remoteId);
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
    await context.client.delete(op.remoteId, { ifMatch: deleteIfMatch, signal: context.signal });
  } catch (error) {
    // Already gone is what we wanted.
    if (codeOf(error) !== 'NOT_FOUND') {
      store.completeIntent(intent);
      replanOn(error, op.path, ['PRECONDITION_FAILED', 'CONFLICT']);
    }
  }
  context.pendingRemoteDeletes.delete(op.remoteId);
  store.completeIntent(intent, () => {
    // A folder the device re-created is still indexed under its old id, maybe at another spelling of
    // its path (seed 21173: the row NFC, the new folder NFD).
    const row =
      store.get(op.remoteId) ?? (op.indexRemoteId === undefined ? undefined : store.get(op.indexRemoteId));
    removed = row
      ? context.index.removeTree(row.remoteId, (child) =>
          survivesDelete(context, child.remoteId, op.remoteId),
        )
      : 0;
  });
  // A folder counts with everything it held (what had left it before is not deleted).
  if (op.reason !== 'type-change') {
    context.counts.deleted += Math.max(1, removed);
    context.deletedItems.remote += Math.max(1, removed);
  }
}

/**
 * Whether an item indexed below a folder this pass deleted on the device was elsewhere on the device
 * by then: moved out on the device (seed 20694) or by this pass before the delete. Its row stays (parked)
 * for the operation that places it.
 */
function survivesDelete(context: ExecutionContext, remoteId: string, deletedId: string): boolean {
  let parent = context.movedTo.get(remoteId) ?? context.remote.get(remoteId)?.parentId;
  for (let depth = 0; parent !== undefined && depth < 4096; depth++) {
    if (parent === deletedId) return false;
    if (parent === context.remoteRootId) return true;
    parent = context.movedTo.get(parent) ?? context.remote.get(parent)?.parentId;
  }
  return false;
}
