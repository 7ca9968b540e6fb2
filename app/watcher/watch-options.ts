// The options the live watcher gives chokidar, in one place so the watcher and the memory bench run the same configuration.
import { basename } from 'node:path';
import type { ChokidarOptions } from 'chokidar';
import { temporaryOrSystemReason } from '../sync/local/local-names.ts';
import { STATE_FOLDER_NAME } from '../model/names.ts';

/** Names chokidar need not watch at all: the same names the cleaner drops, tested on the last component. */
export function isNeverWatched(root: string, path: string): boolean {
  if (path === root) return false;
  const name = basename(path);
  return (
    name === STATE_FOLDER_NAME || temporaryOrSystemReason(name) !== undefined || name.endsWith('.mch-partial')
  );
}

/**
 * chokidar 6 with one watch per folder, never following symlinks, not reporting what is already there,
 * and not watching the state folder or temporary names. `root` must be absolute (resolved).
 */
export function chokidarWatchOptions(root: string): ChokidarOptions {
  return {
    cwd: root,
    ignoreInitial: true,
    followSymlinks: false,
    // The cleaner pairs unlink + add itself (by inode, not only by path), in one tested place.
    atomic: false,
    // Half-written files are the executor's concern (it checks size and mtime around an upload).
    awaitWriteFinish: false,
    // Unreadable folders are reported by the scanner, with a reason, on the next pass.
    ignorePermissionErrors: true,
    ignored: (path: string) => isNeverWatched(root, path),
  };
}
