// Our own folder event source for Linux: one non-recursive fs.watch per folder, folders found by reading them (no stat per file), each event turned into the five the cleaner takes.
import { watch, type BigIntStats, type Dirent, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RelativePath } from '../model/items.ts';
import type { FolderEventSource, FolderEventSourceOptions } from './folder-event-source.ts';
import { lstatQuietly } from '../system/lstat-quietly.ts';
import { isSkippedFolderError } from './watch-errors.ts';
import { isNeverWatched } from './watch-options.ts';

/**
 * Folders read at once. A handful keeps the thread pool busy without the pile-up of chokidar's walk
 * (every folder read and every file stat'ed at once), whose allocations glibc keeps afterwards.
 */
const WALK_CONCURRENCY = 8;

/**
 * A folder we know of: watched, or found unwatchable (the watch limit, no permission), or waiting for
 * the walk. This is all the state kept; nothing is kept per file.
 */
interface Folder {
  path: RelativePath;
  watcher: FSWatcher | undefined;
  /** Its inode when its watch was set up: a folder renamed over it has another. Unset until walked. */
  inode: bigint | undefined;
  /** Names of its subfolders that are known here too. */
  children: Set<string> | undefined;
  /** Made after the first walk: what it holds is reported as new when it is read. */
  announce: boolean;
}

/** Folders waiting to be watched and read, in the order found. */
class WalkQueue {
  readonly #items: Folder[] = [];
  #next = 0;
  active = 0;

  push(folder: Folder): void {
    this.#items.push(folder);
  }

  take(): Folder | undefined {
    const folder = this.#items[this.#next];
    if (folder === undefined) return undefined;
    this.#next += 1;
    // Read by index (shift() on a long queue is slow), emptied once read to the end.
    if (this.#next === this.#items.length) {
      this.#items.length = 0;
      this.#next = 0;
    }
    return folder;
  }

  get idle(): boolean {
    return this.active === 0 && this.#next === this.#items.length;
  }
}

function childPath(parent: RelativePath, name: string): RelativePath {
  return parent === '' ? name : `${parent}/${name}`;
}

/**
 * Watches `root` with one `fs.watch` per folder, never following symbolic links and never watching the
 * names `isNeverWatched` gives (the state folder, temporary names, partial downloads). Each event is
 * lstat'ed once: gone → unlink (unlinkDir for a known folder, whose watches below are closed); a folder
 * not known → addDir, then it is watched and read, and what it already holds is reported as added
 * (made before its watch existed; a duplicate of a later event is harmless); a file or link where a
 * known folder was → unlinkDir then add; else add (`rename`) or change (`change`).
 *
 * Node's `fs.watch` does not report an overflow of the inotify queue (libuv drops IN_Q_OVERFLOW), so a
 * storm of more events than the queue holds loses some silently, as it does under chokidar: the
 * regular polls and the hourly full rescan (safety-rescans.ts) are the safety net.
 */
export function startFolderWatches({ root, sink }: FolderEventSourceOptions): FolderEventSource {
  const folders = new Map<RelativePath, Folder>();
  const queue = new WalkQueue();
  let closed = false;
  let rootGone = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolveReady) => {
    markReady = resolveReady;
  });
  let isReady = false;
  /** The last add or change sent: a file being written gives one `change` per write, most alike. */
  let last: { path: RelativePath; size: bigint; mtimeNs: bigint } | undefined;

  const absolute = (path: RelativePath): string => (path === '' ? root : join(root, path));

  const send = (type: 'add' | 'change', path: RelativePath, stats: BigIntStats): void => {
    if (
      type === 'change' &&
      last?.path === path &&
      last.size === stats.size &&
      last.mtimeNs === stats.mtimeNs
    ) {
      return;
    }
    last = { path, size: stats.size, mtimeNs: stats.mtimeNs };
    sink.event(type, path, stats);
  };

  const register = (path: RelativePath, parent: Folder | undefined, announce: boolean): void => {
    const folder: Folder = { path, watcher: undefined, inode: undefined, children: undefined, announce };
    folders.set(path, folder);
    if (parent !== undefined) (parent.children ??= new Set()).add(basename(path));
    queue.push(folder);
    pump();
  };

  /** Forgets `folder` and every known folder below it, closing their watches. */
  const forget = (folder: Folder): void => {
    const slash = folder.path.lastIndexOf('/');
    folders.get(slash < 0 ? '' : folder.path.slice(0, slash))?.children?.delete(basename(folder.path));
    const stack = [folder];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      next.watcher?.close();
      folders.delete(next.path);
      for (const name of next.children ?? []) {
        const child = folders.get(childPath(next.path, name));
        if (child !== undefined) stack.push(child);
      }
    }
    if (last !== undefined && (last.path === folder.path || last.path.startsWith(`${folder.path}/`))) {
      last = undefined;
    }
  };

  const startWatch = (folder: Folder): FSWatcher | undefined => {
    try {
      const watcher = watch(absolute(folder.path), { persistent: true, encoding: 'utf8' }, (type, name) =>
        onEvent(folder, type, name),
      );
      watcher.on('error', (error: unknown) => {
        if (!closed && folders.get(folder.path) === folder && !isSkippedFolderError(error)) sink.error(error);
      });
      return watcher;
    } catch (error) {
      // ENOSPC (the watch limit) names the folder in `error.path`, as chokidar's error does.
      if (!isSkippedFolderError(error)) sink.error(error);
      return undefined;
    }
  };

  /** Sets up the watch of a folder, then reads it: nothing made in it after the watch is missed. */
  const visit = async (folder: Folder): Promise<void> => {
    const stats = lstatQuietly(absolute(folder.path));
    // Gone or replaced before its turn: the parent's event says so.
    if (stats?.isDirectory() !== true) return;
    folder.inode = stats.ino;
    folder.watcher = startWatch(folder);
    let entries: Dirent[];
    try {
      entries = await readdir(absolute(folder.path), { withFileTypes: true });
    } catch {
      // Unreadable (the scanner says why) or gone (its parent's event says so).
      return;
    }
    if (closed || folders.get(folder.path) !== folder) return;
    for (const entry of entries) {
      // The first walk looks at folders only. Symbolic links and special files are never synced, and
      // one in a new folder was never seen.
      if (folder.announce ? !entry.isDirectory() && !entry.isFile() : !entry.isDirectory()) continue;
      const path = childPath(folder.path, entry.name);
      if (isNeverWatched(root, join(root, path)) || folders.has(path)) continue;
      if (!folder.announce) {
        register(path, folder, false);
        continue;
      }
      const entryStats = lstatQuietly(absolute(path));
      if (entryStats?.isDirectory() === true) {
        sink.event('addDir', path, entryStats);
        register(path, folder, true);
      } else if (entryStats?.isFile() === true) {
        send('add', path, entryStats);
      }
    }
  };

  function pump(): void {
    while (!closed && queue.active < WALK_CONCURRENCY) {
      const folder = queue.take();
      if (folder === undefined) break;
      // Forgotten (or replaced) while it waited.
      if (folders.get(folder.path) !== folder) continue;
      queue.active += 1;
      void visit(folder).finally(() => {
        queue.active -= 1;
        pump();
      });
    }
    if (!isReady && queue.idle) {
      isReady = true;
      markReady();
    }
  }

  /** An event of the root's own watch about the root itself (deleted, moved away, replaced). */
  const rootChanged = (): boolean => {
    const stats = lstatQuietly(root);
    return stats?.isDirectory() !== true || stats.ino !== folders.get('')?.inode;
  };

  function onEvent(folder: Folder, type: string, name: string | null): void {
    if (closed || rootGone || folders.get(folder.path) !== folder) return;
    if (name === null) {
      // Linux always names the entry (or the watched folder itself); without a name nothing can be read.
      sink.error(new Error(`an event without a name in ${absolute(folder.path)}`));
      return;
    }
    // A watch reports its own folder's deletion or move under the folder's own name.
    if (name === basename(absolute(folder.path))) {
      if (folder.path === '' && rootChanged()) {
        rootGone = true;
        sink.rootVanished();
        return;
      }
      if (folder.path !== '' && lstatQuietly(absolute(folder.path))?.ino !== folder.inode) return;
    }
    const path = childPath(folder.path, name);
    if (isNeverWatched(root, join(root, path))) return;
    const stats = lstatQuietly(absolute(path));
    const known = folders.get(path);
    if (stats === undefined) {
      if (known === undefined) sink.event('unlink', path);
      else {
        forget(known);
        sink.event('unlinkDir', path);
      }
      return;
    }
    if (stats.isDirectory()) {
      // One whose turn in the walk is still to come reads what it holds then. A `change` of a known
      // folder is its own attributes.
      if (
        known !== undefined &&
        (known.inode === undefined || (type === 'change' && known.inode === stats.ino))
      ) {
        return;
      }
      if (known !== undefined) {
        // Another folder took its name: renamed over it, or made anew after a delete (which may reuse
        // the inode number, so the same number proves nothing). Its watch and those below are stale.
        forget(known);
        sink.event('unlinkDir', path);
      } else if (sink.claimReplacedFile(path)) {
        sink.event('unlink', path);
      }
      sink.event('addDir', path, stats);
      register(path, folder, true);
      return;
    }
    if (known !== undefined) {
      forget(known);
      sink.event('unlinkDir', path);
    }
    if (!stats.isFile()) {
      // A symbolic link or special file: never synced, but it may have replaced a file synced.
      sink.event('add', path, stats);
      return;
    }
    send(type === 'change' && known === undefined ? 'change' : 'add', path, stats);
  }

  register('', undefined, false);
  return {
    ready,
    close: async () => {
      closed = true;
      for (const folder of folders.values()) folder.watcher?.close();
      folders.clear();
      markReady();
    },
  };
}
