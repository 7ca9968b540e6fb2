// Where the live watcher's memory goes: chokidar 6 as the service configures it, its variants, our own source (folder-watches.ts) and the live watcher over each, each a child process read from outside, against `find` on the same tree.
//
// The tree: BENCH_WATCH_FILES (100,000) empty files in BENCH_WATCH_FOLDERS (files / 100) folders under
// 10 top folders, kept for the next run with BENCH_WATCH_KEEP=DIR (it may be under /dev/shm). Timed
// first: `find DIR -printf '%i %s %T@ %p\n'` (median of 3 after one warm-up), the baseline of the
// issue's goal "watcher ready in at most 2× find". Then each variant (BENCH_WATCH_VARIANTS=id,id to
// choose) runs as its own child (bench/lib/watcher-child.ts), BENCH_WATCH_RUNS times in turn (median),
// measured through /proc: RSS and its split by mapping (glibc's main heap, its thread arenas, other
// anonymous memory) when the watcher is ready and again after BENCH_WATCH_IDLE_SECONDS (10) idle, the
// peak (VmHWM), inotify watches and CPU; the child adds V8's own heap figures. Last, a heap snapshot of
// the service's configuration counts what chokidar keeps per watched file (BENCH_WATCH_SNAPSHOT=0 skips).
// With BENCH_WATCH_LIVE_ENVS (e.g. `none,MALLOC_ARENA_MAX=2`), a real `mch-sync run` on the same tree
// (mirrored to a device first, kept under BENCH_WATCH_KEEP/live) is read 10 s and 60 s after its first
// pass, once per environment: the allocator levers measured on the service itself.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { countHeapSnapshot, type HeapGroup } from './lib/heap-snapshot-counts.ts';
import { writeTree } from './lib/file-tree.ts';
import { workFolder } from './lib/kept-setup.ts';
import { measureLiveRuns, type LiveEnvironment } from './lib/live-run-memory.ts';
import { readMemoryMap, type MemoryMap } from './lib/memory-map.ts';
import { cpuSeconds, inotifyWatches } from './lib/process-usage.ts';
import { median, secondsSince } from './lib/timing.ts';
import type { ChildUsage, WatcherKind } from './lib/watcher-child.ts';

const FILES = Number(process.env['BENCH_WATCH_FILES'] ?? 100_000);
const FOLDERS = Number(process.env['BENCH_WATCH_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const IDLE_SECONDS = Number(process.env['BENCH_WATCH_IDLE_SECONDS'] ?? 10);
const RUNS = Number(process.env['BENCH_WATCH_RUNS'] ?? 1);
const KEEP_DIR = process.env['BENCH_WATCH_KEEP'];
const SNAPSHOT = process.env['BENCH_WATCH_SNAPSHOT'] !== '0';
/** `mch-sync run` under each environment too: `none,MALLOC_ARENA_MAX=2` (`A=1+B=2` sets two); empty skips. */
const LIVE_ENVS = process.env['BENCH_WATCH_LIVE_ENVS'] ?? '';
const LIVE_CHECKPOINTS = [10, 60];
const CHILD = join(import.meta.dirname, 'lib', 'watcher-child.ts');
const READY_TIMEOUT_MS = 1_800_000;
/** glibc and libuv read these at start: a variant sets its own, none is inherited from the bench. */
const ENV_LEVERS = ['MALLOC_ARENA_MAX', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_TOP_PAD_', 'UV_THREADPOOL_SIZE'];

interface Variant {
  id: string;
  name: string;
  kind: WatcherKind;
  env?: Record<string, string>;
  /** Node/V8 flags of the child. */
  nodeArgs?: string[];
}

const VARIANTS: Variant[] = [
  { id: 'node', name: 'node, no watcher (the floor)', kind: 'node' },
  { id: 'minimal', name: 'own fs.watch per folder (lower bound)', kind: 'minimal' },
  { id: 'defaults', name: 'chokidar 6, live-idle options', kind: 'chokidar-defaults' },
  { id: 'service', name: 'chokidar 6, service options', kind: 'service' },
  { id: 'no-ignored', name: 'service options, no `ignored` function', kind: 'service-no-ignored' },
  {
    id: 'bounded',
    name: 'service, first walk bounded to 64 calls (watchWithChokidar)',
    kind: 'service-bounded-walk',
  },
  { id: 'arena1', name: 'service + MALLOC_ARENA_MAX=1', kind: 'service', env: { MALLOC_ARENA_MAX: '1' } },
  { id: 'arena2', name: 'service + MALLOC_ARENA_MAX=2', kind: 'service', env: { MALLOC_ARENA_MAX: '2' } },
  {
    id: 'trim',
    name: 'service + MALLOC_TRIM_THRESHOLD_=128 KiB',
    kind: 'service',
    env: { MALLOC_TRIM_THRESHOLD_: '131072' },
  },
  {
    id: 'semi1',
    name: 'service + --max-semi-space-size=1',
    kind: 'service',
    nodeArgs: ['--max-semi-space-size=1'],
  },
  {
    id: 'bounded-arena2',
    name: 'watchWithChokidar + MALLOC_ARENA_MAX=2',
    kind: 'service-bounded-walk',
    env: { MALLOC_ARENA_MAX: '2' },
  },
  { id: 'pool1', name: 'service + UV_THREADPOOL_SIZE=1', kind: 'service', env: { UV_THREADPOOL_SIZE: '1' } },
  { id: 'own', name: 'own source alone (folder-watches.ts)', kind: 'own-source' },
  {
    id: 'watcher-own',
    name: 'startLocalWatcher, own source (the Linux default)',
    kind: 'local-watcher-native',
  },
  {
    id: 'watcher-own-index',
    name: 'startLocalWatcher, own source, identities from the index (no scan)',
    kind: 'local-watcher-native-index',
  },
  { id: 'watcher-chokidar', name: 'startLocalWatcher, chokidar source', kind: 'local-watcher-chokidar' },
];

interface Measured {
  readySeconds: number;
  child: ChildUsage;
  atReady: MemoryMap;
  cpuToReady: number;
  watches: number;
  idle: MemoryMap;
  idleChild: ChildUsage;
}

/** A child with a line reader: `next(prefix)` resolves with the rest of the next line starting so. */
interface Child {
  process: ChildProcess;
  next(prefix: string, timeoutMs?: number): Promise<string>;
  send(line: string): void;
  stop(): Promise<void>;
}

function startChild(variant: Variant, root: string): Child {
  const { kind } = variant;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ENV_LEVERS) delete childEnv[name];
  const child = spawn(process.execPath, [...(variant.nodeArgs ?? []), CHILD, kind, root], {
    env: { ...childEnv, ...variant.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: { prefix: string; resolve: (rest: string) => void; reject: (error: Error) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const index = waiting.findIndex((wait) => line.startsWith(wait.prefix));
    const wait = index >= 0 ? waiting.splice(index, 1)[0] : undefined;
    wait?.resolve(line.slice(wait.prefix.length));
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const wait of waiting.splice(0)) {
        wait.reject(new Error(`${kind} exited (${String(code ?? signal)}) before "${wait.prefix}"`));
      }
      resolve();
    }),
  );
  return {
    process: child,
    next: (prefix, timeoutMs = 120_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${kind}: no "${prefix}" in time`)), timeoutMs);
        waiting.push({
          prefix,
          resolve: (rest) => {
            clearTimeout(timer);
            resolve(rest);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      }),
    send: (line) => child.stdin?.write(`${line}\n`),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function measureVariant(variant: Variant, root: string, snapshotPath?: string): Promise<Measured> {
  const started = process.hrtime.bigint();
  const child = startChild(variant, root);
  try {
    const ready = JSON.parse(await child.next('ready ', READY_TIMEOUT_MS)) as ChildUsage;
    const readySeconds = secondsSince(started);
    const pid = child.process.pid as number;
    const atReady = readMemoryMap(pid);
    const cpuToReady = cpuSeconds(pid);
    const watches = inotifyWatches(pid);
    await sleep(IDLE_SECONDS * 1000);
    const idle = readMemoryMap(pid);
    child.send('usage');
    const idleChild = JSON.parse(await child.next('usage ')) as ChildUsage;
    if (snapshotPath !== undefined) {
      child.send(`snapshot ${snapshotPath}`);
      await child.next('snapshot done', READY_TIMEOUT_MS);
    }
    return { readySeconds, child: ready, atReady, cpuToReady, watches, idle, idleChild };
  } finally {
    await child.stop();
  }
}

function timeFind(root: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync('sh', ['-c', `find "$1" -printf '%i %s %T@ %p\\n' > /dev/null`, 'find', root]);
  if (result.status !== 0) throw new Error(`find failed: ${result.stderr.toString()}`);
  return secondsSince(started);
}

/** The run whose RSS after the idle wait is the median one (a whole run, so its figures agree). */
function medianRun(runs: Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.idle.rssMb - b.idle.rssMb);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Measured;
}

const mb = (value: number): string => value.toFixed(0);

function row(variant: Variant, measured: Measured, findSeconds: number, floor: Measured | undefined): string {
  const { atReady, idle, idleChild } = measured;
  const watcherSeconds = measured.child.watchMs / 1000;
  const above = floor === undefined ? '' : ` (+${mb(idle.rssMb - floor.idle.rssMb)})`;
  return [
    '',
    variant.name,
    variant.kind === 'node'
      ? '-'
      : `${watcherSeconds.toFixed(2)} (${(watcherSeconds / findSeconds).toFixed(1)}×)`,
    `${mb(atReady.rssMb)} / ${mb(atReady.peakRssMb)}`,
    `${mb(idle.rssMb)}${above}`,
    `${mb(idleChild.heapUsedMb)} / ${mb(idleChild.v8PhysicalMb)}`,
    `${mb(idle.brkHeapMb)} / ${mb(idle.threadArenasMb)} (${idle.arenas}) / ${mb(idle.otherAnonymousMb)}`,
    `${mb(atReady.brkHeapMb)} / ${mb(atReady.threadArenasMb)} / ${mb(atReady.otherAnonymousMb)}`,
    `${measured.watches}`,
    `${measured.cpuToReady.toFixed(2)} s`,
    '',
  ]
    .join(' | ')
    .trim();
}

async function main(): Promise<void> {
  const shape = `${FILES} empty files in ${FOLDERS} folders`;
  const folder = workFolder(KEEP_DIR, 'mch-watcher-memory-', shape);
  const root = join(folder.path, 'tree');
  try {
    if (folder.reused) console.log(`reusing the tree in ${root}`);
    else {
      const started = process.hrtime.bigint();
      writeTree(root, { files: FILES, folders: FOLDERS, topFolders: 10, size: () => 0 });
      console.log(`created ${shape} in ${secondsSince(started).toFixed(1)} s`);
      folder.ready();
    }
    timeFind(root);
    const findSeconds = median([timeFind(root), timeFind(root), timeFind(root)]);
    console.log(`find -printf: ${findSeconds.toFixed(3)} s (median of 3)`);
    const chosen = process.env['BENCH_WATCH_VARIANTS']?.split(',');
    const variants = VARIANTS.filter((variant) => chosen === undefined || chosen.includes(variant.id));
    const runs = new Map<Variant, Measured[]>(variants.map((variant) => [variant, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const variant of variants) {
        const measured = await measureVariant(variant, root);
        runs.get(variant)?.push(measured);
        console.log(`run ${run + 1}, ${variant.id}: ${JSON.stringify(measured)}`);
      }
    }
    const medians = new Map([...runs].map(([variant, measured]) => [variant, medianRun(measured)]));
    const floor = [...medians].find(([variant]) => variant.kind === 'node')?.[1];
    console.log(
      `\nThe watcher alone on ${shape} (${RUNS === 1 ? 'one run' : `median of ${RUNS} runs`}); find -printf ${findSeconds.toFixed(2)} s`,
    );
    console.log(
      `| case | ready (s, × find) | RSS at ready / peak (MB) | RSS after ${IDLE_SECONDS} s idle (MB, + the floor) | V8 heap used / resident (MB) | idle: brk heap / thread arenas (n) / other anon (MB) | at ready: brk / arenas / other (MB) | inotify watches | CPU to ready |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [variant, measured] of medians) console.log(row(variant, measured, findSeconds, floor));
    const service = VARIANTS.find((variant) => variant.id === 'service');
    const bare = VARIANTS.find((variant) => variant.id === 'node');
    if (SNAPSHOT && service !== undefined && bare !== undefined) {
      await printSnapshot(service, bare, root, folder.path);
    }
    if (LIVE_ENVS !== '') await printLiveRuns(root, shape);
  } finally {
    folder.done();
  }
}

/**
 * What the service's configuration keeps on V8's heap beyond a bare node process's, grouped by
 * constructor (or node type), per file of the tree: both children snapshotted after the idle wait.
 */
async function printSnapshot(variant: Variant, floor: Variant, root: string, work: string): Promise<void> {
  const counted = new Map<Variant, HeapGroup[]>();
  for (const which of [floor, variant]) {
    const path = join(work, `${which.id}.heapsnapshot`);
    try {
      await measureVariant(which, root, path);
      counted.set(which, countHeapSnapshot(path));
    } finally {
      rmSync(path, { force: true });
    }
  }
  const base = new Map((counted.get(floor) ?? []).map((group) => [group.name, group]));
  const grown = (counted.get(variant) ?? []).map((group) => ({
    name: group.name,
    count: group.count - (base.get(group.name)?.count ?? 0),
    selfBytes: group.selfBytes - (base.get(group.name)?.selfBytes ?? 0),
  }));
  const total = grown.reduce((sum, group) => sum + group.selfBytes, 0);
  console.log(
    `\nV8 heap of "${variant.name}" beyond "${floor.name}" after ${IDLE_SECONDS} s idle: ${(total / 1024 / 1024).toFixed(1)} MB; the groups that grew most, by count`,
  );
  console.log('| constructor / type | count | per file | self size (MB) |');
  console.log('|---|---:|---:|---:|');
  for (const group of grown.sort((a, b) => b.count - a.count).slice(0, 16)) {
    console.log(
      `| ${group.name} | ${group.count} | ${(group.count / FILES).toFixed(3)} | ${(group.selfBytes / 1024 / 1024).toFixed(2)} |`,
    );
  }
}

function parseEnvironments(text: string): LiveEnvironment[] {
  return text.split(',').map((name) => ({
    name: name === 'none' ? 'no allocator setting' : name.split('+').join(' '),
    env: Object.fromEntries(
      name === 'none' ? [] : name.split('+').map((pair) => pair.split('=', 2) as [string, string]),
    ),
  }));
}

/** The live service itself (`mch-sync run`, its first pass over a mirrored tree done) under each environment. */
async function printLiveRuns(root: string, shape: string): Promise<void> {
  const results = await measureLiveRuns(
    root,
    KEEP_DIR === undefined ? undefined : join(KEEP_DIR, 'live'),
    shape,
    parseEnvironments(LIVE_ENVS),
    LIVE_CHECKPOINTS,
  );
  const base = results[0];
  console.log(`\nmch-sync run (live) on ${shape}, read from outside after its first pass`);
  console.log(
    `| case | first pass done after (s) | ${LIVE_CHECKPOINTS.map((seconds) => `RSS ${seconds} s after (MB)`).join(' | ')} | RSS ratio | peak (MB) | brk heap / thread arenas (n) / other anon (MB) | inotify watches |`,
  );
  console.log(`|---|---:|${LIVE_CHECKPOINTS.map(() => '---:|').join('')}---:|---:|---:|---:|`);
  for (const result of results) {
    const last = result.samples.at(-1)?.memory;
    const baseLast = base?.samples.at(-1)?.memory;
    if (last === undefined || baseLast === undefined) continue;
    console.log(
      [
        '',
        result.environment.name,
        result.readySeconds.toFixed(1),
        ...result.samples.map((sample) => mb(sample.memory.rssMb)),
        result === base ? '1.00 (baseline)' : (last.rssMb / baseLast.rssMb).toFixed(2),
        mb(last.peakRssMb),
        `${mb(last.brkHeapMb)} / ${mb(last.threadArenasMb)} (${last.arenas}) / ${mb(last.otherAnonymousMb)}`,
        `${result.watches}`,
        '',
      ]
        .join(' | ')
        .trim(),
    );
  }
}

await main();
