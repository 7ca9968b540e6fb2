// The first upload of 10,000 small files by the sync engine, against a plain node:http uploader on the same device.
//
// One local tree (1-4 KiB files in 100 folders) and one device (a child process). Each run uploads the
// tree twice into fresh remote folders: once with the plain uploader (bench/lib/plain-uploader.ts),
// once with `SyncEngine.syncOnce` on a fresh index, both with 4 requests in flight; the order
// alternates from run to run, so neither side always meets a bigger database or a colder JIT. The
// medians count. Afterwards both copies of every run are walked to check that every file arrived.
//
// `BENCH_UPLOAD_PROFILE=DIR`: afterwards one more run under `node --cpu-prof` (first-sync-profile.ts),
// its engine pass summed by part and by function.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { STATE_FOLDER_NAME } from '../app/model/names.ts';
import { ensureRemoteFolder } from '../app/sync/remote/remote-folder.ts';
import { walkRemote } from '../app/sync/remote/remote-walk.ts';
import { countedClient, describeTally } from './lib/bench-client.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { startBenchDevice, type BenchDevice } from './lib/device.ts';
import { smallFileSizes, writeTree } from './lib/file-tree.ts';
import { plainUpload } from './lib/plain-uploader.ts';
import { passWindow, profileChildDir, profileOnce } from './lib/first-sync-profile.ts';
import { printComparison } from './lib/report.ts';
import { median, ownCpuSeconds, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_UPLOAD_FILES'] ?? 10_000);
const FOLDERS = Number(process.env['BENCH_UPLOAD_FOLDERS'] ?? 100);
const RUNS = Number(process.env['BENCH_UPLOAD_RUNS'] ?? 4);
const PROFILE_DIR = process.env['BENCH_UPLOAD_PROFILE'];
const CONCURRENCY = 4;
/** The device's pid, found by its data folder, for its CPU time. */
const devicePids = new Map<BenchDevice, number | undefined>();
const WARM_UP_FILES = Math.min(200, FILES);

interface Upload {
  seconds: number;
  /** CPU seconds of the bench process (the uploader) and of the device during the upload. */
  clientCpu: number;
  deviceCpu: number;
  remoteFolder: string;
  detail: string;
}

/** Starts a stopwatch and CPU meters for both processes; calling the result reads them. */
function cpuMeter(device: BenchDevice): () => Pick<Upload, 'seconds' | 'clientCpu' | 'deviceCpu'> {
  const started = process.hrtime.bigint();
  const client = ownCpuSeconds();
  const devicePid = devicePids.get(device);
  const deviceStart = deviceCpuSeconds(devicePid);
  return () => ({
    seconds: secondsSince(started),
    clientCpu: ownCpuSeconds() - client,
    deviceCpu: deviceCpuSeconds(devicePid) - deviceStart,
  });
}

async function uploadPlain(
  device: BenchDevice,
  localRoot: string,
  run: number | string,
  files = FILES,
): Promise<Upload> {
  const remoteName = `plain-${run}`;
  const cpu = cpuMeter(device);
  const result = await plainUpload({
    base: device.base,
    token: device.token,
    localRoot,
    remoteName,
    concurrency: CONCURRENCY,
    // The engine keeps its state in the tree it syncs; that folder is not part of the upload.
    skipNames: [STATE_FOLDER_NAME],
  });
  const used = cpu();
  if (result.files !== files) throw new Error(`plain uploader sent ${result.files} files, not ${files}`);
  return { ...used, remoteFolder: `/${remoteName}`, detail: `POST 201 ×${result.requests}` };
}

async function uploadEngine(
  device: BenchDevice,
  localRoot: string,
  work: string,
  run: number | string,
  files = FILES,
): Promise<Upload> {
  const remoteFolder = `/engine-${run}`;
  const db = openIndexDb(join(work, `index-${run}.db`));
  try {
    const { client, tally } = countedClient(device.base, device.token);
    const engine = new SyncEngine({
      client,
      index: new IndexStore(db),
      localRoot,
      remoteFolder,
      transferConcurrency: CONCURRENCY,
    });
    const cpu = cpuMeter(device);
    const window = passWindow(typeof run === 'number' ? profileChildDir() : undefined);
    const report = await engine.syncOnce();
    window();
    const used = cpu();
    if (report.status !== 'synced' || report.counts.uploaded !== files) {
      throw new Error(
        `engine pass: ${report.status}, ${report.counts.uploaded} uploaded, issues ${JSON.stringify(report.issues.slice(0, 5))}`,
      );
    }
    return { ...used, remoteFolder, detail: describeTally(tally) };
  } finally {
    db.close();
  }
}

function describeUpload(upload: Upload): string {
  return `${upload.seconds.toFixed(2)} s (CPU: bench ${upload.clientCpu.toFixed(1)} s, device ${upload.deviceCpu.toFixed(1)} s)`;
}

/** Median CPU milliseconds per file of each process. */
function cpuPerFile(uploads: readonly Upload[]): string {
  const client = median(uploads.map((upload) => upload.clientCpu)) / FILES;
  const device = median(uploads.map((upload) => upload.deviceCpu)) / FILES;
  return `CPU per file: uploader ${(client * 1000).toFixed(2)} ms, device ${(device * 1000).toFixed(2)} ms`;
}

/** Every file of the local tree is in the remote copy (checked after the timings, not during them). */
async function checkCopy(device: BenchDevice, remoteFolder: string): Promise<void> {
  const { client } = countedClient(device.base, device.token);
  const { id } = await ensureRemoteFolder(client, remoteFolder);
  const { entries } = await walkRemote(client, id);
  const files = [...entries.values()].filter((entry) => entry.kind === 'file');
  const bytes = files.reduce((sum, entry) => sum + entry.size, 0);
  if (files.length !== FILES) throw new Error(`${remoteFolder} holds ${files.length} files, not ${FILES}`);
  if (bytes === 0) throw new Error(`${remoteFolder} holds no content`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-upload-bench-'));
  try {
    const localRoot = join(work, 'local');
    const tree = writeTree(localRoot, {
      files: FILES,
      folders: FOLDERS,
      topFolders: 1,
      size: smallFileSizes(),
    });
    console.log(
      `created ${tree.files} files (${(tree.bytes / 1024 / 1024).toFixed(1)} MiB) in ${tree.folders} folders`,
    );
    const device = await startBenchDevice(join(work, 'device'));
    devicePids.set(device, findPid(join(work, 'device')));
    try {
      // Unmeasured: both sides upload a small tree once, so the device's and the bench's JIT are warm
      // before the first measured run.
      const warmRoot = join(work, 'warm-up');
      writeTree(warmRoot, { files: WARM_UP_FILES, folders: 10, topFolders: 1, size: smallFileSizes(2) });
      await uploadPlain(device, warmRoot, 'warm-up', WARM_UP_FILES);
      await uploadEngine(device, warmRoot, work, 'warm-up', WARM_UP_FILES);
      const plain: Upload[] = [];
      const engine: Upload[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        // Alternate which side goes first.
        if (run % 2 === 0) {
          plain.push(await uploadPlain(device, localRoot, run));
          engine.push(await uploadEngine(device, localRoot, work, run));
        } else {
          engine.push(await uploadEngine(device, localRoot, work, run));
          plain.push(await uploadPlain(device, localRoot, run));
        }
        const p = plain.at(-1) as Upload;
        const e = engine.at(-1) as Upload;
        console.log(
          `run ${run + 1} (${run % 2 === 0 ? 'plain first' : 'engine first'}): plain ${describeUpload(p)}; engine ${describeUpload(e)}; engine/plain rate ${(p.seconds / e.seconds).toFixed(2)}`,
        );
      }
      for (const upload of [...plain, ...engine]) await checkCopy(device, upload.remoteFolder);
      const plainMedian = median(plain.map((upload) => upload.seconds));
      const engineMedian = median(engine.map((upload) => upload.seconds));
      // Each run's two uploads met the same machine: the median of their ratios is steadier on a busy one.
      const pairedRatio = median(
        plain.map((upload, run) => upload.seconds / (engine[run] as Upload).seconds),
      );
      printComparison(
        `First upload of ${FILES} files of 1-4 KiB in ${FOLDERS} folders, ${CONCURRENCY} requests in flight (median of ${RUNS} runs)`,
        {
          name: 'plain node:http uploader',
          rate: FILES / plainMedian,
          unit: 'files/s',
          detail: `${plainMedian.toFixed(2)} s; ${cpuPerFile(plain)}; ${(plain[0] as Upload).detail}`,
        },
        [
          {
            name: 'SyncEngine.syncOnce, fresh index',
            rate: FILES / engineMedian,
            unit: 'files/s',
            detail: `${engineMedian.toFixed(2)} s; ${cpuPerFile(engine)}; ${(engine[0] as Upload).detail}; median of the runs' own ratios ${pairedRatio.toFixed(2)} (goal: ≥ 0.7× the plain uploader)`,
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
    profileOnce(fileURLToPath(import.meta.url), PROFILE_DIR, { BENCH_UPLOAD_RUNS: '1' }, FILES);
  }
}

await main();
