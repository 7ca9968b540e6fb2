// chokidar 6 as a folder event source: its five events, its per-folder errors, and the raw-event fix for a file replaced by a folder.
import { isAbsolute, join, relative, sep } from 'node:path';
import { watch } from 'chokidar';
import type { RelativePath } from '../model/items.ts';
import type { FolderEventSource, FolderEventSourceOptions } from './folder-event-source.ts';
import { lstatQuietly } from '../system/lstat-quietly.ts';
import { chokidarWatchOptions, isNeverWatched } from './watch-options.ts';
import type { RawEventType } from './local-changes.ts';

function isRawEventType(event: string): event is RawEventType {
  return (
    event === 'add' || event === 'addDir' || event === 'change' || event === 'unlink' || event === 'unlinkDir'
  );
}

function toRelativePath(path: string): RelativePath {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Watches `root` with chokidar 6 as watch-options.ts configures it. */
export function startChokidarSource({ root, sink }: FolderEventSourceOptions): FolderEventSource {
  let closed = false;
  const watcher = watch(root, chokidarWatchOptions(root));
  watcher.on('all', (event, path) => {
    if (closed || !isRawEventType(event)) return;
    const relativePath = toRelativePath(path);
    if (relativePath !== '') sink.event(event, relativePath);
    else if (event === 'unlinkDir') sink.rootVanished();
  });
  /**
   * chokidar 6 says nothing when a file is replaced by a folder of the same name, and does not watch
   * inside that folder (its issues #165 and #996; soak seed 5059): only the raw event of the name
   * shows it. The unlink and addDir it should have sent are made here, and the folder is watched.
   */
  watcher.on('raw', (type: string, name: unknown, details: unknown) => {
    const folder = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (closed || type !== 'rename' || typeof name !== 'string' || typeof folder !== 'string') return;
    const absolute = join(isAbsolute(folder) ? folder : join(root, folder), name);
    const path = relative(root, absolute);
    if (path === '' || path.startsWith('..') || isNeverWatched(root, absolute)) return;
    // Most raw events are of files, and a folder that was no file needs nothing.
    if (lstatQuietly(absolute)?.isDirectory() !== true || !sink.claimReplacedFile(toRelativePath(path)))
      return;
    sink.event('unlink', toRelativePath(path));
    sink.event('addDir', toRelativePath(path));
    watcher.add(absolute);
  });
  watcher.on('error', (error: unknown) => {
    if (!closed) sink.error(error);
  });
  const ready = new Promise<void>((resolveReady) => {
    watcher.once('ready', () => resolveReady());
  });
  return {
    ready,
    close: async () => {
      closed = true;
      await watcher.close();
    },
  };
}
