// A child process of the watcher memory bench: watches a tree one way, says when it is ready, then answers `usage` and `snapshot PATH` on stdin.
//
// `node watcher-child.ts KIND ROOT`. Kept apart from the bench so a child loads nothing but what its
// kind needs: every module the bench itself imports would show in the child's RSS.
import { readdirSync, watch as fsWatch, type FSWatcher as NodeWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';

/**
 * What a child runs: nothing (Node's floor), a bare per-folder fs.watch, chokidar configured one way, the
 * service's own source alone (folder-watches.ts), or the live watcher as the service starts it
 * (`startLocalWatcher`, its cleaner seeded by a scan at ready) over either source.
 */
export type WatcherKind =
  | 'node'
  | 'minimal'
  | 'chokidar-defaults'
  | 'service'
  | 'service-no-ignored'
  | 'service-bounded-walk'
  | 'own-source'
  | 'local-watcher-native'
  | 'local-watcher-native-index'
  | 'local-watcher-chokidar';

export const WATCHER_KINDS: readonly WatcherKind[] = [
  'node',
  'minimal',
  'chokidar-defaults',
  'service',
  'service-no-ignored',
  'service-bounded-walk',
  'own-source',
  'local-watcher-native',
  'local-watcher-native-index',
  'local-watcher-chokidar',
];

/** The child's own figures, printed as JSON after `ready ` and `usage `. */
export interface ChildUsage {
  watchMs: number;
  cpuMs: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** V8's committed pages actually resident. */
  v8PhysicalMb: number;
  externalMb: number;
  events: number;
}

interface Running {
  /** When watching began, its modules loaded: the walk is timed from here. */
  started: bigint;
  close(): Promise<void>;
}

let events = 0;
const count = (): void => {
  events += 1;
};

/**
 * The lower bound: one fs.watch per folder, found by a synchronous walk that reads names and types only
 * (no stat per file), which is what chokidar 6 does underneath on Linux minus its bookkeeping.
 */
function startMinimal(root: string): Running {
  const started = process.hrtime.bigint();
  const watchers: NodeWatcher[] = [];
  const pending = [root];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    watchers.push(fsWatch(folder, { persistent: true }, count));
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) pending.push(join(folder, entry.name));
    }
  }
  return {
    started,
    close: async () => {
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** BENCH_WALK_CONCURRENCY: another bound for the bounded walk, to compare. */
const walkConcurrency =
  process.env['BENCH_WALK_CONCURRENCY'] === undefined
    ? undefined
    : Number(process.env['BENCH_WALK_CONCURRENCY']);

async function startChokidar(kind: WatcherKind, root: string): Promise<Running> {
  const { watch } = await import('chokidar');
  const { chokidarWatchOptions } = await import('../../app/watcher/watch-options.ts');
  const { watchWithChokidar } = await import('./bounded-chokidar.ts');
  const options =
    kind === 'chokidar-defaults'
      ? { ignoreInitial: true, followSymlinks: false }
      : kind === 'service-no-ignored'
        ? { ...chokidarWatchOptions(root), ignored: undefined }
        : chokidarWatchOptions(root);
  const started = process.hrtime.bigint();
  // The bounded walk is the live watcher's own factory, as the service would run it.
  const watcher =
    kind === 'service-bounded-walk'
      ? watchWithChokidar(root, walkConcurrency === undefined ? {} : { walkConcurrency })
      : watch(root, options);
  // The service listens to both; `raw` makes chokidar hand over every fs.watch callback.
  watcher.on('all', count);
  watcher.on('raw', count);
  watcher.on('error', count);
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return { started, close: () => watcher.close() };
}

/** The own source alone, its events counted: what the live watcher adds to it is the cleaner. */
async function startOwnSource(root: string): Promise<Running> {
  const { startFolderWatches } = await import('../../app/watcher/folder-watches.ts');
  const started = process.hrtime.bigint();
  const source = startFolderWatches({
    root,
    sink: { event: count, error: count, rootVanished: count, claimReplacedFile: () => false },
  });
  await source.ready;
  return { started, close: () => source.close() };
}

/**
 * `startLocalWatcher` as the live service starts it, over one source. `withIndex`: given `knownItem`,
 * as the service is when it passes the index's rows (`knownItemsFromIndex`), so no scan seeds it; the
 * tree has no index here, and nothing is looked up while nothing changes.
 */
async function startServiceWatcher(
  source: 'native' | 'chokidar',
  root: string,
  withIndex = false,
): Promise<Running> {
  const { startLocalWatcher } = await import('../../app/watcher/local-watcher.ts');
  const started = process.hrtime.bigint();
  const watcher = startLocalWatcher({
    root,
    source,
    onBatch: count,
    onRescanNeeded: count,
    ...(withIndex ? { knownItem: () => undefined } : {}),
  });
  await watcher.ready;
  return { started, close: () => watcher.close() };
}

function usage(watchMs: number): ChildUsage {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const mb = (bytes: number): number => bytes / 1024 / 1024;
  return {
    watchMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapUsedMb: mb(memory.heapUsed),
    heapTotalMb: mb(memory.heapTotal),
    v8PhysicalMb: mb(getHeapStatistics().total_physical_size),
    externalMb: mb(memory.external),
    events,
  };
}

async function main(kind: WatcherKind, root: string): Promise<void> {
  const running: Running =
    kind === 'node'
      ? { started: process.hrtime.bigint(), close: async () => undefined }
      : kind === 'minimal'
        ? startMinimal(root)
        : kind === 'own-source'
          ? await startOwnSource(root)
          : kind === 'local-watcher-native' || kind === 'local-watcher-native-index'
            ? await startServiceWatcher('native', root, kind === 'local-watcher-native-index')
            : kind === 'local-watcher-chokidar'
              ? await startServiceWatcher('chokidar', root)
              : await startChokidar(kind, root);
  const watchMs = Number(process.hrtime.bigint() - running.started) / 1e6;
  console.log(`ready ${JSON.stringify(usage(watchMs))}`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [command, argument] = line.split(' ');
    if (command === 'usage') console.log(`usage ${JSON.stringify(usage(watchMs))}`);
    else if (command === 'snapshot' && argument !== undefined) {
      writeHeapSnapshot(argument);
      console.log('snapshot done');
    }
  });
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  lines.once('close', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) {
  const [kind, root] = process.argv.slice(2);
  if (!WATCHER_KINDS.includes(kind as WatcherKind) || root === undefined) {
    throw new Error(`usage: watcher-child.ts ${WATCHER_KINDS.join('|')} ROOT`);
  }
  await main(kind as WatcherKind, resolve(root));
}
