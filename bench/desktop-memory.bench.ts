// Memory of the desktop app's main process without Electron: UiCore plus the desktop decisions on one idle pair of 10,000 files, against `mch-sync run` alone on the same pair; goal at most 1.15×.
//
// The tree (10,000 small files in 100 folders; BENCH_DESKTOP_MEMORY_FILES) is paired in a profile
// signed in to the device (a child process) and mirrored once with `mch-sync run --once`
// (BENCH_DESKTOP_MEMORY_KEEP=DIR keeps it all for the next run). Then two child processes in turn,
// each started as after a login (its first, full pass against an index that is up to date), and read
// from outside through /proc once that pass is done and BENCH_DESKTOP_MEMORY_SETTLE_SECONDS (60) have
// passed: VmRSS (resident now) and VmHWM (the highest it was, the first pass included).
// 1. `mch-sync run --folder …`, live, alone.
// 2. This file as a child: what main/ runs in its process besides Electron itself: UiCore.open with the
//    app's options, the tray model (trayModelOf) and its TrayUpdater fed by the core's events, the
//    share action and its batcher (app/desktop). Electron's own share (its V8 isolate's baseline,
//    Chromium's browser process) is not measured: no Electron binary runs here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AccountView, ActivityView, PairView } from '../common/contract.ts';
import { ShareBatcher } from '../app/desktop/launch-args.ts';
import { ShareAction } from '../app/desktop/share-action.ts';
import { trayModelOf } from '../app/desktop/tray-model.ts';
import { TrayUpdater } from '../app/desktop/tray-throttle.ts';
import { systemClock } from '../app/system/clock.ts';
import { UiCore } from '../app/ui/ui-core.ts';
import { addBenchPair, signInBenchProfile, type BenchProfile } from './lib/bench-profile.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { workFolder } from './lib/kept-setup.ts';
import { passOnce, withLiveRun } from './lib/live-run.ts';
import { startNodeProcess } from './lib/processes.ts';
import { secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_DESKTOP_MEMORY_FILES'] ?? 10_000);
const FOLDERS = Number(process.env['BENCH_DESKTOP_MEMORY_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
// V8's memory reducer gives the first pass's garbage back some 30-40 s after a process goes idle
// (seen here: 197 → 143 MB for `run`, 193 → 140 MB for the desktop core); a shorter settle compares
// one process before it and the other after.
const SETTLE_SECONDS = Number(process.env['BENCH_DESKTOP_MEMORY_SETTLE_SECONDS'] ?? 60);
const KEEP_DIR = process.env['BENCH_DESKTOP_MEMORY_KEEP'];
const REMOTE_FOLDER = '/desktop-memory';
const GOAL_RATIO = 1.15;
const READY_TIMEOUT_MS = 1_800_000;

interface Memory {
  rssMb: number;
  hwmMb: number;
  readySeconds: number;
  detail: string;
}

/** VmRSS and VmHWM of /proc/<pid>/status, MB. */
function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: field('VmRSS'), hwmMb: field('VmHWM') };
}

/** Child mode: the app's main-process core and decisions; `ready` once every pair's first pass is done. */
async function desktopChild(profileDir: string, sinceMs: number): Promise<void> {
  const core = await UiCore.open({
    profileDir,
    env: process.env,
    openExternal: () => Promise.reject(new Error('no browser is opened from a bench')),
    log: (level, message) => {
      if (level !== 'info') process.stderr.write(`desktop-child: ${level}: ${message}\n`);
    },
    // As main/ gives them; nothing is installed (applySystemSettings is not called).
    shareCommand: [process.execPath, '--share'],
    autostart: null,
  });
  let account = (await core.handlers['account:get']({})) as AccountView;
  let pairs: PairView[] = core.pairViews();
  let recent: ActivityView[] = [];
  let trayChanges = 0;
  let events = 0;
  const updater = new TrayUpdater({ clock: systemClock, apply: () => (trayChanges += 1) });
  const refresh = (): void => updater.update(trayModelOf({ account, pairs, recent }));
  core.onEvent((name, payload) => {
    events += 1;
    if (name === 'pairs:changed') pairs = payload as PairView[];
    else if (name === 'account:changed') account = payload as AccountView;
    else if (name === 'activity:added') recent = [...(payload as ActivityView[]), ...recent].slice(0, 50);
    else return;
    refresh();
  });
  refresh();
  const action = new ShareAction({ core, clipboard: { writeText: () => undefined } });
  const batcher = new ShareBatcher({ onBatch: (paths) => void action.share(paths) });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const views = core.pairViews();
    if (views.some((view) => view.state === 'error' || view.state === 'held'))
      throw new Error('a pair failed');
    if (
      views.length > 0 &&
      views.every((view) => view.state === 'idle' && (view.lastSyncAtMs ?? 0) >= sinceMs)
    )
      break;
    if (Date.now() > deadline) throw new Error('the first pass did not end');
    await sleep(500);
  }
  console.log(`ready ${views(core)}`);
  process.once('SIGTERM', () => {
    void (async () => {
      const usage = process.memoryUsage();
      const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
      updater.close();
      batcher.close();
      await core.close();
      console.log(
        `report ${trayChanges} tray changes from ${events} core events; V8 heap ${mb(usage.heapUsed)} of ${mb(usage.heapTotal)} MB, external ${mb(usage.external)} MB`,
      );
      process.exit(0);
    })();
  });
}

function views(core: UiCore): string {
  return core
    .pairViews()
    .map((view) => `${view.itemsSynced} items`)
    .join(', ');
}

/** Waits SETTLE_SECONDS, printing the RSS of each second (when, and whether, the process gives memory back). */
async function settle(pid: number, name: string): Promise<void> {
  const trace: string[] = [];
  for (let second = 0; second < SETTLE_SECONDS; second += 1) {
    await sleep(1000);
    trace.push(memoryOf(pid).rssMb.toFixed(0));
  }
  console.log(`${name}: RSS each second of the settle (MB): ${trace.join(' ')}`);
}

/** `mch-sync run` alone: ready once `mch-sync status --json` says its first pass ended. */
async function measureRun(profile: BenchProfile, localRoot: string): Promise<Memory> {
  return withLiveRun(profile, localRoot, REMOTE_FOLDER, async (run) => {
    const readySeconds = secondsSince(run.started);
    await settle(run.pid, 'mch-sync run');
    return { ...memoryOf(run.pid), readySeconds, detail: '' };
  });
}

async function measureDesktop(profile: BenchProfile): Promise<Memory> {
  const started = process.hrtime.bigint();
  const child = await startNodeProcess(
    [import.meta.filename, '--child', profile.profile, String(Date.now())],
    /^ready (.+)$/,
    READY_TIMEOUT_MS,
    profile.env,
  );
  let output = '';
  child.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  try {
    const readySeconds = secondsSince(started);
    await settle(child.child.pid as number, 'desktop core');
    const memory = memoryOf(child.child.pid as number);
    await child.stop();
    const report = /^report (.+)$/m.exec(output)?.[1] ?? 'no report';
    return { ...memory, readySeconds, detail: `; ${child.value}; ${report}` };
  } finally {
    await child.stop();
  }
}

function row(name: string, measured: Memory, baseline: Memory): string {
  const ratio = (value: number, base: number): string =>
    measured === baseline ? '1.00 (baseline)' : (value / base).toFixed(2);
  return `| ${name} | ${measured.rssMb.toFixed(1)} | ${ratio(measured.rssMb, baseline.rssMb)} | ${measured.hwmMb.toFixed(1)} | ${ratio(measured.hwmMb, baseline.hwmMb)} | ready after ${measured.readySeconds.toFixed(1)} s${measured.detail} |`;
}

async function main(): Promise<void> {
  const folder = workFolder(KEEP_DIR, 'mch-desktop-memory-bench-', `${FILES} files in ${FOLDERS} folders`);
  const work = folder.path;
  try {
    const localRoot = join(work, 'local');
    let started = process.hrtime.bigint();
    if (!folder.reused) {
      writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 10, size: (index) => index % 64 });
      console.log(`created ${FILES} files in ${FOLDERS} folders in ${secondsSince(started).toFixed(1)} s`);
    } else {
      console.log(`reusing the setup in ${work}`);
    }
    const device = await startBenchDevice(join(work, 'device'));
    try {
      const profile = await signInBenchProfile(device, join(work, 'home'));
      await addBenchPair(profile, localRoot, REMOTE_FOLDER);
      started = process.hrtime.bigint();
      console.log(
        `mch-sync run --once: ${await passOnce(profile, localRoot, REMOTE_FOLDER, READY_TIMEOUT_MS)} in ${secondsSince(started).toFixed(1)} s`,
      );
      folder.ready();
      const run = await measureRun(profile, localRoot);
      console.log(`mch-sync run: ${JSON.stringify(run)}`);
      const desktop = await measureDesktop(profile);
      console.log(`desktop core: ${JSON.stringify(desktop)}`);
      console.log(
        `\nMemory ${SETTLE_SECONDS} s after the first pass, one idle pair of ${FILES} files in ${FOLDERS} folders (one process)`,
      );
      console.log('| case | RSS (MB) | RSS ratio | peak RSS, VmHWM (MB) | peak ratio | detail |');
      console.log('|---|---:|---:|---:|---:|---|');
      console.log(row('mch-sync run (live, alone)', run, run));
      console.log(
        row('UiCore + tray model and updater + share action (main/ without Electron)', desktop, run),
      );
      const ratio = desktop.rssMb / run.rssMb;
      const met = ratio <= GOAL_RATIO;
      console.log(
        `\nGoal: RSS at most ${GOAL_RATIO}× mch-sync run's: ${met ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×).`,
      );
      if (!met) process.exitCode = 1;
    } finally {
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

if (process.argv[2] === '--child') {
  const [profileDir, sinceMs] = process.argv.slice(3);
  await desktopChild(profileDir ?? '', Number(sinceMs));
} else {
  await main();
}
