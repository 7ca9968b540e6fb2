// What was put in an on-demand pair's folder while the device's files were not shown there, moved into the cache folder so it syncs.
//
// The folder is a mount point: while the service is stopped, or after someone unmounted it, it is an
// empty folder, and a program may save files into it. They are the user's files in the synced folder:
// hidden under the next mount they would never sync, and the mount refuses a folder that is not empty.
// Each is moved by one rename into the cache folder, where the next pass sends it up. A folder that is
// in the cache folder too is merged; a file whose name is taken there is kept beside it as a conflicted
// copy (both kept). Nothing is copied or overwritten; the client's own state folder is never moved.
import { lstat, readdir, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_FOLDER_NAME } from '../model/names.ts';
import { MountError } from '../mount/mount-errors.ts';
import { cleanStaleMount, isOurMount } from '../mount/stale-mount.ts';
import { conflictedCopyName } from '../sync/plan/conflict-names.ts';

export interface AdoptedContent {
  /** Paths (relative to the folder) moved into the cache folder under their own names. */
  readonly moved: string[];
  /** Paths whose name was taken in the cache folder, and the name each was kept under. */
  readonly keptBeside: { readonly path: string; readonly as: string }[];
}

/**
 * Moves what is in `folder` into `cache`, once no mount is there (a dead one is cleared first); does
 * nothing while one of ours is mounted. Throws MOUNT_POINT_NOT_EMPTY when an entry cannot be moved
 * (the cache folder on another disk, or permissions): what was moved so far stays moved.
 */
export async function adoptUnmountedContent(
  folder: string,
  cache: string,
  now: () => Date = () => new Date(),
): Promise<AdoptedContent> {
  const adopted = { moved: [] as string[], keptBeside: [] as { path: string; as: string }[] };
  await cleanStaleMount(folder);
  if (await isOurMount(folder)) return adopted;
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    // The client's own folder is never the user's content; the mount refuses it (see the error).
    if (name === STATE_FOLDER_NAME) continue;
    await adoptEntry(folder, cache, name, name, adopted, now);
  }
  return adopted;
}

async function adoptEntry(
  from: string,
  into: string,
  name: string,
  path: string,
  adopted: { moved: string[]; keptBeside: { path: string; as: string }[] },
  now: () => Date,
): Promise<void> {
  const source = join(from, name);
  const target = join(into, name);
  const there = await lstat(target).catch(() => undefined);
  if (there === undefined) {
    await moveOrExplain(source, target, path);
    adopted.moved.push(path);
    return;
  }
  const here = await lstat(source);
  if (here.isDirectory() && there.isDirectory()) {
    for (const child of await readdir(source)) {
      await adoptEntry(source, target, child, `${path}/${child}`, adopted, now);
    }
    // Emptied: the folder itself is the cache folder's already.
    await rmdir(source).catch(() => undefined);
    return;
  }
  const taken = new Set(await readdir(into));
  const as = conflictedCopyName(name, now(), (candidate) => taken.has(candidate));
  await moveOrExplain(source, join(into, as), path);
  adopted.keptBeside.push({ path, as: path.slice(0, path.length - name.length) + as });
}

async function moveOrExplain(source: string, target: string, path: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new MountError(
      'MOUNT_POINT_NOT_EMPTY',
      code === 'EXDEV'
        ? `"${path}" was put in the folder while it did not show the device's files, and cannot be moved to the cache folder (it is on another disk). Move it out of the folder, then back in once the folder shows the device's files.`
        : `"${path}" was put in the folder while it did not show the device's files, and cannot be moved to the cache folder (${String(code)}). Move it out of the folder, then back in once the folder shows the device's files.`,
      { cause: error },
    );
  }
}
