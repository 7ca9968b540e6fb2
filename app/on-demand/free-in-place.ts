// Makes a file of an on-demand pair's cache folder a placeholder again when no mount runs (the command
// line frees while it holds the pair's lock, so no mount and no pass can be at work).
//
// The same steps, in the same order, as the mount's free (app/native/fuse-free.c; the rules are
// hydration-protocol.ts's FreeRequest), less the check of programs holding it open through the mount:
// with no mount there are none. The inode, size and mtime are kept, so the index needs no change; the
// mark is set first, so a crash leaves a placeholder with content (which a hydration writes over),
// never an emptied file taken for content.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { FreeDone, FreeRefused } from '../mount/hydration-protocol.ts';
import { PLACEHOLDER_MARK, PLACEHOLDER_XATTR } from '../mount/hydration-protocol.ts';
import type { RelativePath } from '../model/items.ts';
import { localPath, statOrUndefined } from '../sync/local/local-paths.ts';
import { isPlaceholder, placeholderAttributes } from '../sync/local/placeholders.ts';

/** What the index says of the file: a free of anything else would lose the only copy of its bytes. */
export interface FreeExpectation {
  readonly size: number;
  /** Nanoseconds since the epoch. */
  readonly mtimeNs: bigint;
}

/** The mount's answers without their request id: `freed`, or left as it was and why (never EBUSY here). */
export type FreeResult = Omit<FreeDone, 'req'> | Omit<FreeRefused, 'req'>;

function refused(errno: FreeRefused['errno'], message: string): FreeResult {
  return { type: 'free-refused', errno, message };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Frees the cache folder's file at `path` in place. Throws UNSAFE_PATH for a path out of the cache
 * folder and ON_DEMAND_UNAVAILABLE where the native addon was not built; every other outcome is the result.
 */
export async function freeInPlace(
  cacheRoot: string,
  path: RelativePath,
  expected: FreeExpectation,
): Promise<FreeResult> {
  const attributes = placeholderAttributes();
  const file = localPath(cacheRoot, path);
  let stats;
  try {
    stats = await statOrUndefined(file);
  } catch (error) {
    return refused('EIO', `reading it failed: ${reason(error)}`);
  }
  if (stats?.isFile() !== true) return refused('ENOENT', 'not a regular file');
  if (isPlaceholder(file)) return { type: 'freed' };
  if (stats.size !== BigInt(expected.size) || stats.mtimeNs !== expected.mtimeNs) {
    return refused('ESTALE', 'it changed since the index saw it');
  }
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ELOOP') return refused('ENOENT', 'it is no longer a file');
    return refused('EIO', `opening it failed: ${reason(error)}`);
  }
  try {
    const now = await handle.stat({ bigint: true });
    if (
      now.ino !== stats.ino ||
      now.dev !== stats.dev ||
      now.size !== stats.size ||
      now.mtimeNs !== expected.mtimeNs
    ) {
      return refused('ESTALE', 'it changed while being freed');
    }
    attributes.setAttribute(handle.fd, PLACEHOLDER_XATTR, Buffer.from(PLACEHOLDER_MARK));
    await handle.truncate(0);
    await handle.truncate(expected.size);
    attributes.setMtimeNs(handle.fd, expected.mtimeNs);
  } catch (error) {
    return refused('EIO', `freeing it failed: ${reason(error)}`);
  } finally {
    await handle.close();
  }
  return { type: 'freed' };
}
