// The first download of 10,000 small files by the sync engine into an empty folder, against a plain node:http downloader.
//
// One device (a child process) holds a tree of 1-4 KiB files in 100 folders, put there once by the
// plain uploader before anything is timed. Each run downloads it twice into new local folders: once
// with the plain downloader (bench/lib/first-sync-plain-downloader.ts), once with `SyncEngine.syncOnce`
// on a fresh index, both with 4 requests in flight; the order alternates from run to run. The medians
// count. Every copy is compared with the source tree, file by file, before it is removed.
//
// `BENCH_DOWNLOAD_PROFILE=DIR`: afterwards one more run under `node --cpu-prof` (first-sync-profile.ts),
// its engine pass summed by part and by function.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { STATE_FOLDER_NAME } from '../app/model/names.ts';
import { countedClient, describeTally } from './lib/bench-client.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { startBenchDevice, type BenchDevice } from './lib/device.ts';
import { smallFileSizes, writeTree } from './lib/file-tree.ts';
import { plainUpload } from './lib/plain-uploader.ts';
import { plainDownload } from './lib/first-sync-plain-downloader.ts';
import { passWindow, profileChildDir, profileOnce } from './lib/first-sync-profile.ts';
import { printComparison } from './lib/report.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_DOWNLOAD_FILES'] ?? 10_000);
const FOLDERS = Number(process.env['BENCH_DOWNLOAD_FOLDERS'] ?? 100);
const RUNS = Number(process.env['BENCH_DOWNLOAD_RUNS'] ?? 4);
const PROFILE_DIR = process.env['BENCH_DOWNLOAD_PROFILE'];
const CONCURRENCY = 4;
const WARM_UP_FILES = Math.min(200, FILES);

interface Download {
  seconds: number;
  /** CPU seconds of the bench process (the downloader) and of the device during the download. */
  clientCpu: number;
  deviceCpu: number;
  localRoot: string;
  detail: string;
}

/** Starts a stopwatch and CPU meters for both processes; calling the result reads them. */
function cpuMeter(
  devicePid: number | undefined,
): () => Pick<Download, 'seconds' | 'clientCpu' | 'deviceCpu'> {
  const started = process.hrtime.bigint();
  const client = ownCpuSeconds();
  const deviceStart = deviceCpuSeconds(devicePid);
  return () => ({
    seconds: secondsSince(started),
    clientCpu: ownCpuSeconds() - client,
    deviceCpu: deviceCpuSeconds(devicePid) - deviceStart,
  });
}

interface Setup {
  device: BenchDevice;
  devicePid: number | undefined;
  work: string;
}

async function downloadPlain(
  setup: Setup,
  remoteName: string,
  run: number | string,
  files: number,
): Promise<Download> {
  const localRoot = join(setup.work, `plain-${run}`);
  const cpu = cpuMeter(setup.devicePid);
  const result = await plainDownload({
    base: setup.device.base,
    token: setup.device.token,
    remoteName,
    localRoot,
    concurrency: CONCURRENCY,
  });
  const used = cpu();
  if (result.files !== files) throw new Error(`plain downloader wrote ${result.files} files, not ${files}`);
  return { ...used, localRoot, detail: `GET 200 ×${result.requests}` };
}

async function downloadEngine(
  setup: Setup,
  remoteName: string,
  run: number | string,
  files: number,
): Promise<Download> {
  const localRoot = join(setup.work, `engine-${run}`);
  const db = openIndexDb(join(setup.work, `index-${run}.db`));
  try {
    const { client, tally } = countedClient(setup.device.base, setup.device.token);
    const engine = new SyncEngine({
      client,
      index: new IndexStore(db),
      localRoot,
      remoteFolder: `/${remoteName}`,
      transferConcurrency: CONCURRENCY,
    });
    const cpu = cpuMeter(setup.devicePid);
    const window = passWindow(typeof run === 'number' ? profileChildDir() : undefined);
    const report = await engine.syncOnce();
    window();
    const used = cpu();
    if (report.status !== 'synced' || report.counts.downloaded !== files) {
      throw new Error(
        `engine pass: ${report.status}, ${report.counts.downloaded} downloaded, issues ${JSON.stringify(report.issues.slice(0, 5))}`,
      );
    }
    return { ...used, localRoot, detail: describeTally(tally) };
  } finally {
    db.close();
  }
}

/** Relative path → content of every file under `root`, the engine's state folder left out. */
function readTree(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name).slice(root.length + 1);
    if (path.split('/')[0] === STATE_FOLDER_NAME) continue;
    files.set(path, readFileSync(join(root, path)));
  }
  return files;
}

/** The copy holds exactly the source's files with the same bytes (checked after the timings), then goes. */
function checkCopy(source: ReadonlyMap<string, Buffer>, copy: string): void {
  const copied = readTree(copy);
  if (copied.size !== source.size) throw new Error(`${copy} holds ${copied.size} files, not ${source.size}`);
  for (const [path, content] of source) {
    if (!copied.get(path)?.equals(content)) throw new Error(`${copy}/${path} differs from the source`);
  }
  rmSync(copy, { recursive: true, force: true });
}

function describeDownload(download: Download): string {
  return `${download.seconds.toFixed(2)} s (CPU: bench ${download.clientCpu.toFixed(1)} s, device ${download.deviceCpu.toFixed(1)} s)`;
}

/** Median CPU milliseconds per file of each process. */
function cpuPerFile(downloads: readonly Download[]): string {
  const client = median(downloads.map((download) => download.clientCpu)) / FILES;
  const device = median(downloads.map((download) => download.deviceCpu)) / FILES;
  return `CPU per file: downloader ${(client * 1000).toFixed(2)} ms, device ${(device * 1000).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-download-bench-'));
  try {
    const sourceRoot = join(work, 'source');
    const tree = writeTree(sourceRoot, {
      files: FILES,
      folders: FOLDERS,
      topFolders: 1,
      size: smallFileSizes(),
    });
    const warmRoot = join(work, 'warm-source');
    writeTree(warmRoot, { files: WARM_UP_FILES, folders: 10, topFolders: 1, size: smallFileSizes(2) });
    console.log(
      `created ${tree.files} files (${(tree.bytes / 1024 / 1024).toFixed(1)} MiB) in ${tree.folders} folders`,
    );
    const device = await startBenchDevice(join(work, 'device'));
    const setup: Setup = { device, devicePid: findPid(join(work, 'device')), work };
    try {
      // Unmeasured: the trees go up once; both sides download the small one, so the JITs are warm.
      const upload = { base: device.base, token: device.token, concurrency: CONCURRENCY };
      await plainUpload({ ...upload, localRoot: sourceRoot, remoteName: 'tree' });
      await plainUpload({ ...upload, localRoot: warmRoot, remoteName: 'warm' });
      const source = readTree(sourceRoot);
      const warm = readTree(warmRoot);
      checkCopy(warm, (await downloadPlain(setup, 'warm', 'warm-up', WARM_UP_FILES)).localRoot);
      checkCopy(warm, (await downloadEngine(setup, 'warm', 'warm-up', WARM_UP_FILES)).localRoot);
      const plain: Download[] = [];
      const engine: Download[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        // Alternate which side goes first.
        if (run % 2 === 0) {
          plain.push(await downloadPlain(setup, 'tree', run, FILES));
          engine.push(await downloadEngine(setup, 'tree', run, FILES));
        } else {
          engine.push(await downloadEngine(setup, 'tree', run, FILES));
          plain.push(await downloadPlain(setup, 'tree', run, FILES));
        }
        const p = plain.at(-1) as Download;
        const e = engine.at(-1) as Download;
        console.log(
          `run ${run + 1} (${run % 2 === 0 ? 'plain first' : 'engine first'}): plain ${describeDownload(p)}; engine ${describeDownload(e)}; engine/plain rate ${(p.seconds / e.seconds).toFixed(2)}, client CPU ${(e.clientCpu / p.clientCpu).toFixed(2)}×`,
        );
        checkCopy(source, p.localRoot);
        checkCopy(source, e.localRoot);
      }
      const plainMedian = median(plain.map((download) => download.seconds));
      const engineMedian = median(engine.map((download) => download.seconds));
      const pairedRatio = median(
        plain.map((download, run) => download.seconds / (engine[run] as Download).seconds),
      );
      printComparison(
        `First download of ${FILES} files of 1-4 KiB in ${FOLDERS} folders into an empty folder, ${CONCURRENCY} requests in flight (median of ${RUNS} runs)`,
        {
          name: 'plain node:http downloader',
          rate: FILES / plainMedian,
          unit: 'files/s',
          detail: `${plainMedian.toFixed(2)} s; ${cpuPerFile(plain)}; ${(plain[0] as Download).detail}`,
        },
        [
          {
            name: 'SyncEngine.syncOnce, fresh index',
            rate: FILES / engineMedian,
            unit: 'files/s',
            detail: `${engineMedian.toFixed(2)} s; ${cpuPerFile(engine)}; ${(engine[0] as Download).detail}; median of the runs' own ratios ${pairedRatio.toFixed(2)} (goal: client CPU ≤ 0.3 ms a file)`,
          },
        ],
      );
    } finally {
      await device.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (PROFILE_DIR !== undefined && profileChildDir() === undefined) {
    profileOnce(fileURLToPath(import.meta.url), PROFILE_DIR, { BENCH_DOWNLOAD_RUNS: '1' }, FILES);
  }
}

await main();
