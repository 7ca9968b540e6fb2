// One live poll's client CPU at 1,011 folders (issue 19: at most 50 ms), against bare clients sending the same requests.
//
// The tree (`BENCH_POLL_CPU_FILES` small files, default 100,000, in `BENCH_POLL_CPU_FOLDERS` folders
// under 10 top folders) is mirrored to a device (a child process) by one engine pass, kept between runs
// with `BENCH_POLL_CPU_KEEP=DIR`. It is live-idle.bench.ts's tree, device folder and layout, so one kept
// folder serves both (`BENCH_POLL_CPU_KEEP=$BENCH_LIVE_IDLE_KEEP`). A poll with nothing changed is one
// conditional GET per folder, each a 304: the files weigh on the setup and on the device's answers.
// Then, in rounds (`BENCH_POLL_CPU_POLLS`, default 9, after 2 unmeasured), each case once, CPU time of
// this process (`process.cpuUsage`) around it:
// - bare, pipelined: the 1,011 conditional GETs written on 2 raw sockets, 32 in flight on each (what
//   the client's revalidator does), answers only split and checked for 304: the floor of this way;
// - bare node:http: the same GETs through a keep-alive `http.Agent`, 8 sockets, 64 in flight;
// - the walk: `walkRemote` with the previous walk's cache, as the live service keeps it;
// - the poll: `SyncEngine.syncOnce({scope: [], scopeRemoteChanges: true})`, what LiveSync's timer runs.
// Then the live service itself (`LiveSync` with its watcher on the tree, through bench/lib/live-harness,
// polling every second instead of every 30 s, `BENCH_POLL_CPU_LIVE_POLL_MS`): the CPU of each of its
// polls, and of the bare pipelined client run right after each one in the same process (whose heap now
// holds the watcher's).
// Medians are printed with their ratio to the bare pipelined client of the same table.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { ensureRemoteFolder } from '../app/sync/remote/remote-folder.ts';
import { walkRemote, type RemoteWalkCache } from '../app/sync/remote/remote-walk.ts';
import { countedClient, describeTally } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { writeTree } from './lib/file-tree.ts';
import { workFolder } from './lib/kept-setup.ts';
import { startLiveHarness } from './lib/live-harness.ts';
import { median, secondsSince } from './lib/timing.ts';

const FILES = Number(process.env['BENCH_POLL_CPU_FILES'] ?? 100_000);
const FOLDERS = Number(process.env['BENCH_POLL_CPU_FOLDERS'] ?? Math.max(1, Math.round(FILES / 100)));
const POLLS = Number(process.env['BENCH_POLL_CPU_POLLS'] ?? 9);
const WARMUP = 2;
const REMOTE_FOLDER = '/live-idle';
const KEEP_DIR = process.env['BENCH_POLL_CPU_KEEP'];
/**
 * LiveSync's poll period here (default 1 s, the service's is 30 s). A poll after a long idle time costs
 * more than one right after another (caches, and V8 dropping code unused for a while): live-idle
 * measures that one; a longer period here shows it too, at the cost of a longer run.
 */
const LIVE_POLL_MS = Number(process.env['BENCH_POLL_CPU_LIVE_POLL_MS'] ?? 1_000);

/** One conditional GET: the URL's path and query, and the listing ETag it revalidates. */
interface Revalidation {
  target: string;
  eTag: string;
}

interface Measured {
  cpuMs: number;
  wallMs: number;
}

/** CPU (user + system) and wall time of `work`, in ms. */
async function measure(work: () => Promise<void>): Promise<Measured> {
  const started = process.hrtime.bigint();
  const before = process.cpuUsage();
  await work();
  const cpu = process.cpuUsage(before);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: secondsSince(started) * 1000 };
}

function head(host: string, token: string, request: Revalidation): string {
  return (
    `GET ${request.target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
    `If-None-Match: ${request.eTag}\r\nAccept: application/json\r\nAccept-Encoding: identity\r\n` +
    `User-Agent: mch-sync\r\nX-Correlation-Id: ${randomUUID()}\r\n\r\n`
  );
}

/**
 * The requests on `connections` raw sockets, `depth` waiting on each, written in one turn; answers are
 * cut at each head's end (a 304 has no body) and must all be 304.
 */
async function barePipelined(
  base: URL,
  token: string,
  requests: readonly Revalidation[],
  connections = 2,
  depth = 32,
): Promise<void> {
  let next = 0;
  let failure: Error | undefined;
  const one = (socket: Socket): Promise<void> =>
    new Promise((resolve, reject) => {
      let waiting = 0;
      let pending = '';
      const fill = (): void => {
        socket.cork();
        while (waiting < depth && next < requests.length) {
          socket.write(head(base.host, token, requests[next] as Revalidation), 'latin1');
          next += 1;
          waiting += 1;
        }
        process.nextTick(() => socket.uncork());
        if (waiting === 0) {
          socket.end();
          resolve();
        }
      };
      socket.on('data', (chunk: Buffer) => {
        pending += chunk.toString('latin1');
        for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
          if (!pending.startsWith('HTTP/1.1 304 ')) failure ??= new Error(pending.slice(0, end));
          pending = pending.slice(end + 4);
          waiting -= 1;
        }
        fill();
      });
      socket.on('error', reject);
      socket.on('connect', fill);
    });
  const port = Number(base.port);
  await Promise.all(
    Array.from({ length: connections }, () => one(connect({ host: base.hostname, port }).setNoDelay(true))),
  );
  if (failure !== undefined) throw failure;
}

/** The requests through node:http with a keep-alive agent: `inFlight` at once over `sockets` sockets. */
async function bareHttp(
  base: URL,
  token: string,
  requests: readonly Revalidation[],
  agent: Agent,
  inFlight = 64,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const item = requests[next] as Revalidation;
      next += 1;
      await new Promise<void>((resolve, reject) => {
        const outgoing = request(
          new URL(item.target, base),
          {
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              'if-none-match': item.eTag,
              accept: 'application/json',
              'accept-encoding': 'identity',
              'user-agent': 'mch-sync',
              'x-correlation-id': randomUUID(),
            },
          },
          (answer) => {
            answer.resume();
            answer.on('end', () =>
              answer.statusCode === 304 ? resolve() : reject(new Error(`GET ${answer.statusCode}`)),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** The conditional GETs of a walk whose cache is `cache` (the root's listing URL shape, per folder). */
function revalidationsOf(base: URL, cache: RemoteWalkCache): Revalidation[] {
  const requests: Revalidation[] = [];
  for (const [folderId, listing] of cache.folders) {
    const url = new URL('/sdk/v2/filesSearch/parents', base);
    url.searchParams.set('ids', folderId);
    requests.push({ target: `${url.pathname}${url.search}`, eTag: listing.eTag });
  }
  return requests;
}

function row(name: string, runs: readonly Measured[], baseline: number, detail: string): string {
  const cpu = median(runs.map((run) => run.cpuMs));
  const wall = median(runs.map((run) => run.wallMs));
  const ratio = name.startsWith('bare, pipelined') ? '1.00 (baseline)' : (cpu / baseline).toFixed(2);
  const range = `${Math.min(...runs.map((run) => run.cpuMs)).toFixed(1)}-${Math.max(...runs.map((run) => run.cpuMs)).toFixed(1)}`;
  return `| ${name} | ${cpu.toFixed(1)} | ${range} | ${ratio} | ${wall.toFixed(0)} | ${detail} |`;
}

/** LiveSync's own polls (every second here), each followed by the bare pipelined client's run. */
async function measureLive(setup: {
  base: string;
  token: string;
  localRoot: string;
  work: string;
  requests: readonly Revalidation[];
}): Promise<void> {
  const harness = startLiveHarness({
    base: setup.base,
    token: setup.token,
    localRoot: setup.localRoot,
    remoteFolder: REMOTE_FOLDER,
    indexPath: join(setup.work, 'index.db'),
    pollMs: LIVE_POLL_MS,
  });
  const bare: Measured[] = [];
  const polls: Measured[] = [];
  const tally = new Map<string, number>();
  try {
    const started = process.hrtime.bigint();
    await harness.live.start();
    await harness.live.whenIdle();
    console.log(`\nLiveSync started and idle after ${secondsSince(started).toFixed(1)} s`);
    harness.mark();
    const base = new URL(setup.base);
    let seen = 0;
    while (polls.length < POLLS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const done = harness.passes.filter((pass) => pass.mode === 'poll');
      if (done.length === seen || harness.live.status().state !== 'idle') continue;
      const pass = done[done.length - 1] as (typeof done)[number];
      seen = done.length;
      if (pass.report.status !== 'synced') throw new Error(`poll: ${pass.report.status}`);
      if (seen > WARMUP) {
        polls.push({ cpuMs: pass.cpuMs, wallMs: Number(pass.endNs - pass.startNs) / 1e6 });
        for (const [key, count] of harness.tally) tally.set(key, (tally.get(key) ?? 0) + count);
      }
      harness.tally.clear();
      // Between this poll and the next, in the same process.
      bare.push(await measure(() => barePipelined(base, setup.token, setup.requests)));
    }
    const others = harness.passes.filter((pass) => pass.mode !== 'poll').length;
    const perPoll = describeTally(
      new Map([...tally].map(([key, count]) => [key, Math.round(count / polls.length)])),
    );
    const baseline = median(bare.slice(-POLLS).map((run) => run.cpuMs));
    console.log(
      `\nLiveSync's polls with its watcher running, one every ${LIVE_POLL_MS / 1000} s, ${setup.requests.length} folders (${FILES} files), median of ${POLLS}`,
    );
    console.log('| case | CPU (ms) | CPU range (ms) | CPU ratio | wall (ms) | detail |');
    console.log('|---|---:|---:|---:|---:|---|');
    console.log(row('bare, pipelined (node:net)', bare.slice(-POLLS), baseline, 'run right after each poll'));
    console.log(
      row(
        'LiveSync poll',
        polls,
        baseline,
        `per poll: ${perPoll}; passes other than polls meanwhile: ${others}`,
      ),
    );
  } finally {
    await harness.stop();
  }
}

async function main(): Promise<void> {
  // The same marker as live-idle's: either bench reuses the other's kept folder.
  const folder = workFolder(KEEP_DIR, 'mch-poll-cpu-bench-', `${FILES} files in ${FOLDERS} folders`);
  const work = folder.path;
  try {
    const localRoot = join(work, 'local');
    let started = process.hrtime.bigint();
    if (!folder.reused) {
      writeTree(localRoot, { files: FILES, folders: FOLDERS, topFolders: 10, size: (index) => index % 64 });
      console.log(`created ${FILES} files in ${FOLDERS} folders in ${secondsSince(started).toFixed(1)} s`);
    }
    const device = await startBenchDevice(join(work, 'device'));
    const db = openIndexDb(join(work, 'index.db'));
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const { client, tally } = countedClient(device.base, device.token);
      const engine = new SyncEngine({
        client,
        index: new IndexStore(db),
        localRoot,
        remoteFolder: REMOTE_FOLDER,
      });
      started = process.hrtime.bigint();
      const first = await engine.syncOnce();
      const expected = folder.reused ? 0 : FILES;
      if (first.status !== 'synced' || first.counts.uploaded !== expected) {
        throw new Error(`first pass: ${first.status}, ${first.counts.uploaded} of ${expected} uploaded`);
      }
      console.log(`first pass in ${secondsSince(started).toFixed(1)} s (${describeTally(tally)})`);
      folder.ready();

      const { id: rootId } = await ensureRemoteFolder(client, REMOTE_FOLDER);
      let cache = (await walkRemote(client, rootId)).cache;
      const base = new URL(device.base);
      const requests = revalidationsOf(base, cache);
      const cases = {
        pipelined: [] as Measured[],
        http: [] as Measured[],
        walk: [] as Measured[],
        poll: [] as Measured[],
      };
      const walkTally = new Map<string, number>();
      const pollTally = new Map<string, number>();
      /** Adds the requests since the last call to `into` (only in measured rounds). */
      const counted = (into: Map<string, number>, keep: boolean): void => {
        if (keep) for (const [key, count] of tally) into.set(key, (into.get(key) ?? 0) + count);
        tally.clear();
      };
      for (let round = 0; round < WARMUP + POLLS; round += 1) {
        const keep = round >= WARMUP;
        const pipelined = await measure(() => barePipelined(base, device.token, requests));
        const http = await measure(() => bareHttp(base, device.token, requests, agent));
        tally.clear();
        const walk = await measure(async () => {
          const result = await walkRemote(client, rootId, { cache });
          if (result.stats.notModified !== requests.length) {
            throw new Error(`walk: ${JSON.stringify(result.stats)} of ${requests.length} folders`);
          }
          cache = result.cache;
        });
        counted(walkTally, keep);
        // The first engine poll after the setup lists the folders the upload wrote to (unmeasured).
        const poll = await measure(async () => {
          const report = await engine.syncOnce({ scope: [], scopeRemoteChanges: true });
          if (report.status !== 'synced') throw new Error(`poll: ${report.status}`);
        });
        counted(pollTally, keep);
        if (!keep) continue;
        cases.pipelined.push(pipelined);
        cases.http.push(http);
        cases.walk.push(walk);
        cases.poll.push(poll);
      }
      const per = (tallied: Map<string, number>): string =>
        describeTally(new Map([...tallied].map(([key, count]) => [key, Math.round(count / POLLS)])));
      const baseline = median(cases.pipelined.map((run) => run.cpuMs));
      console.log(
        `\nOne poll's client CPU, ${requests.length} folders (${FILES} files), median of ${POLLS} rounds`,
      );
      console.log('| case | CPU (ms) | CPU range (ms) | CPU ratio | wall (ms) | detail |');
      console.log('|---|---:|---:|---:|---:|---|');
      console.log(
        row('bare, pipelined (node:net)', cases.pipelined, baseline, '2 sockets, 32 in flight each'),
      );
      console.log(row('bare node:http (keep-alive)', cases.http, baseline, '8 sockets, 64 in flight'));
      console.log(row('walkRemote with its cache', cases.walk, baseline, `per walk: ${per(walkTally)}`));
      console.log(
        row('SyncEngine poll (LiveSync timer)', cases.poll, baseline, `per poll: ${per(pollTally)}`),
      );
      console.log('goal: the poll at most 50 ms of client CPU');
      db.close();
      await measureLive({ base: device.base, token: device.token, localRoot, work, requests });
    } finally {
      agent.destroy();
      if (db.open) db.close();
      await device.stop();
    }
  } finally {
    folder.done();
  }
}

await main();
