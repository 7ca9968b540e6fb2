// The mount's native addon (app/native/fuse-*.c), loaded only by the mount process and tests.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FreeRefused } from './hydration-protocol.ts';
import { MountError } from './mount-errors.ts';

/** Called on a FUSE thread's behalf when a placeholder must be hydrated; `path` is cache-relative. */
export type HydrateCallback = (req: number, path: string, pid: number, process: string) => void;

export interface MountOptions {
  /** The cache folder, absolute, without a trailing slash. */
  readonly source: string;
  /** Where the passthrough is mounted; never read by this process. */
  readonly mountPoint: string;
  /** libfuse's `-o` options, comma-separated (`MOUNT_OPTIONS`). */
  readonly options: string;
  readonly noDownload: readonly string[];
  readonly onHydrate: HydrateCallback;
  /**
   * How long the service may say nothing (no started, progress or done) about a hydration before the
   * opens and reads waiting for it get EIO; 120 s when not given (`HYDRATION_ANSWER_TIMEOUT_MS`).
   */
  readonly answerTimeoutMs?: number;
  /** Called once when the mount ends without unmount() (`fusermount -u` or `umount` from outside). */
  readonly onEnded?: () => void;
}

/** The waiting limit of a hydration the service stopped answering (its own stall limit is 15 s). */
export const HYDRATION_ANSWER_TIMEOUT_MS = 120_000;

/** Why a free left the file as it was (hydration-protocol.ts's FreeRequest). */
export interface FreeRefusal {
  readonly errno: FreeRefused['errno'];
  readonly message: string;
}

export interface FuseAddon {
  /** Mounts and starts libfuse's threads; throws an error whose `code` is FUSE_UNAVAILABLE or MOUNT_FAILED. */
  mount(options: MountOptions): void;
  /** Detaches the mount; true when libfuse's loop ended within 2 s (false: a file is still held open). */
  unmount(): boolean;
  hydrationStarted(req: number, size: number): void;
  hydrationProgress(req: number, bytes: number): void;
  hydrationDone(req: number): void;
  /** `errno` is the number (os.constants.errno) the waiting open or read returns. */
  hydrationFailed(req: number, errno: number): void;
  /**
   * Makes the cache folder's file at `path` (cache-relative) a placeholder again, on libuv's thread pool:
   * null when it is one now, else why it was left as it is. Throws on arguments of the wrong type.
   */
  free(path: string, size: number, mtimeNs: bigint): Promise<FreeRefusal | null>;
  /** Why FUSE cannot be used here (libfuse2 or /dev/fuse missing), or null. */
  fuseUnavailable(): string | null;
  /** The C matcher of the no-download list, to hold it to no-download.ts in tests. */
  matchesNoDownload(name: string, patterns: readonly string[]): boolean;
}

/**
 * libfuse's options: attributes and entries cached 10 s, so a listing of a big folder does not ask again
 * for what it just read (a second `ls -lR` of 100,000 entries: 1.4× the plain folder, against 9× at
 * 1 s). The engine rewrites files in the cache folder behind the mount: a `stat` may show the old size
 * or time for that long, but what is read is the file as it is now (a longer or shorter version read
 * whole at once: the mount test "reads a file the engine replaced behind it whole"); page cache kept
 * only while size and mtime hold (`auto_cache`), the cache folder's inodes, permissions checked by the
 * kernel, an unlinked open file removed at once (no .fuse_hidden).
 */
export const MOUNT_OPTIONS = [
  'fsname=mch-sync',
  'subtype=mch-sync',
  'default_permissions',
  'use_ino',
  'auto_cache',
  'attr_timeout=10',
  'entry_timeout=10',
  'negative_timeout=0',
  'hard_remove',
  'big_writes',
].join(',');

/**
 * Where the addon is beside this module (app/ or dist/app/). The mount process always runs this module
 * from there; a caller whose modules may sit elsewhere (the installed command's bundle) passes its own.
 */
const ADDON = fileURLToPath(new URL('../native/build/Release/mch_fuse.node', import.meta.url));

let loaded: FuseAddon | undefined;

/** The addon (at `addonPath`, by default beside this module); throws FUSE_UNAVAILABLE where it was not built (not Linux, no compiler). */
export function loadFuseAddon(addonPath: string = ADDON): FuseAddon {
  if (loaded !== undefined) return loaded;
  if (process.platform !== 'linux' || !existsSync(addonPath)) {
    throw new MountError(
      'FUSE_UNAVAILABLE',
      process.platform === 'linux'
        ? 'The mount addon is not built: install a C compiler (build-essential) and run npm run build:native.'
        : 'Files on demand through FUSE are for Linux only.',
    );
  }
  loaded = createRequire(import.meta.url)(addonPath) as FuseAddon;
  return loaded;
}
