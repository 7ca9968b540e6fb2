// A sync pass over 100,000 files in 1,000 folders with nothing changed, against `find` on the same tree.
//
// The tree is written to a temporary folder and mirrored to a device (a child process) by a first
// pass of the engine itself. Then, alternating with `find DIR -printf ...`, each run starts a fresh
// process that opens the index and runs two passes with one engine: the first is what `mch-sync run
// --once` does (the listings kept in the index cost a 304 per folder), the second what a running
// service does next. That process reports its peak RSS and every request it sent; a pass that writes
// anything fails the bench. A third process times the parts (local scan, remote walk without and with
// the cache, index read) so the report can say where a pass spends its time, and a fourth runs the
// first pass from the compiled build, as a packaged app would. The medians count.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import type { SyncEngine } from '../app/sync/engine.ts';
import { ensureRemoteFolder } from '../app/sync/remote/remote-folder.ts';
import { ListingCacheKeeper } from '../app/sync/remote/listing-cache.ts';
import { walkRemote } from '../app/sync/remote/remote-walk.ts';
import { scanLocalFolder } from '../app/sync/local/scanner.ts';
import { benchEngine } from './lib/bench-engine.ts';
import { countedClient, describeTally, writeRequests } from './lib/bench-client.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { runFind } from './lib/find-baseline.ts';
import { workFolder } from './lib/kept-setup.ts';
import { changesOf } from './lib/pass-changes.ts';
import { printComparison, type Measurement } from './lib/report.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_SYNC_PASS_FILES'] ?? 100_000);
const FOLDERS = Number(process.env['BENCH_SYNC_PASS_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const RUNS = Number(process.env['BENCH_SYNC_PASS_RUNS'] ?? 5);
/** A folder for `node --cpu-prof` profiles of the measured pass processes. */
const PROFILE_DIR = process.env['BENCH_SYNC_PASS_PROFILE'];
const REMOTE_FOLDER = '/sync-pass';
/**
 * A folder that keeps the tree, the device's data and the index between runs: mirroring 100,000 files
 * takes minutes, and a kept setup is reused when it was made with the same sizes.
 */
const KEEP_DIR = process.env['BENCH_SYNC_PASS_KEEP'];
/**
 * The pass also runs from the compiled build (`npm run build`, run first): what a packaged app runs,
 * without Node's TypeScript loader in the process. `BENCH_SYNC_PASS_BUILT=0` skips it.
 */
const BUILT = process.env['BENCH_SYNC_PASS_BUILT'] !== '0';
const BUILT_SCRIPT = fileURLToPath(new URL('../dist/bench/sync-pass.bench.js', import.meta.url));

/** What a child process needs to reach the tree, the index and the device. */
interface Setup {
  base: string;
  token: string;
  localRoot: string;
  indexPath: string;
  /** The device process, for its CPU time (undefined where /proc cannot tell). */
  devicePid: number | undefined;
}

interface PassFigures {
  seconds: number;
  /** From the start of the process (node's time origin) to the end of the pass. */
  sinceStart: number;
  /** CPU seconds of the pass process and of the device during the pass. */
  clientCpu: number;
  deviceCpu: number;
  /** Peak RSS of the process so far, in MB. */
  peakMb: number;
  requests: string;
  writes: number;
  changes: number;
}

interface PassChildAnswer {
  first: PassFigures;
  second: PassFigures;
}

interface Part {
  seconds: number;
  clientCpu: number;
  deviceCpu: number;
  /** Heap still held by the part's result after a full GC, in MB. */
  heldMb: number;
  requests?: string;
}

interface PartsChildAnswer {
  scan: Part;
  entries: number;
  walk: Part;
  /** The walk a new process makes: the listings kept in the index, revalidated pipelined. */
  storedWalk: Part;
  /** The same revalidations one request each (what every walk sent before they were pipelined). */
  oneByOne: Part;
  indexRead: Part;
}

function engineFor(setup: Setup): ReturnType<typeof benchEngine> {
  return benchEngine(setup, REMOTE_FOLDER);
}

async function timedPass(
  engine: SyncEngine,
  tally: Map<string, number>,
  devicePid: number | undefined,
): Promise<PassFigures> {
  tally.clear();
  const started = process.hrtime.bigint();
  const clientStart = ownCpuSeconds();
  const deviceStart = deviceCpuSeconds(devicePid);
  const report = await engine.syncOnce();
  const seconds = secondsSince(started);
  const clientCpu = ownCpuSeconds() - clientStart;
  const deviceCpu = deviceCpuSeconds(devicePid) - deviceStart;
  if (report.status !== 'synced')
    throw new Error(`pass ended ${report.status}: ${JSON.stringify(report.issues)}`);
  return {
    seconds,
    sinceStart: performance.now() / 1000,
    clientCpu,
    deviceCpu,
    peakMb: process.resourceUsage().maxRSS / 1024,
    requests: describeTally(tally),
    writes: writeRequests(tally),
    changes: changesOf(report),
  };
}

/** Child mode: the first pass of a fresh process, then a second pass with the same engine. */
async function passChild(setup: Setup): Promise<void> {
  const { engine, tally, close } = engineFor(setup);
  try {
    const first = await timedPass(engine, tally, setup.devicePid);
    const second = await timedPass(engine, tally, setup.devicePid);
    console.log(JSON.stringify({ first, second } satisfies PassChildAnswer));
  } finally {
    close();
  }
}

/** Child mode (with --expose-gc): the parts of a pass on their own, in a fresh process like the pass. */
async function partsChild(setup: Setup): Promise<void> {
  const gc = globalThis.gc as () => void;
  const { client, tally } = countedClient(setup.base, setup.token);
  const { id } = await ensureRemoteFolder(client, REMOTE_FOLDER);
  const db = openIndexDb(setup.indexPath);
  const index = new IndexStore(db);
  // Each part's result stays referenced, as in a pass, so the heap it holds can be read after a GC.
  const measure = async <T>(work: () => T | Promise<T>): Promise<{ result: T; part: Part }> => {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    tally.clear();
    const started = process.hrtime.bigint();
    const clientStart = ownCpuSeconds();
    const deviceStart = deviceCpuSeconds(setup.devicePid);
    const result = await work();
    const seconds = secondsSince(started);
    const clientCpu = ownCpuSeconds() - clientStart;
    const deviceCpu = deviceCpuSeconds(setup.devicePid) - deviceStart;
    gc();
    const heldMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    return { result, part: { seconds, clientCpu, deviceCpu, heldMb, requests: describeTally(tally) } };
  };
  try {
    // In the order a pass makes them, so the first two meet the process as cold as the pass does.
    const scan = await measure(() => scanLocalFolder(setup.localRoot, { digests: true }));
    const stored = new ListingCacheKeeper(index.listings).load();
    const storedWalk = await measure(() => walkRemote(client, id, { cache: stored }));
    const walk = await measure(() => walkRemote(client, id));
    const oneByOne = await measure(() =>
      walkRemote(client, id, { cache: walk.result.cache, pipelined: false }),
    );
    const indexRead = await measure(() => [...index.entries()]);
    const answer: PartsChildAnswer = {
      scan: scan.part,
      entries: scan.result.entries.length,
      walk: walk.part,
      storedWalk: storedWalk.part,
      oneByOne: oneByOne.part,
      indexRead: indexRead.part,
    };
    console.log(JSON.stringify(answer));
  } finally {
    db.close();
  }
}

function runChild<T>(mode: '--pass' | '--parts', setup: Setup, script = import.meta.filename): T {
  const flags =
    mode === '--parts' ? ['--expose-gc'] : PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawnSync(process.execPath, [...flags, script, mode, JSON.stringify(setup)], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`${mode} child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as T;
}

async function initialSync(setup: Setup): Promise<void> {
  const { engine, tally, close } = engineFor(setup);
  try {
    const started = process.hrtime.bigint();
    const report = await engine.syncOnce();
    const seconds = secondsSince(started);
    if (report.status !== 'synced' || report.counts.uploaded !== FILES) {
      throw new Error(`initial pass: ${report.status}, ${report.counts.uploaded} of ${FILES} files uploaded`);
    }
    console.log(
      `initial sync: ${FILES} files and ${report.counts.foldersCreated} folders in ${seconds.toFixed(1)} s (${(FILES / seconds).toFixed(0)} files/s; ${describeTally(tally)})`,
    );
  } finally {
    close();
  }
}

/**
 * Median CPU time of the client process and of the device, e.g. `CPU: client 3.10 s, device 1.20 s`;
 * with find's CPU time, also their sum as a multiple of it (a busy machine stretches wall times, and
 * CPU times much less).
 */
function cpuText(figures: ReadonlyArray<{ clientCpu: number; deviceCpu: number }>, findCpu?: number): string {
  const client = median(figures.map((figure) => figure.clientCpu));
  const device = median(figures.map((figure) => figure.deviceCpu));
  const text = `CPU: client ${client.toFixed(2)} s, device ${device.toFixed(2)} s`;
  return findCpu === undefined
    ? text
    : `${text} (together ${((client + device) / findCpu).toFixed(1)}× find's CPU)`;
}

function seconds3(value: number): string {
  return `${value.toFixed(3)} s`;
}

/** The first pass run from the compiled build, as a report row (none when it was skipped). */
function builtRows(
  built: readonly PassChildAnswer[],
  times: (seconds: number) => string,
  findCpu: number,
): Measurement[] {
  if (built.length === 0) return [];
  const seconds = median(built.map((pass) => pass.first.seconds));
  const sinceStart = median(built.map((pass) => pass.first.sinceStart));
  const peak = Math.max(...built.map((pass) => pass.first.peakMb));
  const firsts = built.map((pass) => pass.first);
  return [
    {
      name: 'the same from the compiled build (no TypeScript loader)',
      rate: FILES / seconds,
      unit: 'files/s',
      detail: `${seconds3(seconds)}, ${times(seconds)} (${seconds3(sinceStart)} from process start); ${cpuText(firsts, findCpu)}; peak RSS ${peak.toFixed(0)} MB`,
    },
  ];
}

async function main(): Promise<void> {
  const sizes = `${FILES} files in ${FOLDERS} folders`;
  const folder = workFolder(KEEP_DIR, 'mch-sync-pass-bench-', sizes);
  const work = folder.path;
  const kept = folder.reused;
  try {
    const localRoot = join(work, 'local');
    if (kept) {
      console.log(`reusing the setup in ${work} (${sizes})`);
    } else {
      const started = process.hrtime.bigint();
      writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 10, size: (index) => index % 64 });
      console.log(`created ${sizes} in ${secondsSince(started).toFixed(1)} s`);
    }
    const device = await startBenchDevice(join(work, 'device'));
    try {
      const setup: Setup = {
        base: device.base,
        token: device.token,
        localRoot,
        indexPath: join(work, 'index.db'),
        devicePid: findPid(join(work, 'device')),
      };
      if (!kept) {
        await initialSync(setup);
        folder.ready();
      }
      const before = runFind(localRoot).output;
      const find: number[] = [];
      const findCpu: number[] = [];
      const passes: PassChildAnswer[] = [];
      const builtPasses: PassChildAnswer[] = [];
      if (BUILT) {
        const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
        if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
      }
      const parts: PartsChildAnswer[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const findRun = runFind(localRoot);
        find.push(findRun.seconds);
        findCpu.push(findRun.cpu);
        const pass = runChild<PassChildAnswer>('--pass', setup);
        for (const figures of [pass.first, pass.second]) {
          if (figures.writes > 0 || figures.changes > 0) {
            throw new Error(`a pass with nothing to do changed something: ${figures.requests}`);
          }
        }
        passes.push(pass);
        parts.push(runChild<PartsChildAnswer>('--parts', setup));
        const built = BUILT ? runChild<PassChildAnswer>('--pass', setup, BUILT_SCRIPT) : undefined;
        if (built) builtPasses.push(built);
        const { first, second } = pass;
        const builtText = built
          ? `; built: first pass ${seconds3(built.first.seconds)}, peak RSS ${built.first.peakMb.toFixed(0)} MB`
          : '';
        console.log(
          `run ${run + 1}: find ${seconds3(findRun.seconds)} (CPU ${findRun.cpu.toFixed(2)} s); first pass ${seconds3(first.seconds)} (${seconds3(first.sinceStart)} from process start; ${cpuText([first])}), second pass ${seconds3(second.seconds)} (${cpuText([second])}); peak RSS ${first.peakMb.toFixed(0)} / ${second.peakMb.toFixed(0)} MB${builtText}`,
        );
      }
      if (runFind(localRoot).output !== before) throw new Error('the passes changed the local tree');
      const findMedian = median(find);
      const findCpuMedian = median(findCpu);
      const firstMedian = median(passes.map((pass) => pass.first.seconds));
      const secondMedian = median(passes.map((pass) => pass.second.seconds));
      const wallMedian = median(passes.map((pass) => pass.first.sinceStart));
      const peakFirst = Math.max(...passes.map((pass) => pass.first.peakMb));
      const peakSecond = Math.max(...passes.map((pass) => pass.second.peakMb));
      const lastPass = passes.at(-1) as PassChildAnswer;
      const times = (value: number): string => `${(value / findMedian).toFixed(2)}× find's time`;
      const partRow = (name: string, pick: (answer: PartsChildAnswer) => Part): Measurement => {
        const seconds = median(parts.map((answer) => pick(answer).seconds));
        const held = median(parts.map((answer) => pick(answer).heldMb));
        const requests = pick(parts.at(-1) as PartsChildAnswer).requests;
        const cpu = cpuText(parts.map(pick));
        return {
          name: `part: ${name}`,
          rate: FILES / seconds,
          unit: 'files/s',
          detail: `${seconds3(seconds)}, ${times(seconds)}; ${cpu}; holds ${held.toFixed(0)} MB of heap; ${requests}`,
        };
      };
      // Wall times of parts measured apart do not add up on a busy machine; CPU times do.
      const partsCpu = (answer: PartsChildAnswer): number =>
        answer.scan.clientCpu + answer.storedWalk.clientCpu;
      const restCpu =
        median(passes.map((pass) => pass.first.clientCpu)) - median(parts.map((answer) => partsCpu(answer)));
      printComparison(
        `Sync pass, ${FILES} files in ${FOLDERS} folders, nothing changed (median of ${RUNS} runs)`,
        {
          name: 'find -printf',
          rate: FILES / findMedian,
          unit: 'files/s',
          detail: `${seconds3(findMedian)}; CPU ${findCpuMedian.toFixed(2)} s`,
        },
        [
          {
            name: 'first pass of a fresh process (run --once)',
            rate: FILES / firstMedian,
            unit: 'files/s',
            detail: `${seconds3(firstMedian)}, ${times(firstMedian)}; ${cpuText(
              passes.map((pass) => pass.first),
              findCpuMedian,
            )}; ${lastPass.first.requests}; peak RSS ${peakFirst.toFixed(0)} MB (goal: ≤ 3× find, < 300 MB)`,
          },
          {
            name: 'the same, from process start',
            rate: FILES / wallMedian,
            unit: 'files/s',
            detail: `${seconds3(wallMedian)}, ${times(wallMedian)}`,
          },
          ...builtRows(builtPasses, times, findCpuMedian),
          {
            name: 'second pass, same engine',
            rate: FILES / secondMedian,
            unit: 'files/s',
            detail: `${seconds3(secondMedian)}, ${times(secondMedian)}; ${cpuText(
              passes.map((pass) => pass.second),
              findCpuMedian,
            )}; ${lastPass.second.requests}; peak RSS ${peakSecond.toFixed(0)} MB`,
          },
          partRow('local scan with folder digests', (answer) => answer.scan),
          partRow('remote walk, kept listings revalidated pipelined', (answer) => answer.storedWalk),
          partRow('remote walk, no cache', (answer) => answer.walk),
          partRow('remote walk, cached, one request per folder', (answer) => answer.oneByOne),
          partRow('index read, every row (a pass that plans)', (answer) => answer.indexRead),
          {
            name: 'rest of the first pass (quiet check, records...)',
            rate: FILES / restCpu,
            unit: 'files/s of CPU',
            detail: `CPU: client ${restCpu.toFixed(2)} s: the first pass's CPU − scan − walk`,
          },
        ],
      );
    } finally {
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

const [mode, setup] = process.argv.slice(2);
if (mode === '--pass') await passChild(JSON.parse(setup as string) as Setup);
else if (mode === '--parts') await partsChild(JSON.parse(setup as string) as Setup);
else await main();
