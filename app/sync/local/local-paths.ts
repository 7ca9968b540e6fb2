// Turns relative sync paths into absolute local paths, refusing any that could leave the sync folder.
import { lstatSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { BigIntStats } from 'node:fs';
import { MchError } from '../../../common/errors.ts';
import type { LocalEntry, RelativePath } from '../../model/items.ts';

/** A path from the plan (ultimately from a remote name) that would not stay inside the sync folder. */
export class UnsafePathError extends MchError {
  declare readonly code: 'UNSAFE_PATH';

  constructor(path: string) {
    super('UNSAFE_PATH', 'Unsafe name refused', `${JSON.stringify(path)} would leave the sync folder.`);
  }
}

// eslint-disable-next-line no-control-regex -- NUL and separators are exactly what must never pass
const BAD_SEGMENT = /[\u0000/\\]/;

/**
 * `root` joined with `path`, checked segment by segment and again after resolving: the API layer
 * already refuses such names, and this second check is what stands between a hostile device and the
 * user's files.
 */
export function localPath(root: string, path: RelativePath): string {
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || BAD_SEGMENT.test(segment)) {
      throw new UnsafePathError(path);
    }
  }
  const absoluteRoot = resolve(root);
  const absolute = resolve(join(absoluteRoot, ...segments));
  if (!absolute.startsWith(absoluteRoot + sep)) throw new UnsafePathError(path);
  return absolute;
}

/** lstat with bigint times, or undefined when nothing is there. */
export async function statOrUndefined(path: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(path, { bigint: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * lstat with bigint times at once (the scan's way), or undefined when nothing is there: for a check
 * made per file of a large batch, where a missing file must not cost an exception.
 */
export function statNowOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The scan's view of what is at `path` now, or undefined when it is missing or not a file or folder. */
export function entryFromStats(path: RelativePath, stats: BigIntStats | undefined): LocalEntry | undefined {
  if (!stats || !(stats.isFile() || stats.isDirectory())) return undefined;
  const kind = stats.isDirectory() ? 'folder' : 'file';
  return {
    path,
    kind,
    inode: stats.ino.toString(),
    size: kind === 'file' ? Number(stats.size) : 0,
    mtimeNs: stats.mtimeNs,
  };
}

/** Whether the item on disk is still the one the plan was made from (same inode, and for a file same size and mtime). */
export function isUnchanged(expected: LocalEntry, now: LocalEntry | undefined): boolean {
  if (!now || now.kind !== expected.kind || now.inode !== expected.inode) return false;
  return now.kind === 'folder' || (now.size === expected.size && now.mtimeNs === expected.mtimeNs);
}

/** The errno code of a file system error, for messages. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}
