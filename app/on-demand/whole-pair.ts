// An on-demand pair made whole again: every placeholder brought down first, then the cache folder moved back to the pair's folder by one rename.
import { mkdir, readdir, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanStaleMount, isOurMount } from '../mount/stale-mount.ts';
import { readPairOnDemand, updatePairOnDemand } from '../profile/pair-on-demand.ts';
import { dropPlaceholdersBelow, isPlaceholder } from '../sync/local/placeholders.ts';
import { STATE_FOLDER_NAME } from '../model/names.ts';
import { OnDemandError } from './on-demand-pair.ts';

/** The placeholders left below `folder` (cache-relative paths), at most `limit` of them. */
export async function placeholdersIn(folder: string, limit = 20): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(folder, relative), { withFileTypes: true });
    for (const entry of entries) {
      if (found.length >= limit) return;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (relative === '' && entry.name === STATE_FOLDER_NAME) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && isPlaceholder(join(folder, path))) found.push(path);
    }
  };
  await walk('');
  return found;
}

/**
 * Makes the on-demand pair of `localRoot` hold every file again. `bringDown` runs a pass that keeps
 * everything whole (the caller's: it signs in and syncs); any placeholder left after it (offline, no
 * room) stops the switch with nothing changed. Then the pair's (empty, unmounted) folder is replaced
 * by the cache folder, one rename: the index's inodes and the folder's marker go along, so the next
 * pass finds everything synced. The live service must not run (the caller checks, under the lock).
 */
export async function makePairWhole(
  profileDir: string,
  localRoot: string,
  bringDown: () => Promise<void>,
): Promise<void> {
  const onDemand = readPairOnDemand(profileDir, localRoot);
  if (onDemand === undefined) return;
  if (await isOurMount(localRoot)) await cleanStaleMount(localRoot);
  if ((await readdir(localRoot)).length > 0) {
    throw new OnDemandError(
      'ON_DEMAND_MOVE_FAILED',
      `${localRoot} holds files of its own (not through the on-demand mount): move them away first.`,
    );
  }
  await bringDown();
  const left = await placeholdersIn(onDemand.cache);
  if (left.length > 0) {
    throw new OnDemandError(
      'ON_DEMAND_MOVE_FAILED',
      `Not every file could be downloaded (${left.slice(0, 3).join(', ')}${left.length > 3 ? '…' : ''} ` +
        `${left.length === 1 ? 'is' : 'are'} still only on the device): nothing was changed. Try again when the device can be reached and the disk has room.`,
    );
  }
  await rmdir(localRoot);
  try {
    await rename(onDemand.cache, localRoot);
  } catch (error) {
    await mkdir(localRoot).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    throw new OnDemandError(
      'ON_DEMAND_MOVE_FAILED',
      code === 'EXDEV'
        ? `The cache folder ${onDemand.cache} is on another disk than ${localRoot}: its files cannot move back without a copy. Copy them yourself, or keep the folder on demand.`
        : `The cache folder could not be moved back to ${localRoot} (${String(code)}).`,
      { cause: error },
    );
  }
  await updatePairOnDemand(profileDir, localRoot, () => undefined);
}

/**
 * The files of an on-demand pair being forgotten: its placeholders go (their content is on the device,
 * and nothing syncs them any more), and what was here whole moves back into the pair's folder (empty
 * and unmounted), so the user keeps their files where they had them. Says whether anything moved.
 */
export async function releaseCache(cache: string, localRoot: string): Promise<boolean> {
  if (await isOurMount(localRoot)) await cleanStaleMount(localRoot);
  const empty = await dropPlaceholdersBelow(cache).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') return true;
    throw error;
  });
  if (empty) return false;
  if ((await readdir(localRoot).catch(() => [])).length > 0) {
    throw new OnDemandError(
      'ON_DEMAND_MOVE_FAILED',
      `${localRoot} holds files of its own: the files kept in ${cache} stay there; move them yourself.`,
    );
  }
  await rmdir(localRoot).catch(() => undefined);
  await rename(cache, localRoot);
  return true;
}
