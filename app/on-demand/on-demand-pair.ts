// A pair made on demand: FUSE checked, the folder's files moved into its cache folder (nothing copied, nothing lost), the record written.
import { chmod, lstat, mkdir, readdir, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PLACEHOLDER_MARK, PLACEHOLDER_XATTR } from '../mount/hydration-protocol.ts';
import { placeholderAttributes } from '../sync/local/placeholders.ts';
import { MchError } from '../../common/errors.ts';
import { loadFuseAddon } from '../mount/fuse-addon.ts';
import { MountError } from '../mount/mount-errors.ts';
import { cleanStaleMount, isOurMount } from '../mount/stale-mount.ts';
import {
  DEFAULT_CACHE_LIMIT_BYTES,
  defaultCacheFolder,
  readPairOnDemand,
  updatePairOnDemand,
  type PairOnDemand,
} from '../profile/pair-on-demand.ts';
import { nativeFileAttributes } from '../sync/local/native-scan.ts';
import { appFile } from '../app-files.ts';

export class OnDemandError extends MchError {
  declare readonly code: 'ON_DEMAND_UNAVAILABLE' | 'ON_DEMAND_MOVE_FAILED';

  constructor(code: OnDemandError['code'], message: string, options?: { cause?: unknown }) {
    super(
      code,
      code === 'ON_DEMAND_UNAVAILABLE' ? 'Files on demand are not available here' : 'Could not switch',
      message,
      options,
    );
  }
}

/** Why files on demand cannot work on this computer, with what to do; undefined when they can. */
export function onDemandUnavailable(): string | undefined {
  if (process.platform !== 'linux') {
    return 'Files on demand need FUSE, which this client uses on Linux only: choose the folders to keep here with selective sync (`mch-sync select`).';
  }
  if (nativeFileAttributes() === undefined) {
    return 'The native addon is not built: install a C compiler (build-essential), run `npm run build:native`, or use selective sync.';
  }
  let missing: string | null;
  try {
    missing = loadFuseAddon(appFile('native/build/Release/mch_fuse.node')).fuseUnavailable();
  } catch (error) {
    return error instanceof MountError ? error.message : String(error);
  }
  return missing === null
    ? undefined
    : `${missing} Install libfuse2 and fuse3 (Debian, Ubuntu: sudo apt install libfuse2 fuse3), or use selective sync.`;
}

/** Placeholders are marked by an extended attribute: a cache folder's file system must keep them. */
async function checkAttributes(cache: string): Promise<void> {
  const probe = join(cache, `.mch-probe-${process.pid}`);
  await writeFile(probe, '');
  try {
    placeholderAttributes().setAttribute(probe, PLACEHOLDER_XATTR, Buffer.from(PLACEHOLDER_MARK));
  } catch (error) {
    throw new OnDemandError(
      'ON_DEMAND_UNAVAILABLE',
      `The disk of the profile (${cache}) keeps no extended attributes, which files on demand need (${String((error as { code?: unknown }).code)}): use a profile on another disk (--profile), or selective sync.`,
      { cause: error },
    );
  } finally {
    await unlink(probe).catch(() => undefined);
  }
}

/**
 * Makes the recorded pair of `localRoot` on demand. What the folder holds moves, by one rename, into the
 * cache folder (same disk: the index's inodes and the folder's marker go along, so nothing is synced
 * again), and the folder is made again, empty, for the mount. Nothing is copied and nothing deleted.
 * The live service must not run (the caller checks).
 */
export async function makePairOnDemand(profileDir: string, localRoot: string): Promise<PairOnDemand> {
  const already = readPairOnDemand(profileDir, localRoot);
  if (already !== undefined) return already;
  const why = onDemandUnavailable();
  if (why !== undefined) throw new OnDemandError('ON_DEMAND_UNAVAILABLE', why);
  // A mount left by a crash would hide the folder's own state from the checks below.
  if (await isOurMount(localRoot)) await cleanStaleMount(localRoot);
  const cache = defaultCacheFolder(profileDir, localRoot);
  await mkdir(cache, { recursive: true, mode: 0o700 });
  await checkAttributes(cache);
  const stats = await lstat(localRoot);
  if ((await readdir(localRoot)).length > 0) {
    if ((await readdir(cache)).length > 0) {
      throw new OnDemandError(
        'ON_DEMAND_MOVE_FAILED',
        `Both ${localRoot} and its cache folder ${cache} hold files: move one of them away first.`,
      );
    }
    await rmdir(cache);
    try {
      await rename(localRoot, cache);
    } catch (error) {
      await mkdir(cache, { recursive: true, mode: 0o700 });
      const code = (error as { code?: unknown }).code;
      throw new OnDemandError(
        'ON_DEMAND_MOVE_FAILED',
        code === 'EXDEV'
          ? `${localRoot} is on another disk than the profile (${profileDir}): its files cannot move into the cache folder without a copy. Use a profile on the same disk, or start with an empty folder.`
          : `${localRoot} could not be moved into the cache folder (${String(code)}).`,
        { cause: error },
      );
    }
    await mkdir(localRoot, { mode: stats.mode & 0o7777 });
    await chmod(cache, 0o700);
  }
  return (await updatePairOnDemand(profileDir, localRoot, () => ({
    cache,
    pinned: [],
    cacheLimitBytes: DEFAULT_CACHE_LIMIT_BYTES,
  }))) as PairOnDemand;
}
