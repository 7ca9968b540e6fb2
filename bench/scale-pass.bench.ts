// Sync passes over 1,000,000 files in 10,000 folders against `find` on the same tree: a pass with nothing changed, and `mch-sync run --once` processes that must plan, with their peak RSS.
//
// Setup (kept with BENCH_SCALE_PASS_KEEP=DIR): the device's rows and content and the local tree are
// written straight to disk with the same sizes, bytes and modification times (bench/lib/scale-tree.ts),
// then a first `mch-sync run --once` adopts every item (equal size and time, no index row: recorded
// without a transfer), which is itself a pass that plans over every item: its time and peak RSS are
// reported. Each run then measures, each in a fresh process, alternating with `find DIR -printf`:
// 1. the pass alone in-process (what sync-pass measures as the first pass of `run --once`);
// 2. a whole `mch-sync run --once` process with nothing changed (wall time from spawn to exit);
// 3. `run --once` after one file was edited, after one was added, after that one was deleted again
//    (the tree stays as it was made), after a pass was cancelled before it wrote anything, the way the
//    live service's stop cancels one (it puts back the settled record it took: the next pass is
//    quiet), with the record gone, as a pass stopped after it wrote leaves it (the next pass compares
//    every folder with the index and finds nothing to plan), after 100 files were edited in 100
//    folders (planned around them), after 300 in 300 folders (more than a pass plans around: it plans
//    over everything), and the pass after that one, which lists those folders again and compares
//    them with the index;
// 4. a quiet `run --once` again, which must be quiet.
// Every `run --once` case runs twice: through bin/mch-sync.js (the TypeScript sources, as `npm run
// sync` runs them) and from the compiled build, as a packaged app runs it.
// Peak RSS of every `run --once` is read from outside (GNU time: the rusage wait4 returns). A pass
// with nothing to do that sends anything but GETs, reports anything, changes the local tree or
// changes a row on the device fails the bench.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { indexFilePath, openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { META_SETTLED } from '../app/index/meta-keys.ts';
import { benchEngine } from './lib/bench-engine.ts';
import { describeTally, writeRequests } from './lib/bench-client.ts';
import { addBenchPair, signInBenchProfile } from './lib/bench-profile.ts';
import { builtEntry } from './lib/built-entry.ts';
import { measureLiveIdle, type LiveIdleFigures } from './lib/live-idle-window.ts';
import { startBenchDevice } from './lib/device.ts';
import { runFind } from './lib/find-baseline.ts';
import { describeCli, ScaleRuns, type CliFigures } from './lib/scale-run-once.ts';
import { workFolder } from './lib/kept-setup.ts';
import { changesOf } from './lib/pass-changes.ts';
import { writeScalePair } from './lib/scale-tree.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_SCALE_PASS_FILES'] ?? 1_000_000);
const FOLDERS = Number(process.env['BENCH_SCALE_PASS_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const TOP_FOLDERS = 10;
const RUNS = Number(process.env['BENCH_SCALE_PASS_RUNS'] ?? 3);
const KEEP_DIR = process.env['BENCH_SCALE_PASS_KEEP'];
/** `node --heapsnapshot-near-heap-limit`-style flags or others for every measured `run --once` (NODE_OPTIONS). */
const CLI_NODE_OPTIONS = process.env['BENCH_SCALE_PASS_NODE_OPTIONS'];
/**
 * Every `run --once` case also runs from the compiled build (`npm run build`, run first), as a packaged
 * app runs it: no TypeScript loader in the process. `BENCH_SCALE_PASS_BUILT=0` skips it.
 */
const BUILT = process.env['BENCH_SCALE_PASS_BUILT'] !== '0';
const REMOTE_FOLDER = '/scale-pass';
/** The live service's idle window after its first pass (`0` skips the live case). */
const LIVE_SECONDS = Number(process.env['BENCH_SCALE_PASS_LIVE_SECONDS'] ?? 60);
/** Long enough for a pass that plans over a million items on a busy machine. */
const TIMEOUT_MS = 3_600_000;
/** The peak RSS goal of issue 19 for any `run --once`. */
const PEAK_GOAL_MB = 1024;
/** Files edited at once in as many folders: a pass plans around them (up to 256 folders on disk). */
const SOME_EDITED = 100;
/** Files edited at once in as many folders: more than a pass plans around, so it plans over everything. */
const MANY_EDITED = 300;
/** The file each run edits, and the one it adds and deletes again. */
const EDITED = join('top-3', 'folder-3', 'file-7.txt');
const ADDED = join('top-0', 'scale-pass-added.txt');

/** What a child process needs to reach the tree, the index and the device. */
interface Setup {
  base: string;
  token: string;
  localRoot: string;
  indexPath: string;
}

interface PassFigures {
  seconds: number;
  /** From the start of the process to the end of the pass. */
  sinceStart: number;
  cpu: number;
  peakMb: number;
  requests: string;
  writes: number;
  changes: number;
}

function engineFor(setup: Setup): ReturnType<typeof benchEngine> {
  return benchEngine(setup, REMOTE_FOLDER);
}

/** Child mode: the first pass of a fresh process, timed alone (the process's start is not counted). */
async function passChild(setup: Setup): Promise<void> {
  const { engine, tally, close } = engineFor(setup);
  try {
    const started = process.hrtime.bigint();
    const cpuStart = ownCpuSeconds();
    const report = await engine.syncOnce();
    const figures: PassFigures = {
      seconds: secondsSince(started),
      sinceStart: performance.now() / 1000,
      cpu: ownCpuSeconds() - cpuStart,
      peakMb: process.resourceUsage().maxRSS / 1024,
      requests: describeTally(tally),
      writes: writeRequests(tally),
      changes: changesOf(report) + (report.status === 'synced' ? 0 : 1),
    };
    console.log(JSON.stringify(figures));
  } finally {
    close();
  }
}

/**
 * Child mode: a pass cancelled as `LiveSync.stop()` cancels the one running when the service stops
 * (its AbortSignal aborted) before it wrote anything: it puts back the settled record it took, so the
 * next pass may be a quiet one.
 */
async function cancelledPassChild(setup: Setup): Promise<void> {
  const { engine, close } = engineFor(setup);
  try {
    const abort = new AbortController();
    const pass = engine.syncOnce({ remote: 'revalidate', signal: abort.signal });
    abort.abort();
    const outcome = await pass.then(
      (report) => `ended ${report.status}`,
      (error: unknown) => `cancelled (${(error as { code?: string }).code ?? String(error)})`,
    );
    console.log(JSON.stringify({ outcome }));
  } finally {
    close();
  }
  if (!hasSettledRecord(setup)) throw new Error('the cancelled pass did not put the settled record back');
}

/**
 * Child mode: the settled record deleted, as a pass leaves it that was stopped after it wrote (an
 * operation, a listing): the next pass plans over everything.
 */
function dropRecordChild(setup: Setup): void {
  const db = openIndexDb(setup.indexPath);
  try {
    new IndexStore(db).deleteMeta(META_SETTLED);
  } finally {
    db.close();
  }
  console.log(JSON.stringify({ dropped: !hasSettledRecord(setup) }));
}

function hasSettledRecord(setup: Setup): boolean {
  const db = openIndexDb(setup.indexPath);
  try {
    return new IndexStore(db).getMeta(META_SETTLED) !== undefined;
  } finally {
    db.close();
  }
}

function runChild<T>(mode: '--pass' | '--cancelled-pass' | '--drop-record', setup: Setup): T {
  const child = spawnSync(process.execPath, [import.meta.filename, mode, JSON.stringify(setup)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(`${mode} child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as T;
}

/** Saves the edited file with new bytes and a new time, as an editor does. */
function editFile(localRoot: string, run: number): void {
  writeFileSync(join(localRoot, EDITED), `edited in run ${run} at ${new Date().toISOString()}\n`);
}

/** Saves `name` in each of the first `count` folders with new bytes, as `editFile` does. */
function editMany(localRoot: string, run: number, count: number, name: string): void {
  for (let folder = 0; folder < count; folder += 1) {
    const path = join(localRoot, `top-${folder % TOP_FOLDERS}`, `folder-${folder}`, name);
    writeFileSync(path, `edited in run ${run}, ${folder}, at ${new Date().toISOString()}\n`);
  }
}

interface AdoptFigures {
  seconds: number;
  cpu: number;
  peakMb: number;
  operations: Record<string, number>;
  load: number;
  setupSeconds: number;
}

async function main(): Promise<void> {
  const sizes = `${FILES} files in ${FOLDERS} folders`;
  const folder = workFolder(KEEP_DIR, 'mch-scale-pass-bench-', sizes);
  const work = folder.path;
  const localRoot = join(work, 'local');
  const deviceDir = join(work, 'device');
  const adoptFile = join(work, 'adopt.json');
  try {
    let setupSeconds = 0;
    if (folder.reused) {
      console.log(`reusing the setup in ${work} (${sizes})`);
    } else {
      const started = process.hrtime.bigint();
      const written = await writeScalePair(deviceDir, localRoot, REMOTE_FOLDER, {
        files: FILES,
        folders: FOLDERS,
        topFolders: TOP_FOLDERS,
      });
      setupSeconds = secondsSince(started);
      console.log(
        `wrote ${written.files} files (${written.bytes} bytes, ${written.blobs} content files on the device) in ${written.folders} folders on both sides in ${setupSeconds.toFixed(1)} s`,
      );
    }
    const deviceStarted = process.hrtime.bigint();
    const device = await startBenchDevice(deviceDir, 600_000);
    console.log(`device ready in ${secondsSince(deviceStarted).toFixed(1)} s`);
    try {
      const profile = await signInBenchProfile(device, join(work, 'home'));
      await addBenchPair(profile, localRoot, REMOTE_FOLDER);
      const runs = new ScaleRuns({
        profile,
        localRoot,
        remoteFolder: REMOTE_FOLDER,
        timeoutMs: TIMEOUT_MS,
        nodeOptions: CLI_NODE_OPTIONS,
      });
      const setup: Setup = {
        base: device.base,
        token: device.token,
        localRoot,
        indexPath: indexFilePath(profile.profile, localRoot),
      };
      if (!folder.reused) {
        // The first pass adopts every item: both sides hold it, with equal size and time.
        const adopt = await runs.runOnce({ verbose: false });
        const recorded = adopt.operations['index-update'] ?? 0;
        if (Object.keys(adopt.operations).length !== 1 || recorded !== FILES + FOLDERS + TOP_FOLDERS) {
          throw new Error(
            `the adopting pass did not record every item alone: ${JSON.stringify(adopt.operations)}`,
          );
        }
        const figures: AdoptFigures = { ...adopt, setupSeconds };
        writeFileSync(adoptFile, JSON.stringify(figures));
        console.log(`adopting run --once: ${describeCli(adopt, Number.NaN)}`);
        folder.ready();
      }
      // A run stopped half way (Ctrl+C, a pass that ran out of memory) may have left its edit or its
      // added file unsynced: one pass, not measured, brings the kept pair back to a settled state.
      if (folder.reused) {
        rmSync(join(localRoot, ADDED), { force: true });
        const settle = await runs.runOnce({ verbose: false });
        console.log(`settling run --once: ${describeCli(settle, Number.NaN)}`);
      }
      const adopt = existsSync(adoptFile)
        ? (JSON.parse(readFileSync(adoptFile, 'utf8')) as AdoptFigures)
        : undefined;

      const variants: Array<{ label: string; entry: string | undefined }> = [
        { label: '', entry: undefined },
        ...(BUILT ? [{ label: ' (compiled build)', entry: builtEntry(work) }] : []),
      ];
      const finds: number[] = [];
      const findCpus: number[] = [];
      const inProcess: PassFigures[] = [];
      const cases = new Map<string, CliFigures[]>();
      const add = (name: string, figures: CliFigures): void => {
        cases.set(name, [...(cases.get(name) ?? []), figures]);
      };
      for (let run = 0; run < RUNS; run += 1) {
        const find = runFind(localRoot);
        finds.push(find.seconds);
        findCpus.push(find.cpu);
        const load = loadavg()[0] as number;
        const pass = runChild<PassFigures>('--pass', setup);
        if (pass.writes > 0 || pass.changes > 0)
          throw new Error(`a pass with nothing to do changed something: ${pass.requests}`);
        if (runFind(localRoot).output !== find.output)
          throw new Error('the in-process pass changed the local tree');
        inProcess.push(pass);
        console.log(
          `run ${run + 1}: find ${find.seconds.toFixed(2)} s (CPU ${find.cpu.toFixed(2)} s); in-process pass ${pass.seconds.toFixed(2)} s (${(pass.seconds / find.seconds).toFixed(2)}× find; ${pass.sinceStart.toFixed(2)} s from process start), CPU ${pass.cpu.toFixed(2)} s, peak RSS ${pass.peakMb.toFixed(0)} MB; ${pass.requests} (load ${load.toFixed(2)})`,
        );
        const report = (name: string, figures: CliFigures): void => {
          add(name, figures);
          console.log(`  ${name}: ${describeCli(figures, find.seconds)}`);
        };
        for (const { label, entry } of variants) {
          report(
            `run --once, nothing changed${label}`,
            await runs.quiet(deviceDir, 'quiet run --once', entry),
          );
          editFile(localRoot, run);
          report(
            `run --once, one file edited${label}`,
            await runs.planned('edit', { 'upload-content': 1 }, entry, 'around differences'),
          );
          writeFileSync(join(localRoot, ADDED), `added in run ${run}\n`);
          report(
            `run --once, one file added${label}`,
            await runs.planned('add', { upload: 1 }, entry, 'around differences'),
          );
          unlinkSync(join(localRoot, ADDED));
          report(
            `run --once, one file deleted${label}`,
            await runs.planned('delete', { 'remote-delete': 1 }, entry, 'around differences'),
          );
          const cancelled = runChild<{ outcome: string }>('--cancelled-pass', setup);
          report(
            `run --once after a pass cancelled before it wrote (${cancelled.outcome})${label}`,
            await runs.quiet(deviceDir, 'after a cancelled pass', entry),
          );
          runChild<{ dropped: boolean }>('--drop-record', setup);
          report(
            `run --once with no settled record${label}`,
            await runs.quiet(deviceDir, 'with no settled record', entry),
          );
          editMany(localRoot, run, SOME_EDITED, 'file-2.txt');
          report(
            `run --once, ${SOME_EDITED} files edited in as many folders (planned around them)${label}`,
            await runs.planned('some edits', { 'upload-content': SOME_EDITED }, entry, 'around differences'),
          );
          editMany(localRoot, run, MANY_EDITED, 'file-1.txt');
          report(
            `run --once, ${MANY_EDITED} files edited in as many folders (plans over everything)${label}`,
            await runs.planned('many edits', { 'upload-content': MANY_EDITED }, entry, 'over everything'),
          );
          // The device gave the folders it wrote to new listing ETags: the next pass lists them again.
          report(
            `run --once after it (lists the ${MANY_EDITED} folders it wrote to again)${label}`,
            await runs.quiet(deviceDir, 'after many edits', entry),
          );
          report(
            `run --once, nothing changed (again)${label}`,
            await runs.quiet(deviceDir, 'quiet again', entry),
          );
        }
      }

      // The live service on the same pair, after the passes: its first pass is a quiet one.
      let live: LiveIdleFigures | undefined;
      if (LIVE_SECONDS > 0) {
        const load = loadavg()[0] as number;
        live = await measureLiveIdle(profile, localRoot, REMOTE_FOLDER, LIVE_SECONDS);
        console.log(`live service: ${JSON.stringify(live)} (load ${load.toFixed(2)})`);
      }

      const findMedian = median(finds);
      const times = (seconds: number): string => `${(seconds / findMedian).toFixed(2)}×`;
      console.log(
        `\nSync passes, ${FILES} files in ${FOLDERS} folders (median of ${RUNS} runs; peak RSS: the highest; goal < ${PEAK_GOAL_MB} MB)`,
      );
      console.log('| case | time | × find | CPU | peak RSS | load (1 min) |');
      console.log('|---|---:|---:|---:|---:|---|');
      console.log(
        `| find -printf | ${findMedian.toFixed(2)} s | 1.00 | ${median(findCpus).toFixed(2)} s | | |`,
      );
      const inSeconds = median(inProcess.map((pass) => pass.seconds));
      console.log(
        `| quiet pass in-process (first pass of a fresh process) | ${inSeconds.toFixed(2)} s | ${times(inSeconds)} (goal ≤ 2×) | ${median(inProcess.map((pass) => pass.cpu)).toFixed(2)} s | ${Math.max(...inProcess.map((pass) => pass.peakMb)).toFixed(0)} MB | |`,
      );
      for (const [name, runs] of cases) {
        const seconds = median(runs.map((figures) => figures.seconds));
        const goal = name.startsWith('run --once, nothing changed') ? ' (goal ≤ 2.5×)' : '';
        const loads = runs.map((figures) => figures.load.toFixed(1)).join(', ');
        console.log(
          `| ${name} | ${seconds.toFixed(2)} s | ${times(seconds)}${goal} | ${median(runs.map((figures) => figures.cpu)).toFixed(2)} s | ${Math.max(...runs.map((figures) => figures.peakMb)).toFixed(0)} MB | ${loads} |`,
        );
      }
      if (adopt !== undefined) {
        console.log(
          `| first run --once, adopting every item (setup; once) | ${adopt.seconds.toFixed(2)} s | ${times(adopt.seconds)} | ${adopt.cpu.toFixed(2)} s | ${adopt.peakMb.toFixed(0)} MB | ${adopt.load.toFixed(1)} |`,
        );
      }
      if (live !== undefined) {
        console.log(
          `| live service (\`mch-sync run\`), ${live.windowSeconds.toFixed(0)} s idle after its first pass (done after ${live.firstPassSeconds.toFixed(1)} s) | | | ${live.cpuSeconds.toFixed(2)} s in the window | ${live.endRssMb.toFixed(0)} MB at the end (window peak ${live.windowPeakRssMb.toFixed(0)}, life peak ${live.lifePeakRssMb.toFixed(0)}; brk heap ${live.brkHeapMb.toFixed(0)}, other anon ${live.otherAnonymousMb.toFixed(0)}; ${live.watches} inotify watches) | |`,
        );
      }
      const peaks = [...cases.values()].flat().map((figures) => figures.peakMb);
      if (adopt !== undefined) peaks.push(adopt.peakMb);
      const worst = Math.max(...peaks);
      console.log(
        `\nhighest peak RSS of any run --once: ${worst.toFixed(0)} MB (${worst < PEAK_GOAL_MB ? 'under' : 'NOT under'} the ${PEAK_GOAL_MB} MB goal)`,
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
else if (mode === '--cancelled-pass') await cancelledPassChild(JSON.parse(setup as string) as Setup);
else if (mode === '--drop-record') dropRecordChild(JSON.parse(setup as string) as Setup);
else await main();
