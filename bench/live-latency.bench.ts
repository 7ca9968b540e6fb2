// Latency from a local rename to the device having it under live sync, against the bare PATCH round trip.
//
// One device (a child process) and one LiveSync in this process, with its default debounce and poll,
// over a tree of 10,000 small files in 100 folders that its first pass uploads. Then 100 times: a plain
// node:http client renames a file of another remote folder with one PATCH (the baseline, timed from
// send to answer), and right after, a file of the synced tree is renamed on disk. The rename is timed
// from just before `renameSync` to the moment the service's own client receives the device's answer to
// its PATCH, read from the transport's log. The device answers after its transaction commits, so that
// is when the device has the rename; polling the device instead would add requests to the one the
// service is waiting on and round the figure to the polling period. Each rename is done once the
// service is idle again. The device's listing is checked afterwards.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeTally } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { listRemote, msBetween, percentile, startLiveHarness, type LiveHarness } from './lib/live-harness.ts';
import { PlainPatcher } from './lib/plain-patcher.ts';
import { plainUpload } from './lib/plain-uploader.ts';
import { median, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_LIVE_FILES'] ?? 10_000);
const FOLDERS = Number(process.env['BENCH_LIVE_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const RENAMES = Number(process.env['BENCH_LIVE_RENAMES'] ?? 100);
const WARM_UP = 5;
const REMOTE_FOLDER = '/live-latency';
const BASELINE_FOLDER = 'live-latency-baseline';

interface Rename {
  /** Rename on disk to the service's PATCH answered. */
  latencyMs: number;
  /** Rename to the watcher's batch (chokidar's event, then the quiet time). */
  batchMs: number;
  /** Batch to the PATCH answer, less the PATCH itself: scan, remote walk, index, plan. */
  passBeforeMs: number;
  /** The PATCH as the service's transport timed it (whole ms). */
  patchMs: number;
  /** The PATCH answer to the service idle again. */
  afterMs: number;
  /** The pass, start to end, and the CPU time this process spent in it. */
  passMs: number;
  passCpuMs: number;
}

/** Renames `folder-F/file-0.txt` (or its earlier new name) on disk and times it to the device's answer. */
async function timeRename(harness: LiveHarness, localRoot: string, round: number): Promise<Rename> {
  const folder = `folder-${round % FOLDERS}`;
  const generation = Math.floor(round / FOLDERS);
  const from = join(localRoot, folder, generation === 0 ? 'file-0.txt' : `renamed-${generation - 1}.txt`);
  const to = join(localRoot, folder, `renamed-${generation}.txt`);
  harness.mark();
  const answered = harness.nextAnswer(
    (answer) => answer.key.startsWith('PATCH ') || answer.key.startsWith('POST '),
  );
  const started = process.hrtime.bigint();
  renameSync(from, to);
  const answer = await answered;
  const idleAt = await harness.settle(300);
  if (answer.key !== 'PATCH 204')
    throw new Error(`rename ${round}: the service's first write was ${answer.key}`);
  const batchAt = harness.batches[0] as bigint;
  const pass = harness.passes[0];
  if (pass === undefined) throw new Error(`rename ${round}: no pass`);
  return {
    passMs: msBetween(pass.startNs, pass.endNs),
    passCpuMs: pass.cpuMs,
    latencyMs: msBetween(started, answer.atNs),
    batchMs: msBetween(started, batchAt),
    passBeforeMs: msBetween(batchAt, answer.atNs) - answer.durationMs,
    patchMs: answer.durationMs,
    afterMs: msBetween(answer.atNs, idleAt),
  };
}

function row(
  name: string,
  values: number[],
  baselineP50: number,
  baselineP95: number,
  detail: string,
): string {
  const p50 = percentile(values, 0.5);
  const p95 = percentile(values, 0.95);
  return `| ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${Math.max(...values).toFixed(1)} | ${(p50 / baselineP50).toFixed(1)}× | ${(p95 / baselineP95).toFixed(1)}× | ${detail} |`;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-live-latency-bench-'));
  try {
    const localRoot = join(work, 'local');
    writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 1, size: (index) => index % 64 });
    const baselineRoot = join(work, 'baseline');
    writeTree(baselineRoot, { files: RENAMES + WARM_UP, folders: 1, topFolders: 1, size: () => 16 });
    const device = await startBenchDevice(join(work, 'device'));
    try {
      await plainUpload({
        base: device.base,
        token: device.token,
        localRoot: baselineRoot,
        remoteName: BASELINE_FOLDER,
        concurrency: 4,
      });
      const baselineIds = [...(await listRemote(device.base, device.token, `/${BASELINE_FOLDER}`)).values()]
        .filter((entry) => entry.kind === 'file')
        .map((entry) => entry.id);
      const harness = startLiveHarness({
        base: device.base,
        token: device.token,
        localRoot,
        remoteFolder: REMOTE_FOLDER,
        indexPath: join(work, 'index.db'),
      });
      const patcher = new PlainPatcher(device.base, device.token);
      try {
        const started = process.hrtime.bigint();
        await harness.live.start();
        await harness.live.whenIdle();
        const first = harness.passes[0];
        if (first?.report.status !== 'synced' || first.report.counts.uploaded !== FILES) {
          throw new Error(`first pass: ${first?.report.status}, ${first?.report.counts.uploaded} uploaded`);
        }
        console.log(
          `first pass: ${FILES} files in ${FOLDERS} folders uploaded in ${secondsSince(started).toFixed(1)} s`,
        );
        const baseline: number[] = [];
        const renames: Rename[] = [];
        const tally = new Map<string, number>();
        for (let round = 0; round < WARM_UP + RENAMES; round += 1) {
          const id = baselineIds[round] as string;
          const patchMs = await patcher.patch({ id, body: { name: `renamed-${round}.txt` } });
          const rename = await timeRename(harness, localRoot, round);
          // The first few of each are unmeasured: JIT warm-up on both sides.
          if (round < WARM_UP) continue;
          baseline.push(patchMs);
          renames.push(rename);
          for (const [key, count] of harness.tally) tally.set(key, (tally.get(key) ?? 0) + count);
        }
        const remote = await listRemote(device.base, device.token, REMOTE_FOLDER);
        const renamed = [...remote.keys()].filter((path) => /\/renamed-\d+\.txt$/.test(path)).length;
        const expected = Math.min(FOLDERS, WARM_UP + RENAMES);
        if (renamed !== expected) throw new Error(`the device has ${renamed} renamed files, not ${expected}`);

        const latencies = renames.map((rename) => rename.latencyMs);
        const b50 = percentile(baseline, 0.5);
        const b95 = percentile(baseline, 0.95);
        const parts = (pick: (rename: Rename) => number): string =>
          `median ${median(renames.map(pick)).toFixed(1)} ms (p95 ${percentile(renames.map(pick), 0.95).toFixed(1)})`;
        console.log(
          `\nRename to the device having it, ${RENAMES} renames, ${FILES} files in ${FOLDERS} folders, default debounce (300 ms, 50 ms once the events pending are renames paired by inode)`,
        );
        console.log('| case | p50 (ms) | p95 (ms) | max (ms) | p50 ratio | p95 ratio | detail |');
        console.log('|---|---:|---:|---:|---:|---:|---|');
        console.log(row('bare PATCH round trip (node:http)', baseline, b50, b95, '1.0× is the baseline'));
        console.log(
          row(
            'LiveSync: rename on disk → PATCH answered',
            latencies,
            b50,
            b95,
            `goal: p50 < 150 ms, p95 < 250 ms, one PATCH a rename; requests in all: ${describeTally(tally)}`,
          ),
        );
        const p50 = percentile(latencies, 0.5);
        const p95 = percentile(latencies, 0.95);
        const onePatchEach = tally.size === 1 && tally.get('PATCH 204') === RENAMES;
        console.log(
          `verdict: ${p50 < 150 && p95 < 250 && onePatchEach ? 'goal met' : 'goal NOT met'} (p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ${onePatchEach ? 'exactly' : 'NOT exactly'} one PATCH for each of the ${RENAMES} renames)`,
        );
        console.log(
          `where the time goes: rename → batch ${parts((r) => r.batchMs)}; batch → PATCH sent ${parts((r) => r.passBeforeMs)}; PATCH ${parts((r) => r.patchMs)}; PATCH answered → idle ${parts((r) => r.afterMs)}; the pass took ${parts((r) => r.passMs)} of which CPU in this process ${parts((r) => r.passCpuMs)}`,
        );
      } finally {
        patcher.close();
        await harness.stop();
      }
    } finally {
      await device.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
