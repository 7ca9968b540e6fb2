// What the live watcher needs from whatever watches the synced folder: the five events with relative paths, per-folder errors and the root vanishing.
import type { BigIntStats } from 'node:fs';
import type { RelativePath } from '../model/items.ts';
import type { RawEventType } from './local-changes.ts';

/**
 * `native`: our own watcher, one `fs.watch` per folder and no stat per file (folder-watches.ts);
 * `chokidar`: chokidar 6 (chokidar-source.ts). See `defaultSourceKind`.
 */
export type FolderEventSourceKind = 'native' | 'chokidar';

/** Where a source sends what it sees. */
export interface FolderEventSink {
  /**
   * One event. `path` is relative to the root with `/` separators, never ''. `stats` is the source's
   * own lstat of the path (bigint) when it made one, so it is not made twice.
   */
  event(type: RawEventType, path: RelativePath, stats?: BigIntStats): void;
  /**
   * A watch failed. One that names a folder the inotify watch limit left unwatched carries the errno
   * `ENOSPC` and the folder in `error.path` (UnwatchedFolders reads both); the source goes on with
   * the other folders.
   */
  error(error: unknown): void;
  /** The watched root itself was deleted, moved or replaced. */
  rootVanished(): void;
  /**
   * `path`, a folder now, was a file the watcher knows (seen since the last batch or known to the
   * cleaner): it was replaced by this folder, and the source reports the file's unlink before the
   * folder's addDir. True once per replacement until the next batch.
   */
  claimReplacedFile(path: RelativePath): boolean;
}

/** A running source. */
export interface FolderEventSource {
  /** Resolves once every folder is watched (or found unwatchable). */
  readonly ready: Promise<void>;
  /** Stops watching; nothing reaches the sink afterwards. */
  close(): Promise<void>;
}

export interface FolderEventSourceOptions {
  /** The synced folder, absolute (resolved). */
  root: string;
  sink: FolderEventSink;
}

/**
 * Our own watcher on Linux, where chokidar's first walk (an lstat of every file, all in flight) costs
 * 13-20× `find` and holds hundreds of MB (docs/benchmarks.md, "Watcher memory (issue 19)"). chokidar
 * elsewhere: ours relies on what `fs.watch` does on Linux (inotify, a name in every event, a watch that
 * follows its folder's inode), which other platforms do not promise.
 */
export function defaultSourceKind(platform: NodeJS.Platform = process.platform): FolderEventSourceKind {
  return platform === 'linux' ? 'native' : 'chokidar';
}
