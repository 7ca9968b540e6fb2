// Operations that change the device: folder creates, uploads, content edits, renames and moves, deletes.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../common/errors.ts';
import type { RemoteFile } from '../api/device-client.ts';
import { hashFile } from './content-hash.ts';
import { currentETag, parentId, ReplanNeeded, type ExecutionContext } from './execution-context.ts';
import { entryFromStats, isUnchanged, localPath, msOfNs, statOrUndefined } from './local-paths.ts';
import { MOVING_PREFIX } from './local-names.ts';
import { nameKey, type IndexEntry, type LocalEntry, type RelativePath } from './model.ts';
import type { Operation } from './operations.ts';

type Op<Name extends Operation['op']> = Extract<Operation, { op: Name }>;

function codeOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** The device's answer means the plan is stale: another look decides what to do. */
function replanOn(error: unknown, path: RelativePath, codes: readonly string[]): never {
  const code = codeOf(error);
  if (code !== undefined && codes.includes(code)) {
    throw new ReplanNeeded(code, path, (error as ApiError).message);
  }
  throw error;
}

/** The row of a created item, taking over the row it replaces (if any). */
function placeCreated(context: ExecutionContext, replaces: string | null, entry: IndexEntry): void {
  if (replaces === null) context.index.place(entry);
  else context.index.replace(replaces, entry);
}

/** The item's folder listing changes with it: the next walk must not trust its cached copy. */
function touchParentOf(context: ExecutionContext, remoteId: string): void {
  const parent = context.remote.get(remoteId)?.parentId ?? context.index.store.get(remoteId)?.parentRemoteId;
  if (parent !== undefined) context.touchedFolders.add(parent);
}

/** What recovery after a crash needs to know of the local side of a create or an edit. */
function localDetail(local: LocalEntry): Record<string, unknown> {
  return { size: local.size, inode: local.inode, localMtimeNs: local.mtimeNs.toString() };
}

/** Checks that the local item is still what the plan saw, returning its absolute path. */
async function unchangedLocal(
  context: ExecutionContext,
  path: RelativePath,
  expected: LocalEntry,
): Promise<string> {
  const absolute = localPath(context.localRoot, path);
  const now = entryFromStats(path, await statOrUndefined(absolute));
  if (!isUnchanged(expected, now)) {
    throw new ReplanNeeded('LOCAL_CHANGED', path, 'It changed on this computer during the pass.');
  }
  return absolute;
}

/** After a create whose answer was lost or refused: the item already there, if it is the one we meant. */
async function existingMatch(
  context: ExecutionContext,
  folderId: string,
  name: string,
  matches: (file: RemoteFile) => boolean,
): Promise<RemoteFile | undefined> {
  const found = await context.client.findByName(folderId, name, { signal: context.signal });
  return found !== undefined && matches(found) ? found : undefined;
}

export async function createRemoteFolder(
  context: ExecutionContext,
  op: Op<'remote-create-folder'>,
): Promise<void> {
  const folderId = parentId(context, op.parent, op.path);
  await unchangedLocal(context, op.path, op.local);
  context.touchedFolders.add(folderId);
  const store = context.index.store;
  const intent = store.recordIntent({
    action: 'create-folder',
    path: op.path,
    remoteId: null,
    parentRemoteId: folderId,
    detail: { name: op.name, inode: op.local.inode, localMtimeNs: op.local.mtimeNs.toString() },
  });
  let id: string;
  let eTag: string;
  try {
    const created = await context.client.createFolder({
      parentId: folderId,
      name: op.name,
      mTimeMs: msOfNs(op.local.mtimeNs),
      signal: context.signal,
    });
    id = created.id;
    eTag = created.eTag ?? '';
  } catch (error) {
    const code = codeOf(error);
    // A folder of that name made meanwhile (by another client) is the same folder: use it.
    const raced =
      code === 'CONFLICT' || code === 'OUTCOME_UNKNOWN'
        ? await existingMatch(context, folderId, op.name, (file) => file.isFolder)
        : undefined;
    if (!raced) {
      store.completeIntent(intent);
      replanOn(error, op.path, ['CONFLICT', 'NOT_FOUND']);
    }
    id = raced.id;
    eTag = raced.eTag;
  }
  store.completeIntent(intent, () => {
    placeCreated(context, op.replacesRemoteId, {
      remoteId: id,
      parentRemoteId: folderId,
      path: op.path,
      name: op.name,
      kind: 'folder',
      eTag,
      size: 0,
      mTimeMs: msOfNs(op.local.mtimeNs),
      inode: op.local.inode,
      localSize: 0,
      localMtimeNs: op.local.mtimeNs,
      contentHash: null,
    });
  });
  context.createdFolders.set(nameKey(op.path), id);
  context.counts.foldersCreated += 1;
}

export async function upload(context: ExecutionContext, op: Op<'upload'>): Promise<void> {
  const folderId = parentId(context, op.parent, op.path);
  const absolute = await unchangedLocal(context, op.path, op.local);
  const contentHash = await hashFile(absolute, context.signal);
  const mTimeMs = msOfNs(op.local.mtimeNs);
  const store = context.index.store;
  context.touchedFolders.add(folderId);
  const intent = store.recordIntent({
    action: 'upload',
    path: op.path,
    remoteId: null,
    parentRemoteId: folderId,
    detail: { name: op.name, ...localDetail(op.local), mTimeMs, contentHash },
  });
  let id: string;
  let eTag: string;
  try {
    const result = await context.client.upload({
      parentId: folderId,
      name: op.name,
      mTimeMs,
      content: { path: absolute, size: op.local.size },
      signal: context.signal,
    });
    id = result.id;
    eTag = result.eTag ?? '';
  } catch (error) {
    // Only a lost answer may have created it; a 409 means someone else's file holds the name.
    const ours =
      codeOf(error) === 'OUTCOME_UNKNOWN'
        ? await existingMatch(
            context,
            folderId,
            op.name,
            (file) => !file.isFolder && file.size === op.local.size && file.mTimeMs === mTimeMs,
          )
        : undefined;
    if (!ours) {
      store.completeIntent(intent);
      replanOn(error, op.path, ['CONFLICT', 'NOT_FOUND']);
    }
    id = ours.id;
    eTag = ours.eTag;
  }
  store.completeIntent(intent, () => {
    placeCreated(context, op.replacesRemoteId, {
      remoteId: id,
      parentRemoteId: folderId,
      path: op.path,
      name: op.name,
      kind: 'file',
      eTag,
      size: op.local.size,
      mTimeMs,
      inode: op.local.inode,
      localSize: op.local.size,
      localMtimeNs: op.local.mtimeNs,
      contentHash,
    });
  });
  context.counts.uploaded += 1;
  context.counts.bytesUp += op.local.size;
}

export async function uploadContent(context: ExecutionContext, op: Op<'upload-content'>): Promise<void> {
  const absolute = await unchangedLocal(context, op.path, op.local);
  const store = context.index.store;
  const row = store.get(op.remoteId);
  const contentHash = await hashFile(absolute, context.signal);
  const mTimeMs = msOfNs(op.local.mtimeNs);
  const recordLocal = (eTag: string | null): void => {
    if (!row) return;
    context.index.place({
      ...row,
      ...(eTag === null ? {} : { eTag, size: op.local.size, mTimeMs }),
      inode: op.local.inode,
      localSize: op.local.size,
      localMtimeNs: op.local.mtimeNs,
      contentHash,
    });
  };
  // Touched but not changed (same bytes as both sides last agreed on): nothing to send.
  if (row?.contentHash === contentHash && row.size === op.local.size) {
    recordLocal(null);
    return;
  }
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
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
    const put = await context.client.putContent(
      op.remoteId,
      { path: absolute, size: op.local.size },
      { ifMatch, signal: context.signal },
    );
    eTag = put.eTag ?? '';
  } catch (error) {
    store.completeIntent(intent);
    replanOn(error, op.path, ['PRECONDITION_FAILED', 'NOT_FOUND']);
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
  context.counts.uploaded += 1;
  context.counts.bytesUp += op.local.size;
}

export async function moveRemote(context: ExecutionContext, op: Op<'remote-move'>): Promise<void> {
  const toParent = op.parent === null ? null : parentId(context, op.parent, op.toPath);
  const ifMatch = currentETag(context, op.remoteId, op.ifMatch);
  const store = context.index.store;
  touchParentOf(context, op.remoteId);
  if (toParent !== null) context.touchedFolders.add(toParent);
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
    if (codeOf(error) === 'CONFLICT' && (await parkUntilNameIsFree(context, op, toParent, ifMatch))) return;
    replanOn(error, op.toPath, ['PRECONDITION_FAILED', 'NOT_FOUND', 'CONFLICT']);
  }
  context.pendingRemoteMoves.delete(op.remoteId);
  store.completeIntent(intent, () => {
    // The new eTag stands for the content the index knows only if the move was based on that version.
    const row = store.get(op.remoteId);
    const sameContent = row !== undefined && row.eTag === ifMatch;
    context.index.move(op.remoteId, op.toPath, toParent, sameContent ? eTag : undefined);
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
  const finalName = op.name ?? remote?.name;
  if (folderId === undefined || finalName === undefined) return false;
  const holder = await context.client.findByName(folderId, finalName, { signal: context.signal });
  if (holder === undefined || !context.pendingRemoteMoves.has(holder.id)) return false;
  const parked = await context.client.patch(
    op.remoteId,
    {
      name: `${MOVING_PREFIX}${randomBytes(6).toString('hex')}`,
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
  const intent = store.recordIntent({
    action: 'delete',
    path: op.path,
    remoteId: op.remoteId,
    parentRemoteId: null,
    detail: { ifMatch, kind: op.kind },
  });
  try {
    await context.client.delete(op.remoteId, { ifMatch, signal: context.signal });
  } catch (error) {
    // Already gone is what we wanted.
    if (codeOf(error) !== 'NOT_FOUND') {
      store.completeIntent(intent);
      replanOn(error, op.path, ['PRECONDITION_FAILED', 'CONFLICT']);
    }
  }
  store.completeIntent(intent, () => context.index.removeTree(op.remoteId));
  if (op.reason !== 'type-change') context.counts.deleted += 1;
}
