// An unchanged `run --once` pass with half the top folders excluded, against the same pass with none excluded (issue 29: at most 0.6×).
//
// Setup (kept with `BENCH_SELECTION_PASS_KEEP=DIR`): `BENCH_SELECTION_PASS_FILES` files (default
// 100,000, of 0-63 bytes, in `BENCH_SELECTION_PASS_FOLDERS` folders under 10 top folders: sync-pass's
// tree) written straight into the device's data folder and into a local tree with the same bytes and
// times (bench/lib/scale-tree.ts), and the local tree copied with its times. Two pairs sync that one
// device folder, each with its own tree and index (bench/lib/selection-pairs.ts): `all` and `half`
// adopt every item (a first pass, no transfer); then `half` has `top-0` to `top-4` recorded as excluded
// with their local copies removed, as `mch-sync exclude PATH --remove-local` does, and its next pass
// applies it (the copies go to a trash inside the bench's folder). A third pair, the reference, syncs
// another device folder written the same way with half the files under 5 top folders and nothing
// excluded: what `half` would cost if exclusions cost nothing.
// Each run then starts one fresh process per pair in turn (`all`, `half`, reference): a new engine on
// the pair's index and record, one pass as `mch-sync run --once` makes it, then a second pass of the same
// engine (warm code, as the live service's later passes). It reports each pass's wall time, its CPU and
// the device's, the process's peak RSS and every request; a pass that writes or reports anything fails
// the bench. Medians of `BENCH_SELECTION_PASS_RUNS` runs (default 5, after one unmeasured) and their
// ratio to the pass with none excluded are printed.
// `BENCH_SELECTION_PASS_PROFILE=DIR`: a `--cpu-prof` profile of each measured process in `DIR/<pair>`,
// each with `pass-window.<pid>.json`: the first pass's start and end on the profile's clock (µs); the
// first pass's main-thread time is then printed by part of the client (bench/lib/profile-summary.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SyncEngine } from '../app/sync/engine.ts';
import { describeTally, writeRequests } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { workFolder } from './lib/kept-setup.ts';
import { changesOf } from './lib/pass-changes.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { summariseProfiles } from './lib/profile-summary.ts';
import { writeScalePair } from './lib/scale-tree.ts';
import {
  copyTree,
  excludeFolders,
  pairEngine,
  recordPair,
  selectionPair,
  type SelectionPair,
} from './lib/selection-pairs.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_SELECTION_PASS_FILES'] ?? 100_000);
const FOLDERS = Number(process.env['BENCH_SELECTION_PASS_FOLDERS'] ?? Math.max(10, Math.round(FILES / 100)));
const TOP_FOLDERS = 10;
const RUNS = Number(process.env['BENCH_SELECTION_PASS_RUNS'] ?? 5);
const KEEP_DIR = process.env['BENCH_SELECTION_PASS_KEEP'];
const PROFILE_DIR = process.env['BENCH_SELECTION_PASS_PROFILE'];
const REMOTE_FOLDER = '/selection-pass';
/** Issue 29's goal: the pass with half the folders excluded costs at most this much of the other. */
const GOAL = 0.6;
/** Half the top folders: excluded with everything below them. */
const EXCLUDED = Array.from({ length: TOP_FOLDERS / 2 }, (_, top) => `top-${top}`);

/** What a measured process needs: the device and the pair. */
interface ChildSetup {
  base: string;
  token: string;
  pair: SelectionPair;
  devicePid: number | undefined;
}

interface PassFigures {
  seconds: number;
  clientCpu: number;
  /** CPU of the main thread alone (V8's compiler and GC helpers and libuv's pool run beside it). */
  mainCpu: number;
  deviceCpu: number;
  requests: string;
  writes: number;
  changes: number;
  /** The pass's start and end on the monotonic clock CPU profiles use (µs), to read a profile's pass alone. */
  window: [number, number];
}

interface ChildAnswer {
  first: PassFigures;
  second: PassFigures;
  /** From the start of the process (node's time origin) to the end of the first pass. */
  sinceStart: number;
  peakMb: number;
}

/** This process's main thread's CPU seconds: utime + stime of its task in /proc (100 ticks a second). */
function mainThreadCpuSeconds(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  // Fields 14 and 15 of proc(5), counted after the command name's last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function timedPass(
  engine: SyncEngine,
  tally: Map<string, number>,
  devicePid: number | undefined,
): Promise<PassFigures> {
  tally.clear();
  const started = process.hrtime.bigint();
  const clientStart = ownCpuSeconds();
  const mainStart = mainThreadCpuSeconds();
  const deviceStart = deviceCpuSeconds(devicePid);
  const report = await engine.syncOnce();
  const ended = process.hrtime.bigint();
  const clientCpu = ownCpuSeconds() - clientStart;
  const mainCpu = mainThreadCpuSeconds() - mainStart;
  const deviceCpu = deviceCpuSeconds(devicePid) - deviceStart;
  if (report.status !== 'synced') throw new Error(`pass ended ${report.status}`);
  return {
    seconds: Number(ended - started) / 1e9,
    clientCpu,
    mainCpu,
    deviceCpu,
    requests: describeTally(tally),
    writes: writeRequests(tally),
    changes: changesOf(report),
    window: [Number(started / 1000n), Number(ended / 1000n)],
  };
}

/** Child mode: two passes of a new engine on the pair's index, the first as `run --once` makes it. */
async function passChild(setup: ChildSetup): Promise<void> {
  const { engine, tally, close } = pairEngine(setup, setup.pair);
  try {
    const first = await timedPass(engine, tally, setup.devicePid);
    const sinceStart = performance.now() / 1000;
    const second = await timedPass(engine, tally, setup.devicePid);
    const peakMb = process.resourceUsage().maxRSS / 1024;
    console.log(JSON.stringify({ first, second, sinceStart, peakMb } satisfies ChildAnswer));
  } finally {
    close();
  }
}

/** One measured process (profiled when asked, unless `profiled` is false: the unmeasured run). */
function runChild(setup: ChildSetup, profiled = true): ChildAnswer {
  const profileDir =
    PROFILE_DIR === undefined || !profiled ? undefined : join(PROFILE_DIR, basename(setup.pair.localRoot));
  const flags = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const child = spawnSync(
    process.execPath,
    [...flags, import.meta.filename, '--pass', JSON.stringify(setup)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`pass child failed: ${child.stderr}`);
  const answer = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as ChildAnswer;
  if (profileDir !== undefined) {
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, `pass-window.${child.pid}.json`), JSON.stringify(answer.first.window));
  }
  for (const figures of [answer.first, answer.second]) {
    if (figures.writes > 0 || figures.changes > 0) {
      throw new Error(`a pass with nothing to do changed something: ${figures.requests}`);
    }
  }
  return answer;
}

/** A setup pass in this process; it must end synced and write nothing on the device. */
async function setupPass(
  device: { base: string; token: string },
  pair: SelectionPair,
  what: string,
): Promise<void> {
  const { engine, tally, close } = pairEngine(device, pair);
  try {
    const started = process.hrtime.bigint();
    const report = await engine.syncOnce();
    if (report.status !== 'synced' || writeRequests(tally) > 0) {
      throw new Error(`${what}: ${report.status}, ${describeTally(tally)}`);
    }
    console.log(`${what} in ${secondsSince(started).toFixed(1)} s (${describeTally(tally)})`);
  } finally {
    close();
  }
}

function row(name: string, runs: readonly ChildAnswer[], baseline: readonly ChildAnswer[]): string {
  const cell = (value: (answer: ChildAnswer) => number, digits: number): string => {
    const mine = median(runs.map(value));
    const ratio = runs === baseline ? '1.00 (baseline)' : (mine / median(baseline.map(value))).toFixed(2);
    return `${mine.toFixed(digits)} | ${ratio}`;
  };
  const peak = Math.max(...runs.map((answer) => answer.peakMb));
  const last = runs.at(-1) as ChildAnswer;
  return (
    `| ${name} | ${cell((answer) => answer.first.seconds, 3)} | ${cell((answer) => answer.first.clientCpu, 2)} ` +
    `| ${cell((answer) => answer.first.mainCpu, 2)} ` +
    `| ${cell((answer) => answer.first.deviceCpu, 2)} | ${cell((answer) => answer.sinceStart, 3)} ` +
    `| ${cell((answer) => answer.second.seconds, 3)} | ${cell((answer) => answer.second.clientCpu, 2)} ` +
    `| ${last.first.requests} | ${peak.toFixed(0)} |`
  );
}

/** The first pass's main-thread time by part, from the profiles, each pair beside the first. */
function printProfiles(dir: string, pairs: readonly SelectionPair[]): void {
  const summaries = pairs.map((pair) => summariseProfiles(join(dir, basename(pair.localRoot))));
  const [first] = summaries as [ReturnType<typeof summariseProfiles>];
  const names = [...new Set(summaries.flatMap(({ parts }) => [...parts.keys()]))].sort(
    (a, b) => (first.parts.get(b) ?? 0) - (first.parts.get(a) ?? 0),
  );
  const total = (parts: Map<string, number>): number => [...parts.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`\nWhere the first pass's main thread goes (CPU profiles, mean of ${first.profiles} runs, ms)`);
  console.log(`| part | ${pairs.map((pair) => `${basename(pair.localRoot)} | ratio`).join(' | ')} |`);
  console.log(`|---|${pairs.map(() => '---:|---:').join('|')}|`);
  const line = (name: string, pick: (parts: Map<string, number>) => number): void => {
    const base = pick(first.parts);
    const ratio = (ms: number): string => (base > 0 ? (ms / base).toFixed(2) : '');
    const cells = summaries.map(({ parts }) => `${pick(parts).toFixed(1)} | ${ratio(pick(parts))}`);
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  };
  for (const name of names) line(name, (parts) => parts.get(name) ?? 0);
  line('the whole pass', total);
}

async function main(): Promise<void> {
  const sizes = `${FILES} files in ${FOLDERS} folders`;
  const folder = workFolder(KEEP_DIR, 'mch-selection-pass-bench-', sizes);
  const work = folder.path;
  try {
    const all = selectionPair(work, 'all', REMOTE_FOLDER);
    const half = selectionPair(work, 'half', REMOTE_FOLDER);
    const reference = selectionPair(work, 'reference', `${REMOTE_FOLDER}-reference`);
    const deviceDir = join(work, 'device');
    if (folder.reused) {
      console.log(`reusing the setup in ${work} (${sizes})`);
    } else {
      const started = process.hrtime.bigint();
      const shape = { files: FILES, folders: FOLDERS, topFolders: TOP_FOLDERS };
      await writeScalePair(deviceDir, all.localRoot, REMOTE_FOLDER, shape);
      copyTree(all.localRoot, half.localRoot);
      const halfShape = {
        files: Math.floor(FILES / 2),
        folders: Math.floor(FOLDERS / 2),
        topFolders: TOP_FOLDERS / 2,
      };
      await writeScalePair(deviceDir, reference.localRoot, reference.remoteFolder, halfShape);
      console.log(`wrote the trees on the device and here in ${secondsSince(started).toFixed(1)} s`);
    }
    const device = await startBenchDevice(deviceDir);
    try {
      if (!folder.reused) {
        for (const pair of [all, half, reference]) await recordPair(pair);
        await setupPass(device, all, 'every item adopted (all)');
        await setupPass(device, half, 'every item adopted (half)');
        await setupPass(device, reference, 'every item adopted (reference)');
        await excludeFolders(half, EXCLUDED);
        await setupPass(device, half, `${EXCLUDED.join(', ')} excluded, local copies removed`);
        const left = EXCLUDED.filter((path) => existsSync(join(half.localRoot, path)));
        if (left.length > 0) throw new Error(`local copies left: ${left.join(', ')}`);
        folder.ready();
      }
      const devicePid = findPid(deviceDir);
      const setups = [all, half, reference].map((pair): ChildSetup => ({ ...device, pair, devicePid }));
      const runs: ChildAnswer[][] = setups.map(() => []);
      // One unmeasured run: the page cache and the device warm for every pair alike.
      for (const setup of setups) runChild(setup, false);
      for (let run = 0; run < RUNS; run += 1) {
        const answers = setups.map((setup) => runChild(setup));
        answers.forEach((answer, at) => runs[at]?.push(answer));
        const text = answers.map(
          (answer) => `${answer.first.seconds.toFixed(3)} s (CPU ${answer.first.clientCpu.toFixed(2)} s)`,
        );
        console.log(`run ${run + 1}: all ${text[0]}, half ${text[1]}, reference ${text[2]}`);
      }
      const [none, halved, alone] = runs as [ChildAnswer[], ChildAnswer[], ChildAnswer[]];
      console.log(
        `\nAn unchanged pass of a new process (run --once), ${sizes} under ${TOP_FOLDERS} top folders, ` +
          `${EXCLUDED.length} of them excluded against none, in turn, median of ${RUNS} runs`,
      );
      console.log(
        '| case | pass (s) | ratio | client CPU (s) | ratio | main thread CPU (s) | ratio | device CPU (s) | ratio | from process start (s) | ratio | second pass (s) | ratio | its CPU (s) | ratio | requests | peak RSS (MB) |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
      console.log(row('none excluded', none, none));
      console.log(row(`${EXCLUDED.join(', ')} excluded`, halved, none));
      console.log(row(`reference: ${Math.floor(FILES / 2)} files alone, none excluded`, alone, none));
      const ratio = (value: (answer: ChildAnswer) => number): number =>
        median(halved.map(value)) / median(none.map(value));
      const wallRatio = ratio((answer) => answer.first.seconds);
      const cpuRatio = ratio((answer) => answer.first.clientCpu);
      const met = wallRatio <= GOAL && cpuRatio <= GOAL;
      console.log(
        `goal: at most ${GOAL}× (wall and client CPU): ${met ? 'met' : 'MISSED'} (wall ${wallRatio.toFixed(3)}×, CPU ${cpuRatio.toFixed(3)}×)`,
      );
      if (PROFILE_DIR !== undefined) printProfiles(PROFILE_DIR, [all, half, reference]);
    } finally {
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

const [mode, setup] = process.argv.slice(2);
if (mode === '--pass') await passChild(JSON.parse(setup as string) as ChildSetup);
else await main();
