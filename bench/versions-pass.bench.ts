// A pass that downloads new versions of 10,000 synced files, keeping the old ones as versions, against the same pass with versions off (issue 31: at most 1.05×).
//
// Setup (kept with `BENCH_VERSIONS_PASS_KEEP=DIR`): `BENCH_VERSIONS_PASS_FILES` files (default 10,000,
// of 0-63 bytes, 100 a folder under 10 top folders) written straight into the device's data and into a
// local tree with the same bytes and times (bench/lib/scale-tree.ts), the tree copied with its times:
// two pairs of the one device folder, each with its own tree and index, `on` with the default versions
// policy and `off` with `versions: 'off'` (replaced in place), each adopting every item by a first pass.
// Each run then edits every file on the device through another client (one `PUT .../content` each, 8 in
// flight), and each pair, in a new process, runs one pass (`mch-sync run --once`'s) that downloads them
// all; the order of the pairs alternates from run to run, the `on` pair's versions (rows and folder)
// are emptied before its pass (the folder moved aside, see emptyVersions), so every run keeps 10,000
// into an empty store, and `sync` writes out what is dirty before each pass. A pass that does
// not download every file, or keeps a version where it should not, fails the bench. Medians of
// `BENCH_VERSIONS_PASS_RUNS` runs (default 5, after one unmeasured), and the median of each run's ratio.
// `BENCH_VERSIONS_PASS_PROFILE=DIR`: a `--cpu-prof` profile of each measured pass in `DIR/<pair>`, and the
// pass's main-thread time by part of the client (bench/lib/profile-summary.ts: the versions code counts
// in "index (SQLite)" and "rest of the engine").
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DeviceClient } from '../app/api/device-client.ts';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { DEFAULT_VERSIONS_POLICY } from '../app/sync/engine-options.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { VERSIONS_FOLDER } from '../app/sync/versions/version-store.ts';
import { countedClient, describeTally, writeRequests } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { workFolder } from './lib/kept-setup.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { summariseProfiles } from './lib/profile-summary.ts';
import { writeScalePair } from './lib/scale-tree.ts';
import { copyTree } from './lib/selection-pairs.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_VERSIONS_PASS_FILES'] ?? 10_000);
const FOLDERS = Math.max(10, Math.round(FILES / 100));
const RUNS = Number(process.env['BENCH_VERSIONS_PASS_RUNS'] ?? 5);
const KEEP_DIR = process.env['BENCH_VERSIONS_PASS_KEEP'];
const PROFILE_DIR = process.env['BENCH_VERSIONS_PASS_PROFILE'];
const REMOTE_FOLDER = '/versions-pass';
/** Issue 31's goal: the pass that keeps versions costs at most this much of the one that does not. */
const GOAL = 1.05;
const EDITS_IN_FLIGHT = 8;

type PairName = 'on' | 'off';

/** One pair: its tree, its index and the HOME its engine's trash would be found in. */
interface Pair {
  name: PairName;
  localRoot: string;
  indexPath: string;
  home: string;
}

interface ChildSetup {
  base: string;
  token: string;
  pair: Pair;
  devicePid: number | undefined;
}

interface ChildAnswer {
  seconds: number;
  clientCpu: number;
  /** CPU of the main thread alone (libuv's pool does the file calls beside it). */
  mainCpu: number;
  deviceCpu: number;
  requests: string;
  writes: number;
  downloaded: number;
  /** Versions kept after the pass. */
  kept: number;
  /** The pass's start and end on the clock CPU profiles use (µs). */
  window: [number, number];
}

function pairOf(work: string, name: PairName): Pair {
  return {
    name,
    localRoot: join(work, name),
    indexPath: join(work, `index-${name}.db`),
    home: join(work, 'home'),
  };
}

function engineOf(device: { base: string; token: string }, pair: Pair) {
  const db = openIndexDb(pair.indexPath);
  const { client, tally } = countedClient(device.base, device.token);
  const index = new IndexStore(db);
  const engine = new SyncEngine({
    client,
    index,
    localRoot: pair.localRoot,
    remoteFolder: REMOTE_FOLDER,
    env: { HOME: pair.home, XDG_DATA_HOME: join(pair.home, '.local', 'share') },
    versions: pair.name === 'on' ? DEFAULT_VERSIONS_POLICY : 'off',
  });
  return { engine, index, tally, close: () => db.close() };
}

/** This process's main thread's CPU seconds: utime + stime of its task in /proc (100 ticks a second). */
function mainThreadCpuSeconds(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Child mode: one pass of a new engine on the pair's index, as `run --once` makes it. */
async function passChild(setup: ChildSetup): Promise<void> {
  const { engine, index, tally, close } = engineOf(setup, setup.pair);
  try {
    const started = process.hrtime.bigint();
    const clientStart = ownCpuSeconds();
    const mainStart = mainThreadCpuSeconds();
    const deviceStart = deviceCpuSeconds(setup.devicePid);
    const report = await engine.syncOnce();
    const ended = process.hrtime.bigint();
    if (report.status !== 'synced') throw new Error(`pass ended ${report.status}`);
    const answer: ChildAnswer = {
      seconds: Number(ended - started) / 1e9,
      clientCpu: ownCpuSeconds() - clientStart,
      mainCpu: mainThreadCpuSeconds() - mainStart,
      deviceCpu: deviceCpuSeconds(setup.devicePid) - deviceStart,
      requests: describeTally(tally),
      writes: writeRequests(tally),
      downloaded: report.counts.downloaded,
      kept: index.versions.usage().count,
      window: [Number(started / 1000n), Number(ended / 1000n)],
    };
    console.log(JSON.stringify(answer));
  } finally {
    close();
  }
}

/** One measured pass in a new process (profiled when asked, unless `profiled` is false). */
function runChild(setup: ChildSetup, profiled: boolean): ChildAnswer {
  const profileDir = PROFILE_DIR === undefined || !profiled ? undefined : join(PROFILE_DIR, setup.pair.name);
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
    writeFileSync(join(profileDir, `pass-window.${child.pid}.json`), JSON.stringify(answer.window));
  }
  const keptWanted = setup.pair.name === 'on' ? answer.downloaded : 0;
  if (answer.downloaded !== FILES || answer.writes > 0 || answer.kept !== keptWanted) {
    throw new Error(
      `${setup.pair.name}: ${answer.downloaded} of ${FILES} downloaded, ${answer.kept} versions kept; ${answer.requests}`,
    );
  }
  return answer;
}

/**
 * The `on` pair's versions emptied: its rows, and its folder moved aside to `aside` (removed at the end).
 * Not deleted here: ext4 without a journal (this machine's) will not reuse an inode freed in the last
 * minutes, so 10,000 files deleted just before the pass would make each new file it creates look past
 * them (`recently_deleted` in the kernel), a cost a pass does not meet in use (versions go when they are
 * thinned, a few at a time). docs/benchmarks.md has the figures.
 */
function emptyVersions(pair: Pair, aside: string): void {
  const db = openIndexDb(pair.indexPath);
  try {
    db.exec('DELETE FROM versions; DELETE FROM conflicts');
  } finally {
    db.close();
  }
  mkdirSync(dirname(aside), { recursive: true });
  const folder = join(pair.localRoot, VERSIONS_FOLDER);
  if (existsSync(folder)) renameSync(folder, aside);
}

/** The device ids of the pair's files, from its index. */
function fileIds(pair: Pair): string[] {
  const db = openIndexDb(pair.indexPath);
  try {
    return [...new IndexStore(db).entries()].filter((row) => row.kind === 'file').map((row) => row.remoteId);
  } finally {
    db.close();
  }
}

/** Every file given new content on the device by another client; returns the seconds it took. */
async function editAll(client: DeviceClient, ids: readonly string[], stamp: number): Promise<number> {
  const started = process.hrtime.bigint();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const at = next++;
      const content = Buffer.from(`edit ${stamp}, file ${at}: a new version\n`);
      // A keep-alive socket the device closed as the PUT went out: the same content again is harmless.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await client.putContent(ids[at] as string, content);
          break;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: EDITS_IN_FLIGHT }, worker));
  return secondsSince(started);
}

/** A setup pass in this process: every item adopted, nothing written on the device. */
async function adopt(device: { base: string; token: string }, pair: Pair): Promise<void> {
  const { engine, tally, close } = engineOf(device, pair);
  try {
    const started = process.hrtime.bigint();
    const report = await engine.syncOnce();
    if (report.status !== 'synced' || writeRequests(tally) > 0) {
      throw new Error(`adopting (${pair.name}): ${report.status}, ${describeTally(tally)}`);
    }
    console.log(`every item adopted (${pair.name}) in ${secondsSince(started).toFixed(1)} s`);
  } finally {
    close();
  }
}

function printTable(on: readonly ChildAnswer[], off: readonly ChildAnswer[]): void {
  const cell = (runs: readonly ChildAnswer[], value: (answer: ChildAnswer) => number, digits: number) => {
    const mine = median(runs.map(value));
    const ratio = runs === off ? '1.00 (baseline)' : (mine / median(off.map(value))).toFixed(3);
    return `${mine.toFixed(digits)} | ${ratio}`;
  };
  const line = (name: string, runs: readonly ChildAnswer[]): string =>
    `| ${name} | ${cell(runs, (a) => a.seconds, 3)} | ${cell(runs, (a) => a.clientCpu, 2)} | ` +
    `${cell(runs, (a) => a.mainCpu, 2)} | ${cell(runs, (a) => a.deviceCpu, 2)} | ` +
    `${(runs.at(-1) as ChildAnswer).requests} | ${(runs.at(-1) as ChildAnswer).kept} |`;
  console.log(
    `\nA pass of a new process downloading new versions of ${FILES} files, median of ${RUNS} runs, pairs in turn`,
  );
  console.log(
    '| case | pass (s) | ratio | client CPU (s) | ratio | main thread CPU (s) | ratio | device CPU (s) | ratio | requests | versions kept |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  console.log(line("versions: 'off' (replaced in place)", off));
  console.log(line('versions on (default policy)', on));
  const paired = (value: (answer: ChildAnswer) => number): number =>
    median(on.map((answer, run) => value(answer) / value(off[run] as ChildAnswer)));
  const wall = paired((answer) => answer.seconds);
  const cpu = paired((answer) => answer.clientCpu);
  console.log(
    `median of the runs' own ratios: wall ${wall.toFixed(3)}×, client CPU ${cpu.toFixed(3)}×, main thread ${paired((a) => a.mainCpu).toFixed(3)}×`,
  );
  const met = wall <= GOAL && cpu <= GOAL;
  console.log(`goal: at most ${GOAL}× (wall and client CPU): ${met ? 'met' : 'MISSED'}`);
}

/** The measured passes' main-thread time by part of the client, mean ms of a pass. */
function printProfiles(dir: string): void {
  for (const name of ['off', 'on'] as const) {
    const { profiles, parts } = summariseProfiles(join(dir, name));
    const text = [...parts].sort(([, a], [, b]) => b - a).map(([part, ms]) => `${part} ${ms.toFixed(1)}`);
    console.log(`profiles (${name}, mean of ${profiles}, ms): ${text.join('; ')}`);
  }
}

async function main(): Promise<void> {
  const sizes = `${FILES} files in ${FOLDERS} folders`;
  const folder = workFolder(KEEP_DIR, 'mch-versions-pass-bench-', sizes);
  const work = folder.path;
  try {
    const pairs = [pairOf(work, 'on'), pairOf(work, 'off')] as const;
    const deviceDir = join(work, 'device');
    if (folder.reused) {
      console.log(`reusing the setup in ${work} (${sizes})`);
    } else {
      mkdirSync(join(work, 'home', '.local', 'share'), { recursive: true });
      const shape = { files: FILES, folders: FOLDERS, topFolders: 10 };
      await writeScalePair(deviceDir, pairs[0].localRoot, REMOTE_FOLDER, shape);
      copyTree(pairs[0].localRoot, pairs[1].localRoot);
    }
    const asideDir = join(work, 'versions-aside');
    const device = await startBenchDevice(deviceDir);
    try {
      if (!folder.reused) {
        for (const pair of pairs) await adopt(device, pair);
        folder.ready();
      }
      const devicePid = findPid(deviceDir);
      const editor = countedClient(device.base, device.token).client;
      const ids = fileIds(pairs[0]);
      if (ids.length !== FILES) throw new Error(`${ids.length} files synced, not ${FILES}`);
      const answers: Record<PairName, ChildAnswer[]> = { on: [], off: [] };
      // Run 0 is unmeasured: the page cache, the device and the trees warm alike.
      for (let run = 0; run <= RUNS; run += 1) {
        const editSeconds = await editAll(editor, ids, Date.now());
        const order = run % 2 === 0 ? [pairs[0], pairs[1]] : [pairs[1], pairs[0]];
        const text: string[] = [];
        for (const pair of order) {
          if (pair.name === 'on') emptyVersions(pair, join(asideDir, String(run)));
          // What the edits or the last pass left dirty is written out before either pass.
          execFileSync('sync');
          const answer = runChild({ ...device, pair, devicePid }, run > 0);
          if (run > 0) answers[pair.name].push(answer);
          text.push(`${pair.name} ${answer.seconds.toFixed(3)} s (CPU ${answer.clientCpu.toFixed(2)} s)`);
        }
        const label = run === 0 ? 'unmeasured run' : `run ${run}`;
        console.log(`${label}: ${FILES} edits in ${editSeconds.toFixed(1)} s; ${text.join(', ')}`);
      }
      printTable(answers.on, answers.off);
      if (PROFILE_DIR !== undefined) printProfiles(PROFILE_DIR);
    } finally {
      rmSync(asideDir, { recursive: true, force: true });
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

const [mode, setup] = process.argv.slice(2);
if (mode === '--pass') await passChild(JSON.parse(setup as string) as ChildSetup);
else await main();
