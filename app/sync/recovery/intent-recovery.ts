// After a crash: the remote changes that were in flight are looked up, and their effects recorded in the index.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../common/errors.ts';
import type { DeviceClient, RemoteFile } from '../../api/device-client.ts';
import type { Intent } from '../../index/index-store.ts';
import { hashFile } from '../local/content-hash.ts';
import type { IndexWriter } from '../../index/index-writes.ts';
import { entryFromStats, isUnchanged, localPath, statOrUndefined } from '../local/local-paths.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';
import type { IndexEntry } from '../../model/items.ts';

export interface RecoveryContext {
  client: DeviceClient;
  index: IndexWriter;
  localRoot: string;
  remoteRootId: string;
  signal?: AbortSignal;
}

/** An edit is confirmed by downloading the device's version and comparing hashes, up to this size. */
export const MAX_EDIT_CHECK_BYTES = 16 * 1024 * 1024;

function text(detail: Record<string, unknown>, key: string): string | undefined {
  const value = detail[key];
  return typeof value === 'string' ? value : undefined;
}

function number(detail: Record<string, unknown>, key: string): number | undefined {
  const value = detail[key];
  return typeof value === 'number' ? value : undefined;
}

/**
 * Settles every pending intent: a create the device carried out becomes an index row (so the next
 * round sees a synced item, not a new one to upload twice); an edit it carried out is recorded when
 * its content is ours; a download found in place gets its row. Patches and deletes need nothing: the
 * next round compares both sides.
 * Returns how many intents there were.
 */
export async function recoverIntents(context: RecoveryContext): Promise<number> {
  const store = context.index.store;
  const intents = store.pendingIntents();
  for (const intent of intents) {
    if (intent.action === 'upload' || intent.action === 'create-folder') await adoptCreate(context, intent);
    if (intent.action === 'edit') await adoptEdit(context, intent);
    if (intent.action === 'download') await adoptDownload(context, intent);
    store.completeIntent(intent.id);
  }
  return intents.length;
}

async function adoptCreate(context: RecoveryContext, intent: Intent): Promise<void> {
  const store = context.index.store;
  const { detail } = intent;
  const name = text(detail, 'name');
  const inode = text(detail, 'inode');
  const localMtimeNs = text(detail, 'localMtimeNs');
  const folderId = intent.parentRemoteId;
  if (name === undefined || inode === undefined || localMtimeNs === undefined || folderId === null) return;
  const found = await context.client.findByName(folderId, name, { signal: context.signal });
  if (found === undefined || store.get(found.id) !== undefined) return;
  const isOurs =
    intent.action === 'create-folder'
      ? found.isFolder
      : !found.isFolder &&
        found.size === number(detail, 'size') &&
        found.mTimeMs === number(detail, 'mTimeMs');
  if (!isOurs) return;
  const parentPath = folderId === context.remoteRootId ? '' : store.get(folderId)?.path;
  if (parentPath === undefined) return;
  context.index.place({
    remoteId: found.id,
    parentRemoteId: folderId,
    path: parentPath === '' ? name : `${parentPath}/${name}`,
    name,
    kind: found.isFolder ? 'folder' : 'file',
    eTag: found.eTag,
    size: found.size,
    mTimeMs: found.mTimeMs ?? 0,
    inode,
    localSize: found.isFolder ? 0 : found.size,
    localMtimeNs: BigInt(localMtimeNs),
    contentHash: text(detail, 'contentHash') ?? null,
  });
}

async function adoptEdit(context: RecoveryContext, intent: Intent): Promise<void> {
  const store = context.index.store;
  const { detail } = intent;
  const row = intent.remoteId === null ? undefined : store.get(intent.remoteId);
  const contentHash = text(detail, 'contentHash');
  const size = number(detail, 'size');
  const inode = text(detail, 'inode');
  const localMtimeNs = text(detail, 'localMtimeNs');
  if (
    !row ||
    contentHash === undefined ||
    size === undefined ||
    inode === undefined ||
    localMtimeNs === undefined
  ) {
    return;
  }
  let file: RemoteFile;
  try {
    file = await context.client.getFile(row.remoteId, { signal: context.signal });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return;
    throw error;
  }
  // Unchanged since the index: the edit never arrived and the next round sends it again.
  if (file.eTag === row.eTag || file.size !== size || size > MAX_EDIT_CHECK_BYTES) return;
  if ((await remoteHash(context, file)) !== contentHash) return;
  context.index.place({
    ...row,
    eTag: file.eTag,
    size,
    mTimeMs: file.mTimeMs ?? row.mTimeMs,
    inode,
    localSize: size,
    localMtimeNs: BigInt(localMtimeNs),
    contentHash,
  });
}

/**
 * A download that landed before its row was written: the row goes in when the file at its path is
 * still the one downloaded (same inode, size and mtime) and no other item's row holds the path.
 */
async function adoptDownload(context: RecoveryContext, intent: Intent): Promise<void> {
  const store = context.index.store;
  const entry = downloadedEntry(intent.detail['entry']);
  if (!entry || entry.inode === null || entry.localSize === null || entry.localMtimeNs === null) return;
  const occupant = store.byPath(entry.path);
  if (occupant && occupant.remoteId !== entry.remoteId) return;
  if (entry.parentRemoteId !== context.remoteRootId && !store.get(entry.parentRemoteId)) return;
  // The file is where it landed (the intent's path); its row may be below its folder's older path.
  const there = entryFromStats(intent.path, await statOrUndefined(localPath(context.localRoot, intent.path)));
  const landed = { path: intent.path, kind: 'file' as const, inode: entry.inode, size: entry.localSize };
  if (!isUnchanged({ ...landed, mtimeNs: entry.localMtimeNs }, there)) return;
  context.index.place(entry);
}

/** The index row a download intent carries (its local mtime as a decimal string), if well formed. */
function downloadedEntry(value: unknown): IndexEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  const strings = ['remoteId', 'parentRemoteId', 'path', 'name', 'eTag', 'inode', 'localMtimeNs'];
  const numbers = ['size', 'mTimeMs', 'localSize'];
  if (entry['kind'] !== 'file') return undefined;
  if (!strings.every((key) => typeof entry[key] === 'string')) return undefined;
  if (!numbers.every((key) => typeof entry[key] === 'number')) return undefined;
  if (!/^\d+$/.test(entry['localMtimeNs'] as string)) return undefined;
  const contentHash = entry['contentHash'];
  return {
    ...(entry as unknown as IndexEntry),
    localMtimeNs: BigInt(entry['localMtimeNs'] as string),
    contentHash: typeof contentHash === 'string' ? contentHash : null,
  };
}

/** SHA-256 of the device's content of `file` (downloaded to the state folder, then removed). */
export async function remoteHash(
  context: Pick<RecoveryContext, 'client' | 'localRoot' | 'signal'>,
  file: Pick<RemoteFile, 'id' | 'eTag'>,
): Promise<string> {
  const folder = join(context.localRoot, STATE_FOLDER_NAME, 'recovery');
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, randomBytes(8).toString('hex'));
  try {
    await context.client.download(file.id, temporary, { eTag: file.eTag, signal: context.signal });
    return await hashFile(temporary, context.signal);
  } finally {
    await rm(temporary, { force: true });
  }
}
