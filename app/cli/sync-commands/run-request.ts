// What `mch-sync run` was asked: the folder, the device folder and the choices, checked before anything runs.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { MchError } from '../../../common/errors.ts';
import { remoteFolderSegments, RemoteFolderError } from '../../sync/remote/remote-folder.ts';
import { UsageError } from '../terminal/cli-context.ts';
import { RUN_USAGE } from '../usage.ts';

type Values = Record<string, string | boolean | undefined>;

export type RunErrorCode = 'LOCAL_FOLDER_MISSING' | 'LOCAL_FOLDER_NOT_A_FOLDER';

export class RunError extends MchError {
  declare readonly code: RunErrorCode;

  constructor(code: RunErrorCode, message: string, options?: { cause?: unknown }) {
    const titles: Record<RunErrorCode, string> = {
      LOCAL_FOLDER_MISSING: 'Folder missing',
      LOCAL_FOLDER_NOT_A_FOLDER: 'Not a folder',
    };
    super(code, titles[code], message, options);
  }
}

export interface RunRequest {
  /** One pass and exit; otherwise live until stopped. */
  once: boolean;
  localRoot: string;
  remoteFolder: string;
  /** `--remote-folder` was given; otherwise `remoteFolder` is the default, which a recorded pair overrides. */
  remoteFolderGiven: boolean;
  confirmDeletes: boolean;
  restore: boolean;
  json: boolean;
  verbose: boolean;
}

export function readRequest(values: Values): RunRequest {
  const once = values['once'] === true;
  if (
    !once &&
    (values['confirm-deletes'] === true || values['restore'] === true || values['json'] === true)
  ) {
    throw new UsageError(
      '--confirm-deletes, --restore and --json go with --once; a live run that is held says so in ' +
        '`mch-sync status`, and `mch-sync resume` takes the same choices.',
      RUN_USAGE,
    );
  }
  if (values['confirm-deletes'] === true && values['restore'] === true) {
    throw new UsageError(
      '--confirm-deletes and --restore are the two ways out of an emptied folder: choose one.',
      RUN_USAGE,
    );
  }
  const folder = values['folder'];
  if (typeof folder !== 'string' || folder === '') {
    throw new UsageError('--folder is needed: the local folder to sync.', RUN_USAGE);
  }
  const localRoot = resolve(folder);
  const given = values['remote-folder'];
  const remoteFolder = typeof given === 'string' ? given : `/${basename(localRoot)}`;
  if (remoteFolder === '/' && given === undefined) {
    throw new UsageError(
      '--remote-folder is needed when --folder is the root of the file system.',
      RUN_USAGE,
    );
  }
  let segments: string[];
  try {
    segments = remoteFolderSegments(remoteFolder);
  } catch (error) {
    if (error instanceof RemoteFolderError)
      throw new UsageError(`--remote-folder: ${error.message}`, RUN_USAGE);
    throw error;
  }
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new UsageError(
      `--remote-folder must not contain "." or ".." (got ${JSON.stringify(remoteFolder)}).`,
      RUN_USAGE,
    );
  }
  return {
    once,
    localRoot,
    remoteFolder: `/${segments.join('/')}`,
    remoteFolderGiven: given !== undefined,
    confirmDeletes: values['confirm-deletes'] === true,
    restore: values['restore'] === true,
    json: values['json'] === true,
    verbose: values['verbose'] === true,
  };
}

/** Refuses a missing folder before anything else happens: never sync an unmounted drive as "empty". */
export function checkLocalFolder(localRoot: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(localRoot).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunError(
      'LOCAL_FOLDER_MISSING',
      code === 'ENOENT'
        ? `The folder ${localRoot} does not exist: create it (mkdir) or check the path (a drive that is not mounted?). Nothing was synced.`
        : `The folder ${localRoot} cannot be read (${code ?? 'unknown error'}). Nothing was synced.`,
      { cause: error },
    );
  }
  if (!isFolder) {
    throw new RunError(
      'LOCAL_FOLDER_NOT_A_FOLDER',
      `${localRoot} is a file, not a folder. Nothing was synced.`,
    );
  }
}
