// Operations that change the local folder: folders made, downloads, renames and moves (deletes: execute-trash.ts).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hashFile } from '../local/content-hash.ts';
import { countTransfer, currentETag, type ExecutionContext } from './execution-context.ts';
import { ReplanNeeded } from './replan-needed.ts';
import { indexPathIn, transferProgress } from './execute-shared.ts';
import { errnoOf, fileError, freeSpace } from '../local/file-errors.ts';
import {
  entryFromStats,
  isUnchanged,
  localPath,
  statNowOrUndefined,
  statOrUndefined,
} from '../local/local-paths.ts';
import { writeTemporary } from './index-batches.ts';
import { DOWNLOAD_TEMP_PREFIX } from '../../model/names.ts';
import { isPlaceholder, writePlaceholder } from '../local/placeholders.ts';
import type { IndexEntry, LocalEntry, RelativePath, RemoteEntry } from '../../model/items.ts';
import type { Operation } from '../plan/operations.ts';
import { baseName } from '../../model/paths.ts';
import { keepBeforeReplace, recordConflict } from './execute-keep.ts';
import type { PreparedLink } from '../versions/version-store.ts';

type Op<Name extends Operation['op']> = Extract<Operation, { op: Name }>;

/**
 * The index row of a remote item as it now is on both sides, at `path` on disk. The row goes below its
 * folder's row as the index has it: a local move of that folder not carried up yet (its PATCH failed,
 * or comes later) moves the row with its folder's when it is (soak seed 6750, as 2382 for creates).
 */
function rowFor(
  context: ExecutionContext,
  path: RelativePath,
  remote: RemoteEntry,
  eTag: string,
  local: LocalEntry,
  contentHash: string | null,
): IndexEntry {
  // This pass may have moved it on the device itself (a local move carried up before a download).
  const parentRemoteId = context.ledger.movedTo.get(remote.id) ?? remote.parentId;
  const indexPath = indexPathIn(context, parentRemoteId, baseName(path)) ?? path;
  return {
    remoteId: remote.id,
    parentRemoteId,
    path: indexPath,
    name: baseName(indexPath),
    kind: remote.kind,
    eTag,
    size: remote.size,
    mTimeMs: remote.mTimeMs,
    inode: local.inode,
    localSize: local.size,
    localMtimeNs: local.mtimeNs,
    contentHash,
  };
}

async function localEntry(path: RelativePath, absolute: string): Promise<LocalEntry> {
  const entry = entryFromStats(path, await statOrUndefined(absolute));
  if (!entry) throw new ReplanNeeded('LOCAL_CHANGED', path, 'It vanished right after it was written.');
  return entry;
}

export async function makeLocalFolder(context: ExecutionContext, op: Op<'local-mkdir'>): Promise<void> {
  const absolute = localPath(context.setup.localRoot, op.path);
  context.setup.onLocalWrite({ kind: 'created', path: op.path });
  try {
    await mkdir(absolute);
  } catch (error) {
    const code = errnoOf(error);
    const there = code === 'EEXIST' ? await statOrUndefined(absolute) : undefined;
    // A folder made here meanwhile is the same folder; one the index knows as another item (still
    // to move away), or anything else, is looked at again.
    const known = there && context.setup.index.store.byInode(there.ino.toString());
    const isAnotherItem =
      known?.some((row) => row.kind === 'folder' && row.remoteId !== op.remote.id) ?? false;
    if (!there?.isDirectory() || isAnotherItem) {
      if (code === 'EEXIST' || code === 'ENOENT' || code === 'ENOTDIR') {
        throw new ReplanNeeded('LOCAL_CHANGED', op.path, `Could not create the folder (${code}).`);
      }
      throw error;
    }
  }
  const local = await localEntry(op.path, absolute);
  const eTag = currentETag(context, op.remote.id, op.remote.eTag);
  context.setup.index.place(rowFor(context, op.path, op.remote, eTag, local, null));
  context.ledger.counts.foldersCreated += 1;
}

/**
 * Files up to this size come down whole into memory: hashed there, written at once, no partial file.
 * Small enough that a slow link reads one well within the 60 s an answer read into memory may take
 * (http-limits.ts; 64 KiB at 1.1 KB/s), where a streamed download has no such limit.
 */
export const IN_MEMORY_DOWNLOAD_BYTES = 64 * 1024;

/** A download in its temporary file next to the target, ready to be put in place. */
interface Fetched {
  temporary: string;
  eTag: string;
  contentHash: string | null;
  /** The temporary as the scan would see it at the target, when the fetch already read it. */
  local?: LocalEntry | undefined;
}

/** Downloads into a temporary file next to the target, with the remote mtime set, ready to be placed. */
async function fetchToTemporary(
  context: ExecutionContext,
  remote: RemoteEntry,
  absolute: string,
  path: RelativePath,
): Promise<Fetched> {
  const eTag = currentETag(context, remote.id, remote.eTag);
  const small = remote.size <= IN_MEMORY_DOWNLOAD_BYTES;
  // A large one is named after the version, so a download broken off (its partial file kept) resumes on
  // the next try; a small one is fetched whole again, under a name of its own.
  const version = small
    ? randomUUID().slice(0, 13)
    : createHash('sha256').update(`${remote.id}\n${eTag}`).digest('hex').slice(0, 12);
  const temporary = join(dirname(absolute), `${DOWNLOAD_TEMP_PREFIX}${version}`);
  try {
    if (small) return await fetchSmall(context, remote, eTag, temporary, path);
    const result = await context.setup.client.download(remote.id, temporary, {
      eTag,
      signal: context.setup.signal,
      onProgress: transferProgress(context, remote.path, 'down', remote.size),
      // Private while it fills; then what the user's own new files get, not 0600 (issue 27).
      ...(context.setup.fileMode === undefined ? {} : { mode: context.setup.fileMode }),
    });
    const mtime = remote.mTimeMs / 1000;
    await utimes(temporary, mtime, mtime);
    const contentHash = await hashFile(temporary, context.setup.signal);
    context.ledger.counts.bytesDown += result.size;
    return { temporary, eTag: result.eTag ?? eTag, contentHash };
  } catch (error) {
    await rm(temporary, { force: true });
    if (errnoOf(error) === 'ENOENT') {
      throw new ReplanNeeded('LOCAL_CHANGED', remote.path, 'Its local folder is gone.');
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'PRECONDITION_FAILED' || code === 'NOT_FOUND') {
      throw new ReplanNeeded(code, remote.path, 'It changed on the device during the pass.');
    }
    // Its partial file is gone by now: the free space is what the disk has without it.
    const free = errnoOf(error) === 'ENOSPC' ? await freeSpace(dirname(absolute)) : undefined;
    const space = free === undefined ? undefined : { neededBytes: remote.size, freeBytes: free };
    throw fileError(error, 'write', space) ?? error;
  }
}

/**
 * A small file: its content read whole into memory by one buffered request, hashed there (the bytes
 * written are the bytes hashed), and written to the temporary in one go with the device's mtime.
 */
async function fetchSmall(
  context: ExecutionContext,
  remote: RemoteEntry,
  eTag: string,
  temporary: string,
  path: RelativePath,
): Promise<Fetched> {
  const answer = await context.setup.client.readContent(remote.id, {
    eTag,
    signal: context.setup.signal,
    maxBytes: IN_MEMORY_DOWNLOAD_BYTES,
  });
  const contentHash = createHash('sha256').update(answer.content).digest('hex');
  const stats = await writeTemporary(temporary, answer.content, context.setup.fileMode, remote.mTimeMs);
  context.ledger.counts.bytesDown += answer.content.length;
  return { temporary, eTag: answer.eTag ?? eTag, contentHash, local: entryFromStats(path, stats) };
}

/**
 * A placeholder of the device's file (an on-demand pair) in a temporary file next to the target, ready
 * to be placed as a download is: no content, no hash, nothing counted as downloaded.
 */
async function placeholderToTemporary(
  context: ExecutionContext,
  remote: RemoteEntry,
  absolute: string,
): Promise<Fetched> {
  const eTag = currentETag(context, remote.id, remote.eTag);
  const temporary = join(dirname(absolute), `${DOWNLOAD_TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    await writePlaceholder(temporary, { size: remote.size, mTimeMs: remote.mTimeMs });
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      throw new ReplanNeeded('LOCAL_CHANGED', remote.path, 'Its local folder is gone.');
    }
    throw fileError(error, 'write') ?? error;
  }
  return { temporary, eTag, contentHash: null };
}

/** Whether the device's file comes down as a placeholder: an on-demand pair that does not keep it whole. */
function asPlaceholder(context: ExecutionContext, remote: RemoteEntry): boolean {
  const onDemand = context.setup.onDemand;
  if (onDemand === undefined) return false;
  const { remote: walked, index, remoteRootId } = context.setup;
  const parentOf = (id: string): string | undefined => {
    // Where this pass moved it first (a placeholder moved here into a kept folder: seed 685).
    const parent =
      context.ledger.movedTo.get(id) ?? walked.get(id)?.parentId ?? index.store.get(id)?.parentRemoteId;
    return parent === remoteRootId ? undefined : parent;
  };
  return !onDemand.keepsContent(remote, parentOf);
}

/**
 * Puts a fetched file in place with `put` and writes its row. The row goes in as an intent first: a
 * crash after the file lands and before its row is written leaves the intent, and the next pass's
 * recovery writes the row if the file at the path is still this one (kill seed 761, issue 18).
 * Without it that file reads as new: it would be uploaded as a second item, or kept as a conflict.
 */
async function putInPlace(
  context: ExecutionContext,
  row: IndexEntry,
  local: LocalEntry,
  put: () => Promise<void>,
  placeholder = false,
  keep?: PreparedLink,
): Promise<void> {
  const store = context.setup.index.store;
  // The version kept of the file replaced (if any) is recorded with the intent, in one commit.
  const intent = store.transaction(() => {
    keep?.record();
    return store.recordIntent({
      action: 'download',
      // Where the file lands; the row's path may differ (below its folder's row, see rowFor).
      path: local.path,
      remoteId: row.remoteId,
      parentRemoteId: row.parentRemoteId,
      detail: { entry: { ...row, localMtimeNs: row.localMtimeNs?.toString() ?? null } },
    });
  });
  try {
    if (keep !== undefined && !(await keep.link())) keep = undefined;
    await put();
  } catch (error) {
    // Left for recovery only when this file is in place after all (its temporary's removal failed).
    const there = await statOrUndefined(localPath(context.setup.localRoot, local.path));
    if (!isUnchanged(local, entryFromStats(local.path, there))) {
      store.completeIntent(intent);
      await keep?.abandon();
    }
    throw error;
  }
  store.completeIntent(intent, () => {
    context.setup.index.place(row);
    keep?.confirm();
  });
  if (!placeholder) countTransfer(context.ledger, 'downloaded', row.remoteId);
}

/**
 * A device file put here: whole, or (an on-demand pair) as a placeholder, then `online-only`. Once it
 * is in its temporary, `release` lets the executor start the next transfer while this one waits for its
 * batch to be put in place (index-batches.ts); without it the batch goes at once.
 */
export async function download(
  context: ExecutionContext,
  op: Op<'download'>,
  release?: () => void,
): Promise<'online-only' | void> {
  const absolute = localPath(context.setup.localRoot, op.path);
  if (statNowOrUndefined(absolute) !== undefined) {
    throw new ReplanNeeded('LOCAL_CHANGED', op.path, 'Something new is at its place on this computer.');
  }
  const placeholder = asPlaceholder(context, op.remote);
  const fetched = placeholder
    ? await placeholderToTemporary(context, op.remote, absolute)
    : await fetchToTemporary(context, op.remote, absolute, op.path);
  // Read before it is in place: an edit made right after it lands must look like an edit to the next
  // scan, not be recorded as the downloaded version (soak seed 2685, issue 18). Same inode, size, mtime.
  const local = fetched.local ?? (await localEntry(op.path, fetched.temporary));
  const row = rowFor(context, op.path, op.remote, fetched.eTag, local, fetched.contentHash);
  const placements = context.ledger.placements;
  const placed = placements.place({ row, local, temporary: fetched.temporary });
  context.ledger.transferEnded(op.path);
  if (release === undefined) placements.flush();
  else release();
  await placed;
  if (!placeholder) countTransfer(context.ledger, 'downloaded', row.remoteId);
  return placeholder ? 'online-only' : undefined;
}

export async function downloadContent(
  context: ExecutionContext,
  op: Op<'download-content'>,
): Promise<'online-only' | void> {
  const absolute = localPath(context.setup.localRoot, op.path);
  const stillSame = async (): Promise<boolean> =>
    isUnchanged(op.expected, entryFromStats(op.path, await statOrUndefined(absolute)));
  const changed = (): ReplanNeeded =>
    new ReplanNeeded('LOCAL_CHANGED', op.path, 'It changed on this computer during the pass.');
  if (!(await stillSame())) throw changed();
  // A placeholder stays one (a newer version of what is still only on the device); a file here whole
  // stays whole.
  const placeholder = asPlaceholder(context, op.remote) && isPlaceholder(absolute);
  const fetched = placeholder
    ? await placeholderToTemporary(context, op.remote, absolute)
    : await fetchToTemporary(context, op.remote, absolute, op.path);
  // Checked again right before replacing, so an edit made during the download is kept (and conflicts).
  if (!(await stillSame())) {
    await unlink(fetched.temporary);
    throw changed();
  }
  // Read before it is in place, as in download().
  const local = await localEntry(op.path, fetched.temporary);
  context.setup.onLocalWrite({ kind: 'modified', path: op.path, item: local });
  const row = rowFor(context, op.path, op.remote, fetched.eTag, local, fetched.contentHash);
  // The file replaced (the device's old version) is kept first, linked into the versions.
  const keep = keepBeforeReplace(context, op, absolute);
  await putInPlace(context, row, local, () => rename(fetched.temporary, absolute), placeholder, keep);
  return placeholder ? 'online-only' : undefined;
}

export async function moveLocal(context: ExecutionContext, op: Op<'local-move'>): Promise<void> {
  const from = localPath(context.setup.localRoot, op.fromPath);
  const to = localPath(context.setup.localRoot, op.toPath);
  const source = await statOrUndefined(from);
  if (!source || source.ino.toString() !== op.inode) {
    throw new ReplanNeeded(
      'LOCAL_CHANGED',
      op.fromPath,
      'It moved or changed on this computer during the pass.',
    );
  }
  const target = await statOrUndefined(to);
  // The same inode at the target is a case-only rename on a case-insensitive file system.
  if (target && target.ino.toString() !== op.inode) {
    throw new ReplanNeeded('LOCAL_CHANGED', op.toPath, 'Something new is at its place on this computer.');
  }
  context.setup.onLocalWrite({ kind: 'moved', path: op.toPath, fromPath: op.fromPath });
  await rename(from, to);
  if (op.remoteId !== null) recordLocalMove(context, op.remoteId, op);
  if (op.reason === 'conflict') {
    context.ledger.counts.conflicts += 1;
    recordConflict(context, op);
  } else if (op.remoteId !== null && op.reason !== 'case-clash') {
    const sameFolder = dirname(`/${op.fromPath}`) === dirname(`/${op.toPath}`);
    if (sameFolder) context.ledger.counts.renamed += 1;
    else context.ledger.counts.moved += 1;
  }
}

/**
 * The row follows its item. The item moved is the row's local side, whose inode may be new: the
 * reconciler pairs the entry at the row's path with it when the inode is not the row's (a folder
 * deleted and made again, an editor's atomic save; seeds 22967, 28642, 29287, 24368). No index-update
 * comes after a move to teach the row that inode, so the move records it.
 */
function recordLocalMove(context: ExecutionContext, remoteId: string, op: Op<'local-move'>): void {
  const store = context.setup.index.store;
  const remote = context.setup.remote.get(remoteId);
  store.transaction(() => {
    const parent = context.ledger.movedTo.get(remoteId) ?? remote?.parentId ?? null;
    if (!context.setup.index.move(remoteId, op.toPath, parent)) return;
    const row = store.get(remoteId);
    if (row && row.inode !== op.inode) store.upsert({ ...row, inode: op.inode });
  });
}
