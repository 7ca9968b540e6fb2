// Operations that create items on the device: folders and uploads, each settled by name when its answer is lost.
import type { RemoteFile } from '../../api/device-client.ts';
import { countTransfer, parentId, type ExecutionContext } from './execution-context.ts';
import {
  changedWhileSent,
  codeOf,
  existingMatch,
  indexPathIn,
  localDetail,
  readToSend,
  replanOn,
  transferProgress,
  unchangedLocal,
  type Op,
} from './execute-shared.ts';
import { parkHolderOfName } from './execute-remote.ts';
import { msOfNs, nameKey, type IndexEntry } from '../../model/items.ts';

type CreateOp = Op<'remote-create-folder'> | Op<'upload'>;

/**
 * Sends a create. A lost answer (OUTCOME_UNKNOWN), or for a folder a name taken meanwhile (CONFLICT),
 * is settled by looking the name up: an item that `isOurs` is the one meant; anything else re-plans.
 */
async function createOnce(
  context: ExecutionContext,
  op: CreateOp,
  folderId: string,
  intent: number,
  send: () => Promise<{ id: string; eTag: string | undefined }>,
  isOurs: (file: RemoteFile) => boolean,
): Promise<{ id: string; eTag: string }> {
  try {
    const created = await send();
    return { id: created.id, eTag: created.eTag ?? '' };
  } catch (error) {
    const code = codeOf(error);
    // The name is held by an item this plan moves away later (maybe into this very folder): that item
    // waits under a temporary name and the create goes again, once.
    if (code === 'CONFLICT' && (await parkHolderOfName(context, folderId, op.name))) {
      const created = await sendAgain(context, op, intent, send);
      return { id: created.id, eTag: created.eTag ?? '' };
    }
    // A folder of that name made meanwhile (by another client) is the same folder; a file is not. One
    // this plan deletes later is not (seed 31391): the create waits for the next round.
    const settles = code === 'OUTCOME_UNKNOWN' || (code === 'CONFLICT' && op.op === 'remote-create-folder');
    const found = settles
      ? await existingMatch(
          context,
          folderId,
          op.name,
          (file) => isOurs(file) && !context.ledger.pendingRemoteDeletes.has(file.id),
        )
      : undefined;
    if (!found) {
      context.setup.index.store.completeIntent(intent);
      replanOn(error, op.path, ['CONFLICT', 'NOT_FOUND']);
    }
    return { id: found.id, eTag: found.eTag };
  }
}

/** The second try of a create after its name was freed; any error now means "look again". */
async function sendAgain(
  context: ExecutionContext,
  op: CreateOp,
  intent: number,
  send: () => Promise<{ id: string; eTag: string | undefined }>,
): Promise<{ id: string; eTag: string | undefined }> {
  try {
    return await send();
  } catch (error) {
    context.setup.index.store.completeIntent(intent);
    replanOn(error, op.path, ['CONFLICT', 'NOT_FOUND', 'OUTCOME_UNKNOWN']);
  }
}

/**
 * Records a created item (taking over the row it replaces) and drops its intent, in one transaction:
 * a folder's at once (what follows may go into it), an upload's with a batch of others (index-batches.ts)
 * once `release` let the next transfer start; without `release`, the batch goes at once.
 */
async function recordCreated(
  context: ExecutionContext,
  op: CreateOp,
  intent: number,
  created: { id: string; eTag: string; parentId: string },
  contentHash: string | null,
  release?: () => void,
): Promise<void> {
  const isFile = op.op === 'upload';
  // Below its folder's row as the index has it now, not at the plan's local path: a move of that
  // folder may have failed this round (soak seed 2382: its 412 left the row at the old place), and a
  // row outside its folder's subtree is left behind when the folder's row moves later.
  const path = indexPathIn(context, created.parentId, op.name) ?? op.path;
  const entry: IndexEntry = {
    remoteId: created.id,
    parentRemoteId: created.parentId,
    path,
    name: op.name,
    kind: isFile ? 'file' : 'folder',
    eTag: created.eTag,
    size: isFile ? op.local.size : 0,
    mTimeMs: msOfNs(op.local.mtimeNs),
    inode: op.local.inode,
    localSize: isFile ? op.local.size : 0,
    localMtimeNs: op.local.mtimeNs,
    contentHash,
  };
  const write = (): void =>
    context.setup.index.store.completeIntent(intent, () => {
      if (op.replacesRemoteId === null) context.setup.index.place(entry);
      else context.setup.index.replace(op.replacesRemoteId, entry);
    });
  if (!isFile) {
    write();
    return;
  }
  const rows = context.ledger.createdRows;
  const written = rows.write(write);
  context.ledger.transferEnded(op.path);
  if (release === undefined) rows.flush();
  else release();
  await written;
}

export async function createRemoteFolder(
  context: ExecutionContext,
  op: Op<'remote-create-folder'>,
): Promise<void> {
  const folderId = parentId(context, op.parent, op.path);
  await unchangedLocal(context, op.path, op.local);
  context.ledger.touchedFolders.add(folderId);
  const intent = context.setup.index.store.recordIntent({
    action: 'create-folder',
    path: op.path,
    remoteId: null,
    parentRemoteId: folderId,
    detail: { name: op.name, inode: op.local.inode, localMtimeNs: op.local.mtimeNs.toString() },
  });
  const send = (): Promise<{ id: string; eTag: string | undefined }> =>
    context.setup.client.createFolder({
      parentId: folderId,
      name: op.name,
      mTimeMs: msOfNs(op.local.mtimeNs),
      signal: context.setup.signal,
    });
  const created = await createOnce(context, op, folderId, intent, send, (file) => file.isFolder);
  await recordCreated(context, op, intent, { ...created, parentId: folderId }, null);
  context.ledger.createdFolders.set(nameKey(op.path), created.id);
  context.ledger.counts.foldersCreated += 1;
}

export async function upload(
  context: ExecutionContext,
  op: Op<'upload'>,
  release?: () => void,
): Promise<void> {
  const folderId = parentId(context, op.parent, op.path);
  const absolute = await unchangedLocal(context, op.path, op.local);
  const { content, contentHash } = await readToSend(context, op.path, absolute, op.local);
  const mTimeMs = msOfNs(op.local.mtimeNs);
  context.ledger.touchedFolders.add(folderId);
  const intent = context.setup.index.store.recordIntent({
    action: 'upload',
    path: op.path,
    remoteId: null,
    parentRemoteId: folderId,
    detail: { name: op.name, ...localDetail(op.local), mTimeMs, contentHash },
  });
  const send = (): Promise<{ id: string; eTag: string | undefined }> =>
    context.setup.client.upload({
      parentId: folderId,
      name: op.name,
      mTimeMs,
      content,
      signal: context.setup.signal,
      onProgress: transferProgress(context, op.path, 'up', op.local.size),
    });
  // Only a lost answer may have created it: the same size and mTime say it is ours.
  const isOurs = (file: RemoteFile): boolean =>
    !file.isFolder && file.size === op.local.size && file.mTimeMs === mTimeMs;
  // A file that changed while sent was cut off before the device could keep it (file-source.ts), and
  // createOnce dropped its intent: no row claims an id, and the next round sends it again.
  const created = await createOnce(context, op, folderId, intent, send, isOurs).catch((error: unknown) => {
    throw changedWhileSent(error, op.path);
  });
  await recordCreated(context, op, intent, { ...created, parentId: folderId }, contentHash, release);
  countTransfer(context.ledger, 'uploaded', created.id);
  context.ledger.counts.bytesUp += op.local.size;
}
