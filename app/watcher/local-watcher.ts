// Watches the synced folder with chokidar and hands the live service debounced, cleaned batches of local changes.
import type { BigIntStats } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WrittenItem } from '../sync/engine-events.ts';
import type { ItemKind, RelativePath } from '../model/items.ts';
import { scanLocalFolder } from '../sync/local/scanner.ts';
import { startChokidarSource } from './chokidar-source.ts';
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';
import { Debouncer } from './debouncer.ts';
import { ExpectedEchoes, type EchoKind } from './expected-echoes.ts';
import {
  defaultSourceKind,
  type FolderEventSink,
  type FolderEventSource,
  type FolderEventSourceKind,
} from './folder-event-source.ts';
import { startFolderWatches } from './folder-watches.ts';
import { lstatQuietly } from '../system/lstat-quietly.ts';
import { UnwatchedFolders } from './unwatched-folders.ts';
import { liveWatchError, rootChangedError, type LiveWatchError, type RescanReason } from './watch-errors.ts';
import { EventCleaner, type KnownItem, type LocalChange, type RawEventType } from './watch-events.ts';

/** One batch for the live service: run an incremental pass over `affectedPaths`. Never empty. */
export interface LocalChangeBatch {
  changes: LocalChange[];
  affectedPaths: RelativePath[];
}

export interface LocalWatcherOptions {
  /** The synced folder. */
  root: string;
  onBatch: (batch: LocalChangeBatch) => void;
  /** Events cannot be trusted (an error, the root vanished): run a full rescan; show `message`. */
  onRescanNeeded: (reason: RescanReason, message: string, error: LiveWatchError) => void;
  /** Quiet time before a batch goes out (default 300 ms). */
  debounceMs?: number;
  /**
   * Quiet time instead when every pending event is half of a rename already paired by inode (default
   * 50 ms, never more than `debounceMs`; see `EventCleaner.settled`): a lone rename goes out at once.
   */
  settledDebounceMs?: number;
  /** A batch goes out at the latest this long after its first event (default 2000 ms). */
  maxWaitMs?: number;
  /** An unlink and an add of the same inode this close together are one move (default 1000 ms). */
  moveWindowMs?: number;
  /**
   * The item last synced at a path (from the index). Without it, the watcher scans the folder once at
   * start (and after each rescan request) to know the inodes of items it has not seen events for.
   */
  knownItem?: (path: RelativePath) => KnownItem | undefined;
  /** Paths excluded by `.mchignore` rules, never reported. */
  isIgnored?: (path: RelativePath, kind: ItemKind) => boolean;
  /** What watches the folder (default: `defaultSourceKind()`, our own on Linux, chokidar elsewhere). */
  source?: FolderEventSourceKind;
  clock?: Clock;
}

export interface ExpectEchoOptions {
  /** For a move: where the item is now. */
  fromPath?: RelativePath;
  /** How long the echo is waited for (default 10 s); expect it right before the rename, not before a download. */
  withinMs?: number;
  /** For a file written: what the write leaves at the path; anything else there then is no echo. */
  item?: WrittenItem;
}

export interface LocalWatcher {
  /** Resolves once every folder is watched; changes made before may be missed (a full pass covers them). */
  ready: Promise<void>;
  /** Stops watching; pending events are dropped. */
  close(): Promise<void>;
  /**
   * The executor is about to make this change itself: the matching event is swallowed once. Returns a
   * function that withdraws the expectation (call it if the change failed).
   */
  expectEcho(path: RelativePath, kind: EchoKind, options?: ExpectEchoOptions): () => void;
  /** Sends what is pending now instead of after the quiet time (tests, shutdown of a pass). */
  flush(): void;
  /**
   * The subtrees holding folders the inotify watch limit left unwatched: no event will say what
   * changes there, so every poll reads them from disk. Empty (the common case) while all are watched.
   */
  unwatchedPaths(): RelativePath[];
  /**
   * Resolves once no deletion the watcher saw waits to go out (in its move window, or in a batch not
   * sent yet); at once when none does. A pass started meanwhile would see part of an `rm -rf` and send
   * those deletes before the guard can see the whole.
   */
  deletionsOut(): Promise<void>;
  /** Whether a deletion the watcher saw waits to go out (deletionsOut would wait). */
  deletionsWaiting(): boolean;
}

/**
 * Starts watching `root` with one watch per folder (our own or chokidar 6, see folder-event-source.ts),
 * never following symlinks, ignoring the state folder and temporary names. Every add and change is
 * lstat'ed at once (bigint inode, like the scanner) so that a later unlink of the same item can be
 * paired with where it shows up.
 */
export function startLocalWatcher(options: LocalWatcherOptions): LocalWatcher {
  const root = resolve(options.root);
  const clock = options.clock ?? systemClock;
  const echoes = new ExpectedEchoes((path) => lstatQuietly(join(root, path)));
  const cleanerOptions: ConstructorParameters<typeof EventCleaner>[0] = { echoes };
  if (options.moveWindowMs !== undefined) cleanerOptions.moveWindowMs = options.moveWindowMs;
  if (options.knownItem !== undefined) cleanerOptions.knownItem = options.knownItem;
  if (options.isIgnored !== undefined) cleanerOptions.isIgnored = options.isIgnored;
  const cleaner = new EventCleaner(cleanerOptions);
  let closed = false;
  let rescan: LiveWatchError | undefined;
  let holdTimer: TimerHandle | undefined;
  /** Files reported since the last batch: the cleaner learns them only when it drains. */
  const filesSinceBatch = new Set<RelativePath>();
  /** Files replaced by a folder since the last batch (see `claimReplacedFile`). */
  const foldersSinceBatch = new Set<RelativePath>();

  const seed = (): void => {
    if (options.knownItem === undefined) cleaner.seed(scanLocalFolder(root).entries);
    else cleaner.seed([]);
  };

  /** Passes waiting for the deletions the watcher holds to go out (deletionsOut). */
  const deletionWaiters: Array<() => void> = [];
  const deletionsWentOut = (): void => {
    if (cleaner.pendingDeletions === 0) for (const resolve of deletionWaiters.splice(0)) resolve();
  };

  const flush = (): void => {
    if (closed) return;
    if (rescan !== undefined) {
      const error = rescan;
      rescan = undefined;
      // The rescan sees everything the pending events would say, and the events may be incomplete.
      seed();
      options.onRescanNeeded(error.reason, error.message, error);
      deletionsWentOut();
      return;
    }
    const batch = cleaner.drain(clock.now());
    filesSinceBatch.clear();
    foldersSinceBatch.clear();
    if (holdTimer !== undefined) clock.clearTimeout(holdTimer);
    holdTimer = undefined;
    if (batch.heldUntilMs !== undefined) {
      holdTimer = clock.setTimeout(flush, batch.heldUntilMs - clock.now());
    }
    if (batch.changes.length > 0) {
      options.onBatch({ changes: batch.changes, affectedPaths: batch.affectedPaths });
    }
    deletionsWentOut();
  };

  const debouncer = new Debouncer({
    quietMs: options.debounceMs ?? 300,
    maxWaitMs: options.maxWaitMs ?? 2000,
    settledQuietMs: options.settledDebounceMs ?? 50,
    // A rescan waits out the long quiet time: the events that led to it may go on.
    isSettled: () => rescan === undefined && cleaner.settled,
    onFire: flush,
    clock,
  });

  const requestRescan = (error: LiveWatchError): void => {
    rescan ??= error;
    debouncer.trigger();
  };

  const onEvent = (event: RawEventType, relative: RelativePath, sourceStats?: BigIntStats): void => {
    if (closed) return;
    const atMs = clock.now();
    if (event === 'unlink' || event === 'unlinkDir') {
      // A file made and gone again before anyone saw it (a temporary file renamed over another, say):
      // with the scan's seed everything there at ready is known and everything made since was
      // reported. The index (`knownItem`) lacks what a running pass has not recorded yet: kept then.
      if (
        event === 'unlink' &&
        options.knownItem === undefined &&
        !filesSinceBatch.has(relative) &&
        cleaner.knownItemAt(relative) === undefined
      ) {
        return;
      }
      cleaner.push({ type: event, path: relative, atMs });
      debouncer.trigger();
      return;
    }
    const stats = sourceStats ?? lstatQuietly(join(root, relative));
    // Gone already: the source reports the unlink next.
    if (stats === undefined) return;
    const isFolder = stats.isDirectory();
    if (!isFolder && !stats.isFile()) {
      // A symlink or special file is never synced; if it replaced a synced item, that item is gone.
      const known = cleaner.knownItemAt(relative);
      if (known === undefined) return;
      cleaner.push({ type: known.kind === 'folder' ? 'unlinkDir' : 'unlink', path: relative, atMs });
    } else {
      if (!isFolder) filesSinceBatch.add(relative);
      cleaner.push({
        type: isFolder ? 'addDir' : event === 'change' ? 'change' : 'add',
        path: relative,
        inode: stats.ino.toString(),
        size: isFolder ? 0 : Number(stats.size),
        mtimeNs: stats.mtimeNs,
        atMs,
      });
    }
    debouncer.trigger();
  };

  const unwatched = new UnwatchedFolders(root);
  const sink: FolderEventSink = {
    event: onEvent,
    rootVanished: () => {
      if (!closed) requestRescan(rootChangedError(root));
    },
    claimReplacedFile: (path) => {
      if (foldersSinceBatch.has(path)) return false;
      if (!filesSinceBatch.has(path) && cleaner.knownItemAt(path)?.kind !== 'file') return false;
      // Seen as a file until the batch drains: the name's next event must not count again.
      foldersSinceBatch.add(path);
      return true;
    },
    error: (error) => {
      if (closed) return;
      // Each folder the watch limit leaves unwatched is reported (the rest of a big first walk, a
      // folder made later); polls read them from then on. The first one asks for the rescan that
      // catches up and tells the user, with the command that raises the limit; a full rescan per later
      // folder would cost a large tree dearly and tell nothing new.
      const first = unwatched.size === 0;
      if (unwatched.note(error) && !first) return;
      requestRescan(liveWatchError(error));
    },
  };

  const sourceOptions = { root, sink };
  const source: FolderEventSource =
    (options.source ?? defaultSourceKind()) === 'native'
      ? startFolderWatches(sourceOptions)
      : startChokidarSource(sourceOptions);
  // Seeded once every folder is watched: what is there then is known, what comes later is reported.
  // Events before are dropped with it (the live service's first pass starts after `ready`).
  const ready = source.ready.then(() => {
    if (!closed) seed();
  });

  return {
    ready,
    close: async () => {
      closed = true;
      for (const resolve of deletionWaiters.splice(0)) resolve();
      debouncer.cancel();
      if (holdTimer !== undefined) clock.clearTimeout(holdTimer);
      holdTimer = undefined;
      await source.close();
    },
    expectEcho: (path, kind, expectOptions = {}) =>
      echoes.expect(
        path,
        kind,
        clock.now() + (expectOptions.withinMs ?? 10_000),
        expectOptions.fromPath,
        expectOptions.item,
      ),
    flush: () => {
      debouncer.cancel();
      flush();
    },
    unwatchedPaths: () => unwatched.affectedPaths(),
    deletionsWaiting: () => !closed && cleaner.pendingDeletions > 0,
    deletionsOut: () =>
      closed || cleaner.pendingDeletions === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => deletionWaiters.push(resolve)),
  };
}
