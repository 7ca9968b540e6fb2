// Resolves `--remote-folder` (a slash path from the device root) to a folder id, creating missing folders.
import { ApiError, MchError } from '../../../common/errors.ts';
import { ROOT_ALIAS } from '../../../common/wire/device-api.ts';
import type { DeviceClient, RemoteFile } from '../../api/device-client.ts';

export type RemoteFolderErrorCode = 'REMOTE_PATH_INVALID' | 'REMOTE_PATH_NOT_A_FOLDER';

export class RemoteFolderError extends MchError {
  declare readonly code: RemoteFolderErrorCode;

  constructor(code: RemoteFolderErrorCode, message: string) {
    super(code, 'Remote folder unusable', message);
  }
}

export interface EnsureRemoteFolderOptions {
  signal?: AbortSignal;
}

export interface EnsuredRemoteFolder {
  id: string;
  /** The segments that had to be created, in order (empty when the whole path existed). */
  created: string[];
}

/** The path's names: '' and '/' are the root; one leading and one trailing slash are allowed. */
export function remoteFolderSegments(path: string): string[] {
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  if (trimmed === '') return [];
  const segments = trimmed.split('/');
  if (segments.some((segment) => segment === '')) {
    throw new RemoteFolderError(
      'REMOTE_PATH_INVALID',
      `The remote folder ${JSON.stringify(path)} has an empty name.`,
    );
  }
  return segments;
}

function folderOrFail(file: RemoteFile, path: string): string {
  if (!file.isFolder) {
    throw new RemoteFolderError(
      'REMOTE_PATH_NOT_A_FOLDER',
      `${JSON.stringify(path)} on the device is a file.`,
    );
  }
  return file.id;
}

/**
 * The id of the folder at `path`, creating each missing segment. Names are checked by the API layer
 * (INVALID_NAME). A create that meets a folder made meanwhile (CONFLICT), or whose answer was lost
 * (OUTCOME_UNKNOWN), is settled by looking the name up again.
 */
export async function ensureRemoteFolder(
  client: DeviceClient,
  path: string,
  options: EnsureRemoteFolderOptions = {},
): Promise<EnsuredRemoteFolder> {
  const segments = remoteFolderSegments(path);
  const call = options.signal === undefined ? {} : { signal: options.signal };
  const created: string[] = [];
  if (segments.length === 0) return { id: (await client.getFile(ROOT_ALIAS, call)).id, created };
  let parentId = ROOT_ALIAS;
  for (const [index, name] of segments.entries()) {
    const soFar = segments.slice(0, index + 1).join('/');
    const existing = await client.findByName(parentId, name, call);
    if (existing !== undefined) {
      parentId = folderOrFail(existing, soFar);
      continue;
    }
    try {
      parentId = (await client.createFolder({ parentId, name, ...call })).id;
      created.push(soFar);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.code !== 'CONFLICT' && error.code !== 'OUTCOME_UNKNOWN')) {
        throw error;
      }
      const raced = await client.findByName(parentId, name, call);
      if (raced === undefined) throw error;
      parentId = folderOrFail(raced, soFar);
    }
  }
  return { id: parentId, created };
}
