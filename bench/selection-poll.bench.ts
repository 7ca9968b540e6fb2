// A live poll of a pair with 900 of its 1,000 device folders excluded, against the same poll with none excluded (issue 29: at most 0.15×).
//
// One device folder of `BENCH_SELECTION_POLL_FOLDERS` folders (default 1,000) of
// `BENCH_SELECTION_POLL_FILES_PER_FOLDER` files of 1-4 KiB each (default 3), synced by two pairs in this
// process, each with its own local tree and index (bench/lib/selection-pairs.ts): `all` uploads it, then
// `excluded` (a copy of the tree) adopts it and has `BENCH_SELECTION_POLL_EXCLUDED` folders (default
// 900, every folder whose number does not end in 0) recorded as excluded with their local copies
// removed, as `mch-sync exclude PATH --remove-local` does, applied by its next pass. A third pair, the
// reference, syncs another device folder that holds only as many folders as `excluded` keeps: what
// the poll would cost if exclusions cost nothing. Each engine then makes the pass the live service
// starts with, and polls: `syncOnce` with the options LiveSync's timer gives (`passOptions('poll',
// ...)`: remote revalidated, scope `[]`, `scopeRemoteChanges`). Rounds (`BENCH_SELECTION_POLL_POLLS`,
// default 15, after 3 unmeasured) poll `all`, `excluded` and the reference in turn, timing each
// (wall, this process's CPU, the device's CPU from /proc) and counting its requests; a poll that
// reports anything or writes fails the bench. Medians (the device's CPU: the mean, /proc counts 10 ms
// ticks) and their ratio to the poll with none excluded are printed, then the CPU of each of selective
// sync's own steps in such a poll, timed alone on the excluding pair's record and index.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import type { SyncEngine } from '../app/sync/engine.ts';
import { describeTally, writeRequests } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { smallFileSizes, writeTree } from './lib/file-tree.ts';
import { workFolder } from './lib/kept-setup.ts';
import { changesOf } from './lib/pass-changes.ts';
import { deviceCpuSeconds, findPid } from './lib/process-usage.ts';
import { timeBookkeeping } from './lib/selection-bookkeeping.ts';
import {
  copyTree,
  excludeFolders,
  pairEngine,
  pollOptions,
  recordPair,
  selectionPair,
} from './lib/selection-pairs.ts';
import { median, secondsSince } from './lib/timing.ts';

const FOLDERS = Number(process.env['BENCH_SELECTION_POLL_FOLDERS'] ?? 1_000);
const PER_FOLDER = Number(process.env['BENCH_SELECTION_POLL_FILES_PER_FOLDER'] ?? 3);
const EXCLUDED = Number(process.env['BENCH_SELECTION_POLL_EXCLUDED'] ?? Math.round(FOLDERS * 0.9));
const POLLS = Number(process.env['BENCH_SELECTION_POLL_POLLS'] ?? 15);
const WARMUP = 3;
const REMOTE_FOLDER = '/selection-poll';
/**
 * A folder for CPU profiles (`<case>.cpuprofile`, sampled every 50 µs): after the measured rounds, each
 * case polls `BENCH_SELECTION_POLL_PROFILE_POLLS` times (default 200) under the profiler.
 */
const PROFILE_DIR = process.env['BENCH_SELECTION_POLL_PROFILE'];
const PROFILE_POLLS = Number(process.env['BENCH_SELECTION_POLL_PROFILE_POLLS'] ?? 200);
/** Issue 29's goal: the poll with 900 of 1,000 folders excluded costs at most this much of the other. */
const GOAL = 0.15;

interface Poll {
  wallMs: number;
  cpuMs: number;
  deviceMs: number;
  requests: number;
}

interface Case {
  name: string;
  engine: SyncEngine;
  tally: Map<string, number>;
  polls: Poll[];
  /** Requests of the measured polls, by `METHOD status`. */
  requests: Map<string, number>;
}

/** The folders left out: `excluded` of the `folders`, spread evenly (numbers not ending in 0 first). */
function excludedFolders(folders: number, excluded: number): string[] {
  const order = [...Array(folders).keys()].sort((a, b) => Number(a % 10 === 0) - Number(b % 10 === 0));
  return order.slice(0, excluded).map((folder) => `folder-${folder}`);
}

async function timedPoll(each: Case, devicePid: number | undefined, keep: boolean): Promise<void> {
  each.tally.clear();
  const deviceBefore = deviceCpuSeconds(devicePid);
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  const report = await each.engine.syncOnce(pollOptions());
  const wallMs = secondsSince(started) * 1000;
  const cpu = process.cpuUsage(before);
  const deviceMs = (deviceCpuSeconds(devicePid) - deviceBefore) * 1000;
  if (report.status !== 'synced' || changesOf(report) > 0 || writeRequests(each.tally) > 0) {
    throw new Error(`${each.name}: a poll with nothing to do did something: ${describeTally(each.tally)}`);
  }
  if (!keep) return;
  let requests = 0;
  for (const [key, count] of each.tally) {
    each.requests.set(key, (each.requests.get(key) ?? 0) + count);
    requests += count;
  }
  each.polls.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, deviceMs, requests });
}

/** Each case's polls under the profiler, one after the other, apart from the measured rounds. */
async function profilePolls(
  cases: readonly Case[],
  dir: string,
  devicePid: number | undefined,
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    for (const each of cases) {
      await session.post('Profiler.start');
      for (let poll = 0; poll < PROFILE_POLLS; poll += 1) await timedPoll(each, devicePid, false);
      const { profile } = await session.post('Profiler.stop');
      const file = join(dir, `${each.name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile of ${PROFILE_POLLS} polls (${each.name}): ${file}`);
    }
  } finally {
    session.disconnect();
  }
}

function row(each: Case, baseline: Case): string {
  const wall = median(each.polls.map((poll) => poll.wallMs));
  const cpu = median(each.polls.map((poll) => poll.cpuMs));
  const device = each.polls.reduce((sum, poll) => sum + poll.deviceMs, 0) / each.polls.length;
  const requests = median(each.polls.map((poll) => poll.requests));
  const baseWall = median(baseline.polls.map((poll) => poll.wallMs));
  const baseCpu = median(baseline.polls.map((poll) => poll.cpuMs));
  const baseDevice = baseline.polls.reduce((sum, poll) => sum + poll.deviceMs, 0) / baseline.polls.length;
  const baseRequests = median(baseline.polls.map((poll) => poll.requests));
  const ratio = (value: number, base: number): string =>
    each === baseline ? '1.00 (baseline)' : (value / base).toFixed(3);
  const range = (pick: (poll: Poll) => number): string =>
    `${Math.min(...each.polls.map(pick)).toFixed(1)}-${Math.max(...each.polls.map(pick)).toFixed(1)}`;
  const perPoll = describeTally(
    new Map([...each.requests].map(([key, count]) => [key, Math.round(count / each.polls.length)])),
  );
  return (
    `| ${each.name} | ${wall.toFixed(1)} (${range((poll) => poll.wallMs)}) | ${ratio(wall, baseWall)} ` +
    `| ${cpu.toFixed(1)} (${range((poll) => poll.cpuMs)}) | ${ratio(cpu, baseCpu)} ` +
    `| ${device.toFixed(1)} | ${ratio(device, baseDevice)} | ${perPoll} | ${ratio(requests, baseRequests)} |`
  );
}

/** A first pass of `pair` that must end synced and write nothing unless `writes`; prints what it sent. */
async function firstPass(pair: ReturnType<typeof pairEngine>, what: string, writes = false): Promise<void> {
  const started = process.hrtime.bigint();
  pair.tally.clear();
  const report = await pair.engine.syncOnce();
  if (report.status !== 'synced' || (!writes && writeRequests(pair.tally) > 0)) {
    throw new Error(`${what}: ${report.status}, ${describeTally(pair.tally)}`);
  }
  console.log(`${what} in ${secondsSince(started).toFixed(1)} s (${describeTally(pair.tally)})`);
}

async function main(): Promise<void> {
  const files = FOLDERS * PER_FOLDER;
  const folder = workFolder(undefined, 'mch-selection-poll-bench-', '');
  const work = folder.path;
  try {
    const all = selectionPair(work, 'all', REMOTE_FOLDER);
    const excluded = selectionPair(work, 'excluded', REMOTE_FOLDER);
    // The reference: a pair of a device folder that holds only the folders the other keeps.
    const kept = selectionPair(work, 'kept', `${REMOTE_FOLDER}-kept`);
    const keptFolders = FOLDERS - EXCLUDED;
    const started = process.hrtime.bigint();
    writeTree(all.localRoot, { files, folders: FOLDERS, topFolders: 1, size: smallFileSizes() });
    copyTree(all.localRoot, excluded.localRoot);
    const size = smallFileSizes();
    writeTree(kept.localRoot, { files: keptFolders * PER_FOLDER, folders: keptFolders, topFolders: 1, size });
    console.log(`created the trees in ${secondsSince(started).toFixed(1)} s`);
    const device = await startBenchDevice(join(work, 'device'));
    const devicePid = findPid(join(work, 'device'));
    const pairs = [all, excluded, kept].map((pair) => pairEngine(device, pair));
    try {
      const [allEngine, excludedEngine, keptEngine] = pairs as [
        ReturnType<typeof pairEngine>,
        ReturnType<typeof pairEngine>,
        ReturnType<typeof pairEngine>,
      ];
      for (const pair of [all, excluded, kept]) await recordPair(pair);
      await firstPass(allEngine, `${files} files in ${FOLDERS} folders uploaded`, true);
      await firstPass(excludedEngine, 'the copy adopted');
      await firstPass(keptEngine, `${keptFolders} folders alone uploaded`, true);
      const paths = excludedFolders(FOLDERS, EXCLUDED);
      await excludeFolders(excluded, paths);
      await firstPass(excludedEngine, `${paths.length} of ${FOLDERS} folders excluded, local copies removed`);
      const left = paths.filter((path) => existsSync(join(excluded.localRoot, path))).length;
      if (left > 0) throw new Error(`${left} local copies of excluded folders left`);
      const cases: Case[] = [
        { name: `poll, ${FOLDERS} folders, none excluded`, ...allEngine, polls: [], requests: new Map() },
        { name: `poll, ${paths.length} of them excluded`, ...excludedEngine, polls: [], requests: new Map() },
        {
          name: `poll, a pair of the ${keptFolders} kept folders alone (reference)`,
          ...keptEngine,
          polls: [],
          requests: new Map(),
        },
      ];
      // What the live service does first (a revalidating pass), then its polls.
      for (const each of cases) await each.engine.syncOnce();
      for (let round = 0; round < WARMUP + POLLS; round += 1) {
        for (const each of cases) await timedPoll(each, devicePid, round >= WARMUP);
      }
      const [baseline, measured] = cases as [Case, Case];
      console.log(
        `\nA poll of ${FOLDERS} folders (${files} files), ${paths.length} excluded against none, ` +
          `interleaved, median (range) of ${POLLS} rounds; device CPU: mean`,
      );
      console.log(
        '| case | wall (ms) | wall ratio | client CPU (ms) | CPU ratio | device CPU (ms) | device ratio | requests per poll | requests ratio |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|');
      for (const each of cases) console.log(row(each, baseline));
      const wallRatio =
        median(measured.polls.map((poll) => poll.wallMs)) / median(baseline.polls.map((poll) => poll.wallMs));
      const cpuRatio =
        median(measured.polls.map((poll) => poll.cpuMs)) / median(baseline.polls.map((poll) => poll.cpuMs));
      const met = wallRatio <= GOAL && cpuRatio <= GOAL;
      console.log(
        `goal: at most ${GOAL}× (wall and client CPU): ${met ? 'met' : 'MISSED'} (wall ${wallRatio.toFixed(3)}×, CPU ${cpuRatio.toFixed(3)}×)`,
      );
      const reference = cases[2] as Case;
      const extra = (pick: (poll: Poll) => number): string =>
        (median(measured.polls.map(pick)) - median(reference.polls.map(pick))).toFixed(1);
      console.log(
        `the exclusions' own cost (the excluded poll minus the reference): wall ${extra((poll) => poll.wallMs)} ms, ` +
          `CPU ${extra((poll) => poll.cpuMs)} ms a poll`,
      );
      console.log(
        `\nSelective sync's steps in a poll of the pair with ${paths.length} excluded, CPU of one call`,
      );
      console.log('| step | CPU (ms) |');
      console.log('|---|---:|');
      for (const part of await timeBookkeeping(excluded))
        console.log(`| ${part.name} | ${part.cpuMs.toFixed(3)} |`);
      if (PROFILE_DIR !== undefined) await profilePolls(cases, PROFILE_DIR, devicePid);
    } finally {
      for (const pair of pairs) pair.close();
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

await main();
