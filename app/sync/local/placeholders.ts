// Placeholders of an on-demand pair: sparse files of the device's size and time, marked by an attribute.
//
// A file of an on-demand pair whose content is on the device only is a placeholder in the cache folder:
// the real size (sparse: no blocks), the device's mtime, and the `user.mch.placeholder` attribute holding
// (app/mount/hydration-protocol.ts); the item it stands for is its inode's index row. The mount shows it as the file and
// downloads it when opened; the engine never reads its bytes. The attribute is the only truth of
// "this has no content": it travels with the file through renames, and whoever fills the file removes
// it last, so a crash leaves a placeholder, never a partial file taken for content.
import { lstat, open, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { MchError } from '../../../common/errors.ts';
import { PLACEHOLDER_MARK, PLACEHOLDER_XATTR } from '../../mount/hydration-protocol.ts';
import { nativeFileAttributes, type NativeFileAttributes } from './native-scan.ts';
import { ordinaryFileMode } from './file-modes.ts';

/** Files on demand need the native addon (extended attributes) and a file system that keeps them. */
export class OnDemandUnavailableError extends MchError {
  declare readonly code: 'ON_DEMAND_UNAVAILABLE';

  constructor(detail: string) {
    super('ON_DEMAND_UNAVAILABLE', 'Files on demand are not available here', detail);
  }
}

/** The addon's attribute functions, or a clear error where it was not built. */
export function placeholderAttributes(): NativeFileAttributes {
  const attributes = nativeFileAttributes();
  if (attributes === undefined) {
    throw new OnDemandUnavailableError(
      'The native addon was not built (npm install builds it with a C compiler). Use selective sync instead.',
    );
  }
  return attributes;
}

/** What the device says of the file a placeholder stands for. */
export interface PlaceholderSource {
  readonly size: number;
  readonly mTimeMs: number;
}

/**
 * Makes a placeholder at `path`, which must not exist (it is a temporary name, linked into place by the
 * caller as a download is): the device's size and mtime, and the mark.
 */
export async function writePlaceholder(path: string, source: PlaceholderSource): Promise<void> {
  const attributes = placeholderAttributes();
  const mode = ordinaryFileMode();
  const handle = await open(path, 'wx', mode);
  try {
    await handle.truncate(source.size);
    // To the nanosecond: the device keeps milliseconds, and a double of seconds would miss some.
    attributes.setMtimeNs(handle.fd, BigInt(Math.round(source.mTimeMs)) * 1_000_000n);
    attributes.setAttribute(handle.fd, PLACEHOLDER_XATTR, Buffer.from(PLACEHOLDER_MARK));
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    if ((error as { code?: unknown }).code === 'ENOTSUP') {
      throw new OnDemandUnavailableError(
        'The file system of the cache folder keeps no extended attributes. Choose a cache folder on another disk.',
      );
    }
    throw error;
  }
  await handle.close();
}

/** Whether the file at `target` (a path, or an open descriptor) is a placeholder: any value of the mark. */
export function isPlaceholder(target: string | number): boolean {
  const attributes = nativeFileAttributes();
  if (attributes === undefined) return false;
  try {
    return attributes.getAttribute(target, PLACEHOLDER_XATTR) !== null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Nothing there, or a file system without attributes: no placeholder can be there either.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENOTSUP') return false;
    throw error;
  }
}

/**
 * Removes every placeholder below the folder `path` (they hold nothing worth a trash), and the folders
 * left empty by that; true when nothing is left (the folder itself is gone too). `dropped` hears the
 * inode of each placeholder removed.
 */
export async function dropPlaceholdersBelow(
  path: string,
  dropped: (inode: string) => void = () => undefined,
): Promise<boolean> {
  let empty = true;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      if (!(await dropPlaceholdersBelow(child, dropped))) empty = false;
    } else if (entry.isFile() && isPlaceholder(child)) {
      const { ino } = await lstat(child, { bigint: true });
      await unlink(child);
      dropped(ino.toString());
    } else {
      empty = false;
    }
  }
  if (empty) await rmdir(path);
  return empty;
}
