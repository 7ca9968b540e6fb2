// A local move of a folder of 10,000 files under live sync: requests made and seconds until idle, against one bare PATCH.
//
// One device (a child process) and one LiveSync in this process with its defaults. The tree is
// `projects/folder-F/file-I.txt` (10,000 small files in 100 folders) beside an empty `archive/`; the
// service's first pass uploads it, and the plain uploader puts a second copy in another remote folder
// for the baseline. Each run moves `projects` into `archive` on disk (odd runs move it back) and times
// from the `renameSync` to the service idle again with no batch left; every request the service sends
// meanwhile is counted (goal: one PATCH). The baseline is the same move of the copy on the device by
// one bare PATCH from a plain node:http client. The order alternates from run to run; the medians count.
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STATE_FOLDER_NAME } from '../app/model/names.ts';
import { describeTally, writeRequests } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { listRemote, msBetween, startLiveHarness, type LiveHarness } from './lib/live-harness.ts';
import { PlainPatcher } from './lib/plain-patcher.ts';
import { plainUpload } from './lib/plain-uploader.ts';
import { median, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_LIVE_MOVE_FILES'] ?? 10_000);
const FOLDERS = Math.max(1, Math.round(FILES / 100));
const RUNS = Number(process.env['BENCH_LIVE_MOVE_RUNS'] ?? 4);
const REMOTE_FOLDER = '/live-folder-move';
const BASELINE_FOLDER = 'live-folder-move-baseline';

interface Move {
  seconds: number;
  /** Rename to the first batch, to the first write answered. */
  batchSeconds: number;
  firstWriteSeconds: number;
  writes: number;
  tally: Map<string, number>;
  batches: number;
  passes: string;
}

async function moveLive(harness: LiveHarness, localRoot: string, run: number): Promise<Move> {
  const inProjects = join(localRoot, 'projects');
  const inArchive = join(localRoot, 'archive', 'projects');
  harness.mark();
  const started = process.hrtime.bigint();
  if (run % 2 === 0) renameSync(inProjects, inArchive);
  else renameSync(inArchive, inProjects);
  const idleAt = await harness.settle();
  const firstWrite = harness.answers.find((answer) => !answer.key.startsWith('GET '));
  return {
    seconds: msBetween(started, idleAt) / 1000,
    batchSeconds: msBetween(started, harness.batches[0] as bigint) / 1000,
    firstWriteSeconds: firstWrite === undefined ? Number.NaN : msBetween(started, firstWrite.atNs) / 1000,
    writes: writeRequests(harness.tally),
    tally: new Map(harness.tally),
    batches: harness.batches.length,
    passes: harness.passes
      .map(
        (pass) =>
          `${pass.mode} ${(msBetween(pass.startNs, pass.endNs) / 1000).toFixed(2)} s (CPU ${(pass.cpuMs / 1000).toFixed(2)} s)`,
      )
      .join(', '),
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-live-move-bench-'));
  try {
    const localRoot = join(work, 'local');
    writeTree(join(localRoot, 'projects'), {
      files: FILES,
      folders: FOLDERS,
      topFolders: 1,
      size: (index) => index % 64,
    });
    mkdirSync(join(localRoot, 'archive'));
    const device = await startBenchDevice(join(work, 'device'));
    try {
      let started = process.hrtime.bigint();
      await plainUpload({
        base: device.base,
        token: device.token,
        localRoot,
        remoteName: BASELINE_FOLDER,
        concurrency: 4,
        skipNames: [STATE_FOLDER_NAME],
      });
      console.log(`baseline copy uploaded in ${secondsSince(started).toFixed(1)} s`);
      const copy = await listRemote(device.base, device.token, `/${BASELINE_FOLDER}`);
      const copyRootId = copy.get('projects')?.parentId as string;
      const projectsId = copy.get('projects')?.id as string;
      const archiveId = copy.get('archive')?.id as string;
      const harness = startLiveHarness({
        base: device.base,
        token: device.token,
        localRoot,
        remoteFolder: REMOTE_FOLDER,
        indexPath: join(work, 'index.db'),
      });
      const patcher = new PlainPatcher(device.base, device.token);
      try {
        started = process.hrtime.bigint();
        await harness.live.start();
        await harness.live.whenIdle();
        const first = harness.passes[0];
        if (first?.report.status !== 'synced' || first.report.counts.uploaded !== FILES) {
          throw new Error(`first pass: ${first?.report.status}, ${first?.report.counts.uploaded} uploaded`);
        }
        console.log(`first pass: ${FILES} files uploaded in ${secondsSince(started).toFixed(1)} s`);
        const plain: number[] = [];
        const live: Move[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          const baseline = async (): Promise<void> => {
            const parentID = run % 2 === 0 ? archiveId : copyRootId;
            plain.push((await patcher.patch({ id: projectsId, body: { parentID } })) / 1000);
          };
          if (run % 2 === 0) {
            await baseline();
            live.push(await moveLive(harness, localRoot, run));
          } else {
            live.push(await moveLive(harness, localRoot, run));
            await baseline();
          }
          const move = live.at(-1) as Move;
          console.log(
            `run ${run + 1}: plain PATCH ${(plain.at(-1) as number).toFixed(3)} s; LiveSync idle after ${move.seconds.toFixed(2)} s (batch at ${move.batchSeconds.toFixed(2)} s, first write answered at ${move.firstWriteSeconds.toFixed(2)} s; ${move.batches} batches; passes: ${move.passes}; ${describeTally(move.tally)})`,
          );
        }
        const remote = await listRemote(device.base, device.token, REMOTE_FOLDER);
        const where = RUNS % 2 === 1 ? 'archive/projects/' : 'projects/';
        const moved = [...remote.values()].filter(
          (entry) => entry.kind === 'file' && entry.path.startsWith(where),
        ).length;
        if (moved !== FILES) throw new Error(`the device has ${moved} files under ${where}, not ${FILES}`);

        const plainMedian = median(plain);
        const liveMedian = median(live.map((move) => move.seconds));
        const requests = (move: Move): number => [...move.tally.values()].reduce((sum, n) => sum + n, 0);
        console.log(
          `\nLocal move of a folder of ${FILES} files (${FOLDERS} subfolders) while running (median of ${RUNS} runs)`,
        );
        console.log('| case | seconds until idle | ratio to baseline | requests | detail |');
        console.log('|---|---:|---:|---:|---|');
        console.log(
          `| bare PATCH of the same move (node:http) | ${plainMedian.toFixed(3)} | 1 (baseline) | 1 | PATCH 204 |`,
        );
        console.log(
          `| LiveSync: rename on disk → idle | ${liveMedian.toFixed(2)} | ${(liveMedian / plainMedian).toFixed(0)}× | ${median(live.map(requests))} | goal: 1 request; writes per run ${live.map((move) => move.writes).join(', ')}; per run: ${live.map((move) => describeTally(move.tally)).join('; ')}; first batch after ${median(live.map((move) => move.batchSeconds)).toFixed(2)} s, the PATCH answered after ${median(live.map((move) => move.firstWriteSeconds)).toFixed(2)} s (medians) |`,
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
