// A burst of 1,000 local renames under live sync until the service is idle, against the same 1,000 PATCHes from a plain client.
//
// One device (a child process) and one LiveSync in this process with its defaults, over 10,000 small
// files in 100 folders that its first pass uploads. A second copy of 1,000 files, uploaded by the plain
// uploader, is what the baseline renames. Each run renames 10 files in each of the 100 folders on disk
// in one loop (a script or a tool renaming a batch) and times it from the first rename to the service
// idle again with no batch left (and to its last PATCH answered: the device has them all); the
// baseline sends the same 1,000 renames as bare PATCHes, one at a time as the engine sends moves, and
// again with 4 in flight. The order alternates from run to run; the medians count.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeTally } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { listRemote, msBetween, startLiveHarness, type LiveHarness } from './lib/live-harness.ts';
import { PlainPatcher, type PlainPatch } from './lib/plain-patcher.ts';
import { plainUpload } from './lib/plain-uploader.ts';
import { printComparison } from './lib/report.ts';
import { median, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_LIVE_FILES'] ?? 10_000);
const FOLDERS = 100;
const PER_FOLDER = Number(process.env['BENCH_LIVE_BURST_PER_FOLDER'] ?? 10);
const RENAMES = FOLDERS * PER_FOLDER;
const RUNS = Number(process.env['BENCH_LIVE_BURST_RUNS'] ?? 3);
const REMOTE_FOLDER = '/live-burst';
const BASELINE_FOLDER = 'live-burst-baseline';

interface Burst {
  /** First rename to the service idle with nothing left to do. */
  seconds: number;
  /** First rename to the answer of the service's last PATCH. */
  lastAnswerSeconds: number;
  /** The rename loop itself. */
  loopSeconds: number;
  batches: number;
  passes: string;
  requests: string;
}

function nameOf(run: number, file: number): string {
  return run < 0 ? `file-${file}.txt` : `burst-${run}-${file}.txt`;
}

async function burstLive(harness: LiveHarness, localRoot: string, run: number): Promise<Burst> {
  harness.mark();
  const started = process.hrtime.bigint();
  for (let folder = 0; folder < FOLDERS; folder += 1) {
    for (let file = 0; file < PER_FOLDER; file += 1) {
      const dir = join(localRoot, `folder-${folder}`);
      renameSync(join(dir, nameOf(run - 1, file)), join(dir, nameOf(run, file)));
    }
  }
  const loopSeconds = secondsSince(started);
  const idleAt = await harness.settle();
  const writes = harness.answers.filter((answer) => !answer.key.startsWith('GET '));
  const patches = writes.filter((answer) => answer.key === 'PATCH 204').length;
  if (patches !== RENAMES || writes.length !== RENAMES) {
    throw new Error(`run ${run}: ${describeTally(harness.tally)} for ${RENAMES} renames`);
  }
  return {
    seconds: msBetween(started, idleAt) / 1000,
    lastAnswerSeconds: msBetween(started, (writes.at(-1) as { atNs: bigint }).atNs) / 1000,
    loopSeconds,
    batches: harness.batches.length,
    passes: harness.passes
      .map(
        (pass) =>
          `${pass.mode} ${(msBetween(pass.startNs, pass.endNs) / 1000).toFixed(2)} s (CPU ${(pass.cpuMs / 1000).toFixed(2)} s)`,
      )
      .join(', '),
    requests: describeTally(harness.tally),
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-live-burst-bench-'));
  try {
    const localRoot = join(work, 'local');
    writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 1, size: (index) => index % 64 });
    const baselineRoot = join(work, 'baseline');
    writeTree(baselineRoot, { files: RENAMES, folders: FOLDERS, topFolders: 1, size: () => 16 });
    const device = await startBenchDevice(join(work, 'device'));
    try {
      await plainUpload({
        base: device.base,
        token: device.token,
        localRoot: baselineRoot,
        remoteName: BASELINE_FOLDER,
        concurrency: 4,
      });
      const baselineItems = [...(await listRemote(device.base, device.token, `/${BASELINE_FOLDER}`)).values()]
        .filter((entry) => entry.kind === 'file')
        .map((entry) => ({ id: entry.id, file: Number(/file-(\d+)\.txt$/.exec(entry.name)?.[1]) }));
      if (baselineItems.length !== RENAMES) throw new Error(`baseline copy: ${baselineItems.length} files`);
      const baselinePatches = (run: number): PlainPatch[] =>
        baselineItems.map(({ id, file }) => ({ id, body: { name: nameOf(run, file) } }));
      const harness = startLiveHarness({
        base: device.base,
        token: device.token,
        localRoot,
        remoteFolder: REMOTE_FOLDER,
        indexPath: join(work, 'index.db'),
      });
      const sequential = new PlainPatcher(device.base, device.token, 1);
      const parallel = new PlainPatcher(device.base, device.token, 4);
      try {
        const started = process.hrtime.bigint();
        await harness.live.start();
        await harness.live.whenIdle();
        const first = harness.passes[0];
        if (first?.report.status !== 'synced' || first.report.counts.uploaded !== FILES) {
          throw new Error(`first pass: ${first?.report.status}, ${first?.report.counts.uploaded} uploaded`);
        }
        console.log(`first pass: ${FILES} files uploaded in ${secondsSince(started).toFixed(1)} s`);
        // Unmeasured: one burst of each, so the JIT is warm on every side; run -1's names are the originals.
        await burstLive(harness, localRoot, 0);
        await sequential.patchAll(baselinePatches(0), 1);
        const plain: number[] = [];
        const plain4: number[] = [];
        const live: Burst[] = [];
        for (let run = 1; run <= RUNS; run += 1) {
          const baseline = async (): Promise<void> => {
            // Both baselines rename the same items, to names of their own.
            plain.push((await sequential.patchAll(baselinePatches(run), 1)) / 1000);
            plain4.push((await parallel.patchAll(baselinePatches(run + 1000), 4)) / 1000);
          };
          if (run % 2 === 1) {
            await baseline();
            live.push(await burstLive(harness, localRoot, run));
          } else {
            live.push(await burstLive(harness, localRoot, run));
            await baseline();
          }
          const burst = live.at(-1) as Burst;
          console.log(
            `run ${run}: plain ${(plain.at(-1) as number).toFixed(2)} s (4 in flight ${(plain4.at(-1) as number).toFixed(2)} s); LiveSync idle after ${burst.seconds.toFixed(2)} s, last PATCH answered at ${burst.lastAnswerSeconds.toFixed(2)} s (rename loop ${burst.loopSeconds.toFixed(3)} s; ${burst.batches} batches; passes: ${burst.passes}; ${burst.requests})`,
          );
        }
        const remote = await listRemote(device.base, device.token, REMOTE_FOLDER);
        const renamed = [...remote.keys()].filter((path) => path.includes(`/burst-${RUNS}-`)).length;
        if (renamed !== RENAMES) throw new Error(`the device has ${renamed} of the ${RENAMES} last names`);

        const plainMedian = median(plain);
        const plain4Median = median(plain4);
        const liveMedian = median(live.map((burst) => burst.seconds));
        const answerMedian = median(live.map((burst) => burst.lastAnswerSeconds));
        const last = live.at(-1) as Burst;
        printComparison(
          `Burst of ${RENAMES} renames (${PER_FOLDER} in each of ${FOLDERS} folders), ${FILES} files synced (median of ${RUNS} runs)`,
          {
            name: 'plain node:http client, 1 PATCH at a time',
            rate: RENAMES / plainMedian,
            unit: 'renames/s',
            detail: `${plainMedian.toFixed(2)} s`,
          },
          [
            {
              name: 'plain node:http client, 4 PATCHes in flight',
              rate: RENAMES / plain4Median,
              unit: 'renames/s',
              detail: `${plain4Median.toFixed(2)} s`,
            },
            {
              name: 'LiveSync: first rename → last PATCH answered',
              rate: RENAMES / answerMedian,
              unit: 'renames/s',
              detail: `${answerMedian.toFixed(2)} s`,
            },
            {
              name: 'LiveSync: first rename → idle',
              rate: RENAMES / liveMedian,
              unit: 'renames/s',
              detail: `${liveMedian.toFixed(2)} s; last run: ${last.batches} batches, passes ${last.passes}; ${last.requests}`,
            },
          ],
        );
      } finally {
        sequential.close();
        parallel.close();
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
