// The one reader of the local file system's errno codes for sync: what each means for an item, in words, with a stable code.
import { lstat, mkdir, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { assertNever, MchError } from '../../../common/errors.ts';
import { formatBytes } from '../../../common/units.ts';

/**
 * What the file system's refusal means for the user (pass-report.ts classes each code): `DISK_FULL`,
 * `READ_ONLY`, `PERMISSION_DENIED` and `DISK_ERROR` need them; `PATH_TOO_LONG`, `NAME_NOT_ALLOWED` and
 * `FILE_TOO_LARGE` never work as the item is; the rest pass by themselves.
 */
export type FileErrorCode =
  | 'DISK_FULL'
  | 'READ_ONLY'
  | 'PERMISSION_DENIED'
  | 'DISK_ERROR'
  | 'PATH_TOO_LONG'
  | 'NAME_NOT_ALLOWED'
  | 'FILE_TOO_LARGE'
  | 'FILE_BUSY'
  | 'TOO_MANY_OPEN_FILES'
  | 'CHANGED_MEANWHILE'
  | 'FILE_ERROR';

/** What the pass was doing to the item (or its folder) when the file system refused. */
export type FileAction = 'read' | 'list' | 'write' | 'create-folder' | 'move' | 'trash';

const CODE_OF_ERRNO: Readonly<Record<string, FileErrorCode>> = {
  ENOSPC: 'DISK_FULL',
  EDQUOT: 'DISK_FULL',
  EROFS: 'READ_ONLY',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
  EIO: 'DISK_ERROR',
  ENXIO: 'DISK_ERROR',
  ENODEV: 'DISK_ERROR',
  ENAMETOOLONG: 'PATH_TOO_LONG',
  // A name the disk's file system cannot encode (FAT, exFAT, NTFS through ntfs-3g, some network shares).
  EILSEQ: 'NAME_NOT_ALLOWED',
  EFBIG: 'FILE_TOO_LARGE',
  EBUSY: 'FILE_BUSY',
  ETXTBSY: 'FILE_BUSY',
  EAGAIN: 'FILE_BUSY',
  EDEADLK: 'FILE_BUSY',
  EMFILE: 'TOO_MANY_OPEN_FILES',
  ENFILE: 'TOO_MANY_OPEN_FILES',
  // Something was not where the plan saw it: the disk changed during the pass.
  ENOENT: 'CHANGED_MEANWHILE',
  ENOTDIR: 'CHANGED_MEANWHILE',
  EEXIST: 'CHANGED_MEANWHILE',
  ENOTEMPTY: 'CHANGED_MEANWHILE',
  EISDIR: 'CHANGED_MEANWHILE',
  ESTALE: 'CHANGED_MEANWHILE',
};

const TITLES: Readonly<Record<FileErrorCode, string>> = {
  DISK_FULL: 'Disk full',
  READ_ONLY: 'Disk read-only',
  PERMISSION_DENIED: 'Permission denied',
  DISK_ERROR: 'Disk error',
  PATH_TOO_LONG: 'Path too long',
  NAME_NOT_ALLOWED: 'Name not allowed here',
  FILE_TOO_LARGE: 'File too large for this disk',
  FILE_BUSY: 'File in use',
  TOO_MANY_OPEN_FILES: 'Too many open files',
  CHANGED_MEANWHILE: 'Changed meanwhile',
  FILE_ERROR: 'File system error',
};

/** The start of each message: what could not be done, about the item whose path is shown beside it. */
const CANNOT: Readonly<Record<FileAction, string>> = {
  read: 'It cannot be read',
  list: 'This folder cannot be read',
  write: 'It cannot be written here',
  'create-folder': 'This folder cannot be made here',
  move: 'It cannot be renamed or moved here',
  trash: 'It was deleted on the device, but it cannot be moved to the trash here',
};

/** Free and needed space when a download met a full disk: the message names both. */
export interface SpaceNeeded {
  neededBytes: number;
  freeBytes: number;
}

/** A file system refusal in words, with the system's own code kept for details. */
export class FileError extends MchError {
  declare readonly code: FileErrorCode;
  /** `EACCES`, `ENOSPC`...: for logs and details, never for decisions (`code` is). */
  readonly errno: string;

  constructor(code: FileErrorCode, errno: string, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
    this.errno = errno;
  }
}

/** The errno code (`EACCES`) of a file system error, or undefined when `error` has none. */
export function errnoOf(error: unknown): string | undefined {
  // The project's own errors carry stable codes of their own, never a system's.
  if (error instanceof MchError) return undefined;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** `error` as a FileError (met while doing `action`), or undefined when it is no file system error. */
export function fileError(error: unknown, action: FileAction, space?: SpaceNeeded): FileError | undefined {
  if (error instanceof FileError) return error;
  const errno = errnoOf(error);
  return errno === undefined ? undefined : fileErrorOf(errno, action, { cause: error, space });
}

/** The FileError of an errno code met while doing `action` (the scan keeps codes, not errors). */
export function fileErrorOf(
  errno: string,
  action: FileAction,
  options: { cause?: unknown; space?: SpaceNeeded | undefined } = {},
): FileError {
  // EINVAL means a name the file system refuses only where a name is being made.
  const makesName = action === 'write' || action === 'create-folder' || action === 'move';
  const code = CODE_OF_ERRNO[errno] ?? (errno === 'EINVAL' && makesName ? 'NAME_NOT_ALLOWED' : 'FILE_ERROR');
  return new FileError(code, errno, messageOf(code, errno, action, options.space), { cause: options.cause });
}

function messageOf(
  code: FileErrorCode,
  errno: string,
  action: FileAction,
  space: SpaceNeeded | undefined,
): string {
  const cannot = CANNOT[action];
  const reading = action === 'read' || action === 'list';
  switch (code) {
    case 'DISK_FULL': {
      const quota = errno === 'EDQUOT' ? 'you are over your disk quota on this computer' : undefined;
      const what = quota ?? "this computer's disk is full";
      if (space === undefined) return `${cannot}: ${what}. Free some space; the next run tries again.`;
      const short = space.neededBytes - space.freeBytes;
      const free = short > 0 ? `Free at least ${formatBytes(short)} more` : 'Free some space';
      return `${cannot}: ${what}: it needs ${formatBytes(space.neededBytes)} and ${formatBytes(space.freeBytes)} is free. ${free}; the next run tries again.`;
    }
    case 'READ_ONLY':
      return `${cannot}: the disk is read-only (mounted read-only?). Make it writable; the next run tries again.`;
    case 'PERMISSION_DENIED':
      return reading
        ? `${cannot}: permission denied. Give yourself permission to read it (chmod ${action === 'list' ? 'u+rx' : 'u+r'}), or leave it out with a pattern in .mchignore.`
        : `${cannot}: permission denied. Give yourself permission to write in its folder (chmod u+w); the next run tries again.`;
    case 'DISK_ERROR':
      return `${cannot}: the disk reported an error (${errno}). Check that it is connected and healthy; the next run tries again.`;
    case 'PATH_TOO_LONG':
      return `${cannot}: its path is too long for this computer (at most 255 bytes a name, 4,096 a path). Rename it or move it higher up to sync it.`;
    case 'NAME_NOT_ALLOWED':
      return `${cannot}: this disk's file system does not allow its name (${errno}). Rename it to sync it.`;
    case 'FILE_TOO_LARGE':
      return `${cannot}: it is too large for this disk's file system (FAT32 holds at most 4 GB a file). It cannot sync here as it is.`;
    case 'FILE_BUSY':
      return `${cannot}: another program is using it (${errno}); the next run tries again.`;
    case 'TOO_MANY_OPEN_FILES':
      return `${cannot}: too many files are open on this computer (${errno}); the next run tries again.`;
    case 'CHANGED_MEANWHILE':
      return `${cannot}: it changed on this computer during the pass (${errno}); the next run looks again.`;
    case 'FILE_ERROR':
      return `${cannot}: the file system refused (${errno}); the next run tries again.`;
    default:
      return assertNever(code, 'file error code');
  }
}

/** Bytes free for this user in the file system of `path` (undefined when it cannot be asked). */
export async function freeSpace(path: string): Promise<number | undefined> {
  try {
    const stats = await statfs(path);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/**
 * `mkdir -p`, reporting the real reason a folder could not be made: Node's recursive mkdir says ENOENT
 * when a parent cannot be made (on a read-only disk, EROFS; measured on Node 22), which would read as
 * "changed meanwhile".
 */
export async function makeFolders(path: string, mode?: number): Promise<void> {
  const options = mode === undefined ? {} : { mode };
  try {
    await mkdir(path, { ...options, recursive: true });
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
    await makeOneByOne(path, options);
  }
}

async function makeOneByOne(path: string, options: { mode?: number }): Promise<void> {
  const parent = dirname(path);
  if (parent !== path) {
    const there = await lstat(parent).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (there === undefined) await makeOneByOne(parent, options);
  }
  try {
    await mkdir(path, options);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
  }
}
