// How soon a subscribed file manager hears of a state change: each push's receive time against the time the engine recorded the change (its atMs), with a file's write to its first push beside it.
//
// `mch-sync run` (bin/mch-sync.js, a child) serves a synced folder of 1,000 small files in 10 folders
// against the device (a child). A python child (/usr/bin/python3, the extensions' python) subscribes on
// the state socket and reads as the extension's reader thread does, taking each `changed` line's
// receive time (time.time(), ms since the epoch: the clock atMs is on) once the line is parsed. The
// bench then edits 50 files, one every 500 ms (each write's own time taken just before it), and after
// the last one waits for the service to be idle. Reported: receive time − atMs over every push (the
// goal), the write to the first push naming the file (includes the watcher's debounce) and to the push
// of it up to date (includes its upload), for context. Baseline: a one-path `state` request's round trip
// on the same socket, from this process, 250 ms after each write. Goal (issue 32): p95 ≤ 200 ms.
//
//   npm run bench -- file-state-push   (BENCH_STATE_PUSH_FILES, _EDITS, _SPACING_MS)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateConnection } from '../app/file-state/state-client.ts';
import { writeTree } from './lib/file-tree.ts';
import { printLatencyComparison, summarize } from './lib/latency-report.ts';
import { load, startStateBench, syncOnce } from './lib/state-bench-setup.ts';
import { startLiveChild } from './lib/state-live-child.ts';
import { PythonClient } from './lib/state-python.ts';

const FILES = Number(process.env['BENCH_STATE_PUSH_FILES'] ?? 1_000);
const FOLDERS = 10;
const EDITS = Number(process.env['BENCH_STATE_PUSH_EDITS'] ?? 50);
const SPACING_MS = Number(process.env['BENCH_STATE_PUSH_SPACING_MS'] ?? 500);
const REMOTE_FOLDER = '/state-push';
const GOAL_P95_MS = 200;

interface Push {
  recvMs: number;
  atMs?: number | null;
  count: number;
  states: Array<[string, string]>;
}

/** Now in ms since the epoch with a fraction, as the service takes atMs. */
const nowMs = (): number => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const bench = await startStateBench('mch-state-push-bench-');
  try {
    const folder = join(bench.work, 'home', 'Pushed');
    writeTree(folder, { files: FILES, folders: FOLDERS, topFolders: 1, size: (index) => index % 64 });
    await syncOnce(bench, folder, REMOTE_FOLDER);
    const live = await startLiveChild(bench.profile, folder, REMOTE_FOLDER);
    let subscriber: PythonClient | undefined;
    let asker: StateConnection | undefined;
    try {
      subscriber = PythonClient.start(bench.work, ['subscribe', live.socketPath]);
      await subscriber.next();
      asker = await StateConnection.connect(live.socketPath);
      const perFolder = Math.ceil(FILES / FOLDERS);
      const writes: Array<{ path: string; atMs: number }> = [];
      const roundTrips: number[] = [];
      const startedMs = Date.now();
      for (let edit = 0; edit < EDITS; edit += 1) {
        // A different file each time, spread over the folders.
        const relative = `folder-${edit % FOLDERS}/file-${Math.floor(edit / FOLDERS) % perFolder}.txt`;
        const path = join(folder, relative);
        const atMs = nowMs();
        writeFileSync(path, `edit ${edit} at ${atMs}\n`);
        writes.push({ path, atMs });
        await sleep(SPACING_MS / 2);
        const asked = nowMs();
        const reply = await asker.request({ op: 'state', paths: [path] });
        roundTrips.push(nowMs() - asked);
        if (reply.type !== 'answer') throw new Error(`not an answer: ${JSON.stringify(reply)}`);
        await sleep(SPACING_MS / 2);
      }
      await live.idleAfter(startedMs);
      await sleep(1_000);
      const pushes = subscriber.drain<Push>();

      const latencies = pushes.flatMap((push) =>
        push.atMs === null || push.atMs === undefined ? [] : [push.recvMs - push.atMs],
      );
      if (latencies.length !== pushes.length) throw new Error('a push came without atMs');
      const firstPush: number[] = [];
      const upToDate: number[] = [];
      const missing: string[] = [];
      for (const write of writes) {
        const named = pushes.filter(
          (push) => push.recvMs >= write.atMs && push.states.some(([path]) => path === write.path),
        );
        const first = named[0];
        const synced = named.find((push) =>
          push.states.some(([path, state]) => path === write.path && state === 'up-to-date'),
        );
        if (first === undefined || synced === undefined) missing.push(write.path);
        if (first !== undefined) firstPush.push(first.recvMs - write.atMs);
        if (synced !== undefined) upToDate.push(synced.recvMs - write.atMs);
      }
      const states = new Map<string, number>();
      for (const push of pushes)
        for (const [, state] of push.states) states.set(state, (states.get(state) ?? 0) + 1);
      const told = [...states].map(([state, count]) => `${state} ×${count}`).join(', ');

      printLatencyComparison(
        `A change pushed to a subscribed python client: ${EDITS} edits ${SPACING_MS} ms apart, ${FILES} files in ${FOLDERS} folders (load ${load()})`,
        {
          name: 'one-path `state` request round trip (baseline)',
          ms: roundTrips,
          detail: 'this process, 250 ms after each write',
        },
        [
          {
            name: 'push: received − atMs (the goal)',
            ms: latencies,
            detail: `${pushes.length} pushes (${told})`,
          },
          {
            name: 'write → first push naming the file',
            ms: firstPush,
            detail: "includes the watcher's debounce",
          },
          { name: 'write → the file pushed up to date', ms: upToDate, detail: 'includes the upload' },
        ],
      );
      if (missing.length > 0) console.log(`no push (or no up-to-date push) for: ${missing.join(', ')}`);
      const p95 = summarize(latencies).p95;
      console.log(
        `goal, push p95 ≤ ${GOAL_P95_MS} ms against atMs: ${p95.toFixed(1)} ms → ${p95 <= GOAL_P95_MS && missing.length === 0 ? 'met' : 'NOT met'}`,
      );
    } finally {
      asker?.close();
      await subscriber?.stop();
      await live.stop();
    }
  } finally {
    await bench.close();
  }
}

await main();
