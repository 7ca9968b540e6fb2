// The synced remote folder's id: looked up by id once known, made on the first pass, never read as empty when gone.
import { resolve } from 'node:path';
import { ApiError, MchError } from '../../../common/errors.ts';
import type { SyncEngineOptions } from '../engine-options.ts';
import { META_LOCAL_ROOT, META_REMOTE_FOLDER, META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { ensureRemoteFolder, remoteFolderSegments } from './remote-folder.ts';

/** Stable codes of the engine's own refusals. */
export type EngineErrorCode = 'FOLDER_PAIR_MISMATCH' | 'REMOTE_ROOT_MISSING';

export class EngineError extends MchError {
  declare readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string) {
    super(code, code === 'FOLDER_PAIR_MISMATCH' ? 'Folder synced elsewhere' : 'Remote folder gone', message);
  }
}

/**
 * The synced remote folder's id. Followed by id once known (a rename on the device keeps the pair); a
 * folder gone after items were synced is an error, never an empty folder to sync "everything deleted" into.
 */
export async function remoteRootOf(
  options: Pick<SyncEngineOptions, 'client' | 'index' | 'localRoot' | 'remoteFolder' | 'pairFolder'>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { client, index, remoteFolder } = options;
  const wanted = `/${remoteFolderSegments(remoteFolder).join('/')}`;
  const pairedWith = index.getMeta(META_REMOTE_FOLDER);
  if (pairedWith !== undefined && pairedWith !== wanted) {
    throw new EngineError(
      'FOLDER_PAIR_MISMATCH',
      `${options.localRoot} is synced with ${pairedWith} on the device, not ${wanted}.`,
    );
  }
  const known = index.getMeta(META_REMOTE_ROOT);
  if (known !== undefined) {
    try {
      const folder = await client.getFile(known, signal === undefined ? {} : { signal });
      if (folder.isFolder && !folder.trashed) return folder.id;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error;
    }
    if (index.count() > 0) {
      throw new EngineError(
        'REMOTE_ROOT_MISSING',
        `The folder ${wanted} is gone from the device. Nothing was changed on this computer; to sync ` +
          `${options.localRoot} again, move it aside or use another profile.`,
      );
    }
  }
  const ensured = await ensureRemoteFolder(client, wanted, signal === undefined ? {} : { signal });
  index.setMeta(META_REMOTE_ROOT, ensured.id);
  index.setMeta(META_REMOTE_FOLDER, wanted);
  // The pair is the user's folder (an on-demand pair's mount), not the cache folder the engine reads.
  index.setMeta(META_LOCAL_ROOT, resolve(options.pairFolder ?? options.localRoot));
  return ensured.id;
}
