// What live sync costs while nothing changes: CPU and RSS over 60 s with 100,000 files watched, against chokidar alone.
//
// The tree (100,000 small files in 1,000 folders under 10 top folders) is mirrored to a device (a
// child process) by one engine pass first. Then two child processes run in turn on it, each measured
// from outside through /proc for the same window once it is ready: plain chokidar 6 (`watch(root,
// {ignoreInitial: true, followSymlinks: false})`, after its `ready`), and LiveSync with its defaults
// (after `start()` and its first pass, i.e. what a restart at login does). LiveSync polls the device
// every 30 s when nothing happens here: each poll walks the device folder with one conditional GET per
// folder (a 304 when unchanged) and reads the disk only around what changed. That is part of its
// cost, so the window is long enough to hold one or two. The device's own CPU in the same window is
// shown beside it (it answers the poll).
import { join } from 'node:path';
import { watch } from 'chokidar';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { countedClient, describeTally } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { workFolder } from './lib/kept-setup.ts';
import { msBetween, startLiveHarness } from './lib/live-harness.ts';
import { startNodeProcess } from './lib/processes.ts';
import { cpuSeconds, findPid, inotifyWatches, measureWindow, type UsageWindow } from './lib/process-usage.ts';
import { secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_LIVE_IDLE_FILES'] ?? 100_000);
const FOLDERS = Number(process.env['BENCH_LIVE_IDLE_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const WINDOW_SECONDS = Number(process.env['BENCH_LIVE_IDLE_SECONDS'] ?? 60);
const REMOTE_FOLDER = '/live-idle';
/** Keeps the tree, the device and the index in this folder for the next run (mirroring takes minutes). */
const KEEP_DIR = process.env['BENCH_LIVE_IDLE_KEEP'];

/** What the LiveSync child needs to reach the tree, the index and the device. */
interface Setup {
  base: string;
  token: string;
  localRoot: string;
  indexPath: string;
}

/** What a child reports when it is stopped. */
interface ChildReport {
  requests: string;
  passes: string;
}

/** Child mode: chokidar alone; prints `ready <ms>` once its initial walk is done, then only watches. */
async function chokidarChild(root: string): Promise<void> {
  const started = process.hrtime.bigint();
  const watcher = watch(root, { ignoreInitial: true, followSymlinks: false });
  let events = 0;
  watcher.on('all', () => (events += 1));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  console.log(`ready ${msBetween(started, process.hrtime.bigint()).toFixed(0)}`);
  process.once('SIGTERM', () => {
    void watcher.close().then(() => {
      console.log(JSON.stringify({ requests: 'none', passes: `${events} events` } satisfies ChildReport));
      process.exit(0);
    });
  });
}

/** Child mode: LiveSync with its defaults; prints `ready <ms>` once started and idle after its first pass. */
async function liveChild(setup: Setup): Promise<void> {
  const started = process.hrtime.bigint();
  const harness = startLiveHarness({ ...setup, remoteFolder: REMOTE_FOLDER });
  await harness.live.start();
  await harness.live.whenIdle();
  const first = harness.passes[0];
  if (first?.report.status !== 'synced') throw new Error(`first pass: ${first?.report.status}`);
  const firstPass = `first pass ${msBetween(first.startNs, first.endNs).toFixed(0)} ms (${describeTally(harness.tally)})`;
  harness.mark();
  console.log(`ready ${msBetween(started, process.hrtime.bigint()).toFixed(0)} ${firstPass}`);
  process.once('SIGTERM', () => {
    const passes = harness.passes
      .map(
        (pass) =>
          `${pass.mode} ${msBetween(pass.startNs, pass.endNs).toFixed(0)} ms (CPU ${pass.cpuMs.toFixed(0)} ms)`,
      )
      .join(', ');
    const report: ChildReport = { requests: describeTally(harness.tally), passes: passes || 'no pass' };
    void harness.stop().then(() => {
      console.log(JSON.stringify(report));
      process.exit(0);
    });
  });
}

interface Measured {
  window: UsageWindow;
  device: number;
  readyMs: number;
  readyDetail: string;
  watches: number;
  report: ChildReport;
}

async function measureChild(args: string[], devicePid: number | undefined): Promise<Measured> {
  const child = await startNodeProcess([import.meta.filename, ...args], /^ready (.+)$/, 1_800_000);
  let output = '';
  child.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  try {
    const pid = child.child.pid as number;
    const [readyMs, ...readyDetail] = child.value.split(' ');
    const deviceBefore = devicePid === undefined ? 0 : cpuSeconds(devicePid);
    const window = await measureWindow(pid, WINDOW_SECONDS);
    const device = devicePid === undefined ? Number.NaN : cpuSeconds(devicePid) - deviceBefore;
    const watches = inotifyWatches(pid);
    await child.stop();
    const report = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildReport;
    return { window, device, readyMs: Number(readyMs), readyDetail: readyDetail.join(' '), watches, report };
  } finally {
    await child.stop();
  }
}

function row(name: string, measured: Measured, baseline: Measured): string {
  const { window } = measured;
  const percent = (100 * window.cpuSeconds) / window.seconds;
  const ratio = (value: number, base: number): string =>
    measured === baseline ? '1.00 (baseline)' : base > 0 ? `${(value / base).toFixed(2)}` : 'n/a';
  return [
    '',
    name,
    `${window.cpuSeconds.toFixed(2)} s (${percent.toFixed(2)} %)`,
    ratio(window.cpuSeconds, baseline.window.cpuSeconds),
    `${window.endRssMb.toFixed(0)} / ${window.peakRssMb.toFixed(0)}`,
    ratio(window.endRssMb, baseline.window.endRssMb),
    `ready after ${(measured.readyMs / 1000).toFixed(1)} s${measured.readyDetail ? `, ${measured.readyDetail}` : ''}; ${measured.watches} inotify watches; device CPU ${measured.device.toFixed(2)} s; in the window: ${measured.report.passes}; ${measured.report.requests}`,
    '',
  ]
    .join(' | ')
    .trim();
}

async function main(): Promise<void> {
  const folder = workFolder(KEEP_DIR, 'mch-live-idle-bench-', `${FILES} files in ${FOLDERS} folders`);
  const work = folder.path;
  try {
    const localRoot = join(work, 'local');
    let started = process.hrtime.bigint();
    if (!folder.reused) {
      writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 10, size: (index) => index % 64 });
      console.log(`created ${FILES} files in ${FOLDERS} folders in ${secondsSince(started).toFixed(1)} s`);
    }
    const dataDir = join(work, 'device');
    const device = await startBenchDevice(dataDir);
    try {
      const setup: Setup = {
        base: device.base,
        token: device.token,
        localRoot,
        indexPath: join(work, 'index.db'),
      };
      started = process.hrtime.bigint();
      const db = openIndexDb(setup.indexPath);
      try {
        if (folder.reused) console.log(`reusing the setup in ${work}`);
        const { client, tally } = countedClient(device.base, device.token);
        const engine = new SyncEngine({
          client,
          index: new IndexStore(db),
          localRoot,
          remoteFolder: REMOTE_FOLDER,
        });
        const report = await engine.syncOnce();
        const expected = folder.reused ? 0 : FILES;
        if (report.status !== 'synced' || report.counts.uploaded !== expected) {
          throw new Error(
            `initial pass: ${report.status}, ${report.counts.uploaded} of ${expected} uploaded`,
          );
        }
        console.log(`initial sync in ${secondsSince(started).toFixed(1)} s (${describeTally(tally)})`);
        folder.ready();
      } finally {
        db.close();
      }
      const devicePid = findPid(dataDir);
      const chokidar = await measureChild(['--chokidar', localRoot], devicePid);
      console.log(`chokidar: ${JSON.stringify(chokidar)}`);
      const live = await measureChild(['--live', JSON.stringify(setup)], devicePid);
      console.log(`LiveSync: ${JSON.stringify(live)}`);
      console.log(
        `\nIdle cost over ${WINDOW_SECONDS} s once ready, ${FILES} files in ${FOLDERS} folders (CPU of one process, all threads)`,
      );
      console.log('| case | CPU in the window | CPU ratio | RSS end / peak (MB) | RSS ratio | detail |');
      console.log('|---|---:|---:|---:|---:|---|');
      console.log(row('chokidar 6 alone', chokidar, chokidar));
      console.log(row('LiveSync, default poll (30 s)', live, chokidar));
      console.log('goal: CPU near 0');
    } finally {
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

const [mode, argument] = process.argv.slice(2);
if (mode === '--chokidar') await chokidarChild(argument as string);
else if (mode === '--live') await liveChild(JSON.parse(argument as string) as Setup);
else await main();
