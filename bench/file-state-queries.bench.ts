// Emblem queries for a folder of 10,000 files against `os.stat` of those files, from python as the file managers ask, idle and while a first pass of 100,000 files runs in the same client.
//
// A pair's folder holds `query/` (10,000 files of 1-64 bytes, synced first by `mch-sync run --once`);
// `mch-sync run` (bin/mch-sync.js, a child) serves it, the device is another child. A python child
// (/usr/bin/python3, the extensions' python) lists `query/` once, then each round does, in turn
// (alternating which goes first): `os.stat` of each of the 10,000 entries (the baseline: what a file
// manager does anyway to show them), and one `children` request for the folder over the state socket, its
// answer read as the extension reads (recv of 64 KiB), parsed (json.loads) and taken as its cache takes it
// (the `entries` dict, name → state). A second python child stays subscribed on its own connection, as an
// open file manager does, so the service also computes its pushes. Rounds are taken idle; then `bulk/`
// (100,000 new files in 1,000 folders, written beforehand outside the folder) is moved into the folder with
// one rename, and rounds are taken while the service's first pass over them runs (a round counts only when
// the service said scanning or syncing before and after it). Goal (issue 32): the query at most 2× the
// stat, both cases.
//
//   npm run bench -- file-state-queries   (BENCH_STATE_QUERY_FILES, _BULK, _ROUNDS, _BUSY_ROUNDS,
//   _BUSY_GAP_MS; BENCH_STATE_QUERY_PROF=DIR: the service runs with --cpu-prof and the samples taken
//   during the requests are summed by function)
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SyncStatus } from '../common/sync-status.ts';
import { writeTree } from './lib/file-tree.ts';
import { printLatencyComparison, summarize } from './lib/latency-report.ts';
import { load, startStateBench, syncOnce, writeFlatFolder } from './lib/state-bench-setup.ts';
import { startLiveChild, type LiveChild } from './lib/state-live-child.ts';
import { PythonClient } from './lib/state-python.ts';
import { median, secondsSince } from './lib/timing.ts';
import { profileWindows } from './lib/window-profile.ts';

const FILES = Number(process.env['BENCH_STATE_QUERY_FILES'] ?? 10_000);
const BULK = Number(process.env['BENCH_STATE_QUERY_BULK'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_STATE_QUERY_ROUNDS'] ?? 20);
const BUSY_ROUNDS = Number(process.env['BENCH_STATE_QUERY_BUSY_ROUNDS'] ?? 20);
/** Between busy rounds, so they sample the pass's scan and its uploads rather than its first seconds. */
const BUSY_GAP_MS = Number(process.env['BENCH_STATE_QUERY_BUSY_GAP_MS'] ?? 3_000);
const PROFILE_DIR = process.env['BENCH_STATE_QUERY_PROF'];
const WARM_UP = 2;
const REMOTE_FOLDER = '/state-query';

interface Round {
  statMs: number;
  queryMs: number;
  entries: number;
  bytes: number;
  pushes: number;
  windowUs: [number, number];
  firstByteMs: number;
  readMs: number;
  parseMs: number;
}

interface BusyRound extends Round {
  /** The service's state and items done before and after the round. */
  before: string;
  after: string;
}

function describe(status: SyncStatus | undefined): string {
  if (status === undefined) return 'no answer';
  const progress = status.progress;
  return progress === null ? status.state : `${status.state} ${progress.itemsDone}/${progress.itemsTotal}`;
}

const busy = (status: SyncStatus | undefined): boolean =>
  status?.state === 'scanning' || status?.state === 'syncing';

async function round(query: PythonClient, index: number): Promise<Round> {
  const result = await query.ask<Round>(index % 2 === 0 ? 'stat-first' : 'query-first');
  if (result.entries !== FILES) throw new Error(`the answer held ${result.entries} entries, not ${FILES}`);
  return result;
}

async function busyRounds(live: LiveChild, query: PythonClient): Promise<BusyRound[]> {
  const rounds: BusyRound[] = [];
  for (let index = 0; rounds.length < BUSY_ROUNDS; index += 1) {
    const before = await live.status();
    if (!busy(before) && index > 0) {
      console.log(`the pass ended after ${rounds.length} busy rounds (${describe(before)})`);
      break;
    }
    const measured = await round(query, index);
    const after = await live.status();
    const counted = busy(before) && busy(after);
    console.log(
      `busy round ${index}: stat ${measured.statMs.toFixed(1)} ms, query ${measured.queryMs.toFixed(1)} ms (${describe(before)} → ${describe(after)}${counted ? '' : ', not counted'}; load ${load()})`,
    );
    if (counted) rounds.push({ ...measured, before: describe(before), after: describe(after) });
    await sleep(BUSY_GAP_MS);
  }
  return rounds;
}

/** Medians of the request's parts as python saw them. */
function partsLine(rounds: readonly Round[]): string {
  const of = (pick: (r: Round) => number): string => median(rounds.map(pick)).toFixed(1);
  return `request parts (medians): sent → first byte ${of((r) => r.firstByteMs)} ms (the service), first → last byte ${of((r) => r.readMs)} ms, json.loads + dict ${of((r) => r.parseMs)} ms`;
}

function ratioLine(name: string, rounds: readonly Round[]): string {
  const stat = summarize(rounds.map((r) => r.statMs));
  const query = summarize(rounds.map((r) => r.queryMs));
  const p50 = query.p50 / stat.p50;
  const p95 = query.p95 / stat.p95;
  return `goal (${name}), query at most 2× stat: ${p50.toFixed(2)}× at p50, ${p95.toFixed(2)}× at p95 → ${p50 <= 2 && p95 <= 2 ? 'met' : 'NOT met'}`;
}

function printProfile(pid: number, rounds: readonly Round[], label: string): void {
  if (PROFILE_DIR === undefined) return;
  const windows = rounds.map((r) => r.windowUs);
  const files = [
    'pair-states.ts',
    'state-book.ts',
    'state-server.ts',
    'state-protocol.ts',
    'index-store.ts',
    'folder-names.ts',
  ];
  const found = profileWindows(PROFILE_DIR, pid, windows, files);
  if (found === undefined) {
    console.log(`no profile of ${pid} in ${PROFILE_DIR}`);
    return;
  }
  const per = (ms: number): string => `${(ms / rounds.length).toFixed(1)} ms`;
  console.log(`\nservice main thread during the ${label} requests: ${per(found.totalMs)} sampled a request`);
  console.log('self time by function, per request:');
  for (const [name, ms] of found.functions.slice(0, 25)) console.log(`  ${per(ms)}  ${name}`);
  console.log('self time by file, per request:');
  for (const [name, ms] of found.files.slice(0, 12)) console.log(`  ${per(ms)}  ${name}`);
  console.log('inclusive, per request:');
  for (const [name, ms] of found.inclusive) console.log(`  ${per(ms)}  ${name}`);
}

async function main(): Promise<void> {
  const bench = await startStateBench('mch-state-query-bench-');
  try {
    const folder = join(bench.work, 'home', 'Emblems');
    const queried = join(folder, 'query');
    let started = process.hrtime.bigint();
    writeFlatFolder(queried, FILES);
    console.log(`wrote ${FILES} files in ${secondsSince(started).toFixed(1)} s`);
    await syncOnce(bench, folder, REMOTE_FOLDER);
    const staging = join(bench.work, 'staging');
    mkdirSync(staging);
    started = process.hrtime.bigint();
    const folders = Math.max(1, Math.round(BULK / 100));
    writeTree(join(staging, 'bulk'), { files: BULK, folders, topFolders: 10, size: (index) => index % 64 });
    console.log(`wrote ${BULK} files in ${folders} folders aside in ${secondsSince(started).toFixed(1)} s`);

    if (PROFILE_DIR !== undefined) mkdirSync(PROFILE_DIR, { recursive: true });
    const env = PROFILE_DIR === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` };
    const live = await startLiveChild(bench.profile, folder, REMOTE_FOLDER, { env });
    let subscriber: PythonClient | undefined;
    let query: PythonClient | undefined;
    try {
      subscriber = PythonClient.start(bench.work, ['subscribe', live.socketPath, queried]);
      await subscriber.next();
      query = PythonClient.start(bench.work, ['query', live.socketPath, queried]);
      await query.next();
      for (let index = 0; index < WARM_UP; index += 1) await round(query, index);
      const idle: Round[] = [];
      for (let index = 0; index < ROUNDS; index += 1) idle.push(await round(query, index));
      const last = idle.at(-1) as Round;
      console.log(
        `idle: ${ROUNDS} rounds; an answer is ${(last.bytes / 1024 / 1024).toFixed(2)} MiB for ${last.entries} entries (load ${load()})`,
      );

      const movedAtMs = Date.now();
      renameSync(join(staging, 'bulk'), join(folder, 'bulk'));
      const deadline = Date.now() + 120_000;
      while (!busy(await live.status())) {
        if (Date.now() > deadline) throw new Error('the service did not start a pass for bulk/');
        await sleep(50);
      }
      console.log(`the pass started ${((Date.now() - movedAtMs) / 1000).toFixed(1)} s after the move`);
      const during = await busyRounds(live, query);
      const pushed = subscriber.drain<{ count: number }>();
      const pushedStates = pushed.reduce((sum, push) => sum + push.count, 0);
      const lastStatus = describe(await live.status());

      const detail = (rounds: readonly Round[]): string => `${rounds.length} rounds, ${FILES} entries`;
      printLatencyComparison(
        `Emblems of a folder of ${FILES} files from python, idle (load ${load()})`,
        { name: '`os.stat` of each file (baseline)', ms: idle.map((r) => r.statMs), detail: detail(idle) },
        [
          {
            name: 'one `children` request, answer parsed into a dict',
            ms: idle.map((r) => r.queryMs),
            detail: `answer ${(last.bytes / 1024 / 1024).toFixed(2)} MiB`,
          },
        ],
      );
      console.log(partsLine(idle));
      console.log(ratioLine('idle', idle));
      if (during.length > 0) {
        printLatencyComparison(
          `The same while the first pass of ${BULK} new files runs in the same client (load ${load()})`,
          {
            name: '`os.stat` of each file (baseline)',
            ms: during.map((r) => r.statMs),
            detail: detail(during),
          },
          [
            {
              name: 'one `children` request, answer parsed into a dict',
              ms: during.map((r) => r.queryMs),
              detail: `service ${during[0]?.before} … ${during.at(-1)?.after}; the subscriber got ${pushed.length} pushes of ${pushedStates} states`,
            },
          ],
        );
        console.log(partsLine(during));
        console.log(ratioLine('during a first pass', during));
      } else {
        console.log('no busy round was counted: the pass was over too soon (BENCH_STATE_QUERY_BULK)');
      }
      console.log(`service at the end: ${lastStatus}`);
      await query.stop();
      await subscriber.stop();
      await live.stop();
      printProfile(live.pid, idle, 'idle');
      printProfile(live.pid, during, 'busy');
    } finally {
      await query?.stop();
      await subscriber?.stop();
      await live.stop();
    }
  } finally {
    await bench.close();
  }
}

await main();
