// chokidar as the live watcher configures it, its first walk bounded to a few file system calls at a time (an experiment of issue 19).
//
// Why: chokidar 6 reads every folder of the tree at once and readdirp lstat's every entry, so when the
// first walk peaks nearly every file of the tree has a pending request (a promise, its stats buffer,
// an entry object). glibc keeps most of that memory after it is freed: measured by
// bench/watcher-memory.bench.ts. chokidar has no option for it; its fs calls are the `node:fs/promises`
// functions, which are replaced by bounded ones until the walk is done (Node's builtin ESM exports
// follow `fs.promises` once `syncBuiltinESMExports()` is called). The bound is process-wide because
// the functions are: several watchers starting together share it and the last one to be ready puts
// the originals back. A readdirp stream made meanwhile keeps the bounded function it read, which
// still calls the original. Not in the service: patching node:fs/promises for the whole process is
// not something to ship; bench/watcher-memory measures what it would save (docs/benchmarks.md).
import { promises as fsPromises } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { watch, type FSWatcher } from 'chokidar';
import { chokidarWatchOptions } from '../../app/watcher/watch-options.ts';

/** Calls in flight during the first walk: enough to keep libuv's 4 threads busy, far below a tree's files. */
export const DEFAULT_WALK_CONCURRENCY = 64;

type FsCall = (...args: never[]) => Promise<unknown>;
/** The walk's calls: chokidar's reconcile and readdirp import exactly these from `node:fs/promises`. */
const WALK_CALLS = ['lstat', 'stat', 'readdir'] as const;
type WalkCall = (typeof WALK_CALLS)[number];

/** The bound in force while at least one watcher walks (state of a process-wide patch, so module-level). */
let walking: { watchers: number; originals: Record<WalkCall, FsCall> } | undefined;

function bounded(call: FsCall, limit: number): FsCall {
  let running = 0;
  // A queue read from `next`: Array.shift() on a queue of a whole tree's files is quadratic.
  let waiting: ((() => void) | undefined)[] = [];
  let next = 0;
  /** A finished call hands its slot to the first waiting one, so the bound holds at every moment. */
  const release = (): void => {
    const go = waiting[next];
    if (go === undefined) {
      running -= 1;
      return;
    }
    waiting[next] = undefined;
    next += 1;
    if (next === waiting.length) {
      waiting = [];
      next = 0;
    }
    go();
  };
  return async (...args) => {
    if (running < limit) running += 1;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await call(...args);
    } finally {
      release();
    }
  };
}

function beginWalk(limit: number): () => void {
  const calls = fsPromises as unknown as Record<WalkCall, FsCall>;
  if (walking === undefined) {
    const originals = { lstat: calls.lstat, stat: calls.stat, readdir: calls.readdir };
    for (const name of WALK_CALLS) calls[name] = bounded(originals[name], limit);
    syncBuiltinESMExports();
    walking = { watchers: 0, originals };
  }
  walking.watchers += 1;
  let ended = false;
  return () => {
    if (ended || walking === undefined) return;
    ended = true;
    walking.watchers -= 1;
    if (walking.watchers > 0) return;
    for (const name of WALK_CALLS) calls[name] = walking.originals[name];
    syncBuiltinESMExports();
    walking = undefined;
  };
}

export interface ChokidarWatchOptions {
  /** lstat/stat/readdir calls in flight during the first walk (default 64). */
  walkConcurrency?: number;
}

/**
 * `watch(root, chokidarWatchOptions(root))`, its first walk bounded until `ready` (or `close`).
 * `root` must be absolute.
 */
export function watchWithChokidar(root: string, options: ChokidarWatchOptions = {}): FSWatcher {
  const endWalk = beginWalk(Math.max(1, options.walkConcurrency ?? DEFAULT_WALK_CONCURRENCY));
  let watcher: FSWatcher;
  try {
    watcher = watch(root, chokidarWatchOptions(root));
  } catch (error) {
    endWalk();
    throw error;
  }
  watcher.once('ready', endWalk);
  const close = watcher.close.bind(watcher);
  watcher.close = () => {
    endWalk();
    return close();
  };
  return watcher;
}
