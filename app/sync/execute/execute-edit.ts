// An edit of a file's content sent to the device: the new bytes under If-Match, or its time alone when the bytes agree.
import type { ContentSource } from '../../api/device-client.ts';
import { countTransfer, currentETag, type ExecutionContext } from './execution-context.ts';
import {
  changedWhileSent,
  codeOf,
  indexPathIn,
  localDetail,
  readToSend,
  replanOn,
  touchParentOf,
  transferProgress,
  unchangedLocal,
  type Op,
} from './execute-shared.ts';
import { MAX_EDIT_CHECK_BYTES, remoteHash } from '../recovery/intent-recovery.ts';
import { msOfNs, nameKey, type IndexEntry, type RelativePath } from '../../model/items.ts';
import { baseName } from '../../model/paths.ts';

/** What an edit read of the local file and of its index row before it sends anything. */
interface EditRead {
  /** The item's index row before the edit (undefined: nothing to record, the next round looks). */
  row: IndexEntry | undefined;
  contentHash: string;
  mTimeMs: number;
  ifMatch: string;
}

export async function uploadContent(context: ExecutionContext, op: Op<'upload-content'>): Promise<void> {
  const absolute = await unchangedLocal(context, op.path, op.local);
  const store = context.setup.index.store;
  const row = store.get(op.remoteId);
  const { content, contentHash } = await readToSend(context, op.path, absolute, op.local);
  const mTimeMs = msOfNs(op.local.mtimeNs);
  const read: EditRead = {
    row,
    contentHash,
    mTimeMs,
    ifMatch: currentETag(context, op.remoteId, op.ifMatch),
  };
  // Touched but not changed (same bytes as both sides last agreed on): nothing to send but the time.
  if (row?.contentHash === contentHash && row.size === op.local.size) return sendTimeOnly(context, op, read);
  touchParentOf(context, op.remoteId);
  const intent = store.recordIntent({
    action: 'edit',
    path: op.path,
    remoteId: op.remoteId,
    parentRemoteId: null,
    detail: { ...localDetail(op.local), mTimeMs, contentHash, ifMatch: read.ifMatch },
  });
  const sent = await putContent(context, op, content, read, intent);
  // A PUT stamps the device's clock; the file's own time goes back on so the edit does not echo.
  const eTag = await putTimeBack(context, op.remoteId, mTimeMs, sent);
  store.completeIntent(intent, () => recordEdit(context, op, read, eTag));
  context.ledger.eTags.set(op.remoteId, eTag);
  countTransfer(context.ledger, 'uploaded', op.remoteId);
  context.ledger.counts.bytesUp += op.local.size;
}

/** The bytes agree with the device's: only a changed time is sent, then the row records the file. */
async function sendTimeOnly(
  context: ExecutionContext,
  op: Op<'upload-content'>,
  read: EditRead,
): Promise<void> {
  if (read.row?.mTimeMs === read.mTimeMs) {
    recordEdit(context, op, read, null);
    return;
  }
  // interface.md "POST /v2/files/:id/patch": mTime alone, guarded like any write. A crash before the
  // index is written leaves both sides at the same size and time: the next round only records it.
  touchParentOf(context, op.remoteId);
  try {
    const patched = await context.setup.client.patch(
      op.remoteId,
      { mTimeMs: read.mTimeMs },
      { ifMatch: read.ifMatch, signal: context.setup.signal },
    );
    context.ledger.eTags.set(op.remoteId, patched.eTag ?? read.ifMatch);
    recordEdit(context, op, read, patched.eTag ?? null);
  } catch (error) {
    replanOn(error, op.path, ['PRECONDITION_FAILED', 'NOT_FOUND']);
  }
  context.ledger.counts.timesUpdated += 1;
}

/** The PUT of the new content; returns the eTag of the device's new version. */
async function putContent(
  context: ExecutionContext,
  op: Op<'upload-content'>,
  content: ContentSource,
  read: EditRead,
  intent: number,
): Promise<string> {
  try {
    const put = await context.setup.client.putContent(op.remoteId, content, {
      ifMatch: read.ifMatch,
      signal: context.setup.signal,
      onProgress: transferProgress(context, op.path, 'up', op.local.size),
    });
    return put.eTag ?? '';
  } catch (error) {
    // A PUT whose answer was lost (or a retry of it, meeting its own new version) may have taken
    // effect: recognise the device's version by its content, or look at the item again.
    const unsure = codeOf(error) === 'PRECONDITION_FAILED' || codeOf(error) === 'OUTCOME_UNKNOWN';
    const own = unsure ? await ownVersion(context, op, read.contentHash) : undefined;
    if (own === undefined) {
      context.setup.index.store.completeIntent(intent);
      // Changed while sent: the PUT was cut off before its last bytes, so the device kept its version.
      replanOn(changedWhileSent(error, op.path), op.path, [
        'PRECONDITION_FAILED',
        'NOT_FOUND',
        'OUTCOME_UNKNOWN',
      ]);
    }
    return own;
  }
}

/** Sets the file's own time on the device's new version; returns the eTag it has then. */
async function putTimeBack(
  context: ExecutionContext,
  remoteId: string,
  mTimeMs: number,
  eTag: string,
): Promise<string> {
  try {
    const patched = await context.setup.client.patch(
      remoteId,
      { mTimeMs },
      { ifMatch: eTag, signal: context.setup.signal },
    );
    return patched.eTag ?? eTag;
  } catch (error) {
    if (codeOf(error) !== 'PRECONDITION_FAILED' && codeOf(error) !== 'NOT_FOUND') throw error;
    return eTag;
  }
}

/** The row records the local file as sent; with `eTag` (not null), the device's version too. */
function recordEdit(
  context: ExecutionContext,
  op: Op<'upload-content'>,
  read: EditRead,
  eTag: string | null,
): void {
  if (!read.row) return;
  context.setup.index.place({
    ...read.row,
    ...agreedPlace(context, op.remoteId, op.path),
    ...(eTag === null ? {} : { eTag, size: op.local.size, mTimeMs: read.mTimeMs }),
    inode: op.local.inode,
    localSize: op.local.size,
    localMtimeNs: op.local.mtimeNs,
    contentHash: read.contentHash,
  });
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
  const store = context.setup.index.store;
  const row = store.get(remoteId);
  const remote = context.setup.remote.get(remoteId);
  if (!row || !remote || nameKey(row.path) === nameKey(path)) return undefined;
  // The device's item is where the walk saw it, or in the folder a move of this pass put it in.
  const parentRemoteId = context.ledger.movedTo.get(remoteId) ?? remote.parentId;
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
  const file = await context.setup.client.getFile(op.remoteId, { signal: context.setup.signal });
  if (file.isFolder || file.size !== op.local.size) return undefined;
  return (await remoteHash(context.setup, file)) === contentHash ? file.eTag : undefined;
}
