// The folders the watcher could not watch because the inotify watch limit was reached: no event will ever say they changed, so polls read them from disk.
import { isAbsolute, relative, sep } from 'node:path';
import type { RelativePath } from '../model/items.ts';
import { collapseAffectedPaths } from './affected-paths.ts';
import { liveWatchError } from './watch-errors.ts';

/**
 * chokidar 6 reports one `error` per folder whose `fs.watch` failed, with the folder in `error.path`,
 * and walks on: with the limit reached, every folder it meets after that is reported the same way and
 * stays unwatched. Those folders are remembered here until the watcher is started again.
 */
export class UnwatchedFolders {
  readonly #root: string;
  readonly #folders = new Set<RelativePath>();

  /** `root`: the watched folder, absolute. */
  constructor(root: string) {
    this.#root = root;
  }

  /**
   * Records the folder of a watcher error when the error is the watch limit and names a folder inside
   * the root; true then. Other errors are not about one folder and are left to the caller.
   */
  note(error: unknown): boolean {
    if (liveWatchError(error).code !== 'WATCH_LIMIT') return false;
    const path = (error as { path?: unknown }).path;
    if (typeof path !== 'string') return false;
    const inside = relative(this.#root, isAbsolute(path) ? path : `${this.#root}${sep}${path}`);
    if (inside.startsWith('..') || isAbsolute(inside)) return false;
    this.#folders.add(sep === '/' ? inside : inside.split(sep).join('/'));
    return true;
  }

  get size(): number {
    return this.#folders.size;
  }

  /**
   * The subtrees a poll must read from disk to see what changed in the unwatched folders, few enough
   * for one pass (`['']`, the whole folder, when they are many). Empty while every folder is watched.
   */
  affectedPaths(): RelativePath[] {
    return this.#folders.size === 0 ? [] : collapseAffectedPaths(this.#folders);
  }
}
