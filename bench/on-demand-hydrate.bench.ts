// Opening a placeholder through the on-demand mount: the first byte of a 50 MiB file and the whole of a
// 1 GiB one, against a raw GET of the same content from the device.
//
// The device is a child process; the files are uploaded by one engine pass, then an on-demand pair's
// pass makes them placeholders in its cache folder. The service's side runs here as the live service
// runs it (`Hydrator` + `startHydrationServer`, the pair's client and index); the mount process is a
// child, and every read is another child: `node this-file --read PATH` times open → first byte → end
// with 1 MiB reads. "hydrator alone" is the service's part without the mount (the hydrator in this
// process filling the placeholder, timed to its first and last progress). curl is the raw GET the
// goals compare with; `--get URL`, a bare node:http GET from a new process, is shown beside it. Each
// round mounts afresh over a placeholder made again in place (the index row's size and mtime, the
// mark), so no page cache helps. Goals (issue 30): first byte at most 1.2× the raw GET's + 20 ms; the
// 1 GiB read at least 0.9× the raw GET's throughput.
//
//   npm run bench -- on-demand-hydrate   (BENCH_OD_HYDRATE_ROUNDS, _SMALL_MB, _BIG_MB, _SIDES, _LINK_MBIT;
//   BENCH_OD_DIR)
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, ftruncateSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import { PLACEHOLDER_MARK, PLACEHOLDER_XATTR } from '../app/mount/hydration-protocol.ts';
import { startHydrationServer } from '../app/on-demand/hydration-server.ts';
import { Hydrator, type HydrationEvent } from '../app/on-demand/hydrator.ts';
import { placeholderAttributes, isPlaceholder } from '../app/sync/local/placeholders.ts';
import { SyncEngine } from '../app/sync/engine.ts';
import { countedClient, describeTally } from './lib/bench-client.ts';
import { startBenchDevice } from './lib/device.ts';
import { cpuSeconds } from './lib/process-usage.ts';
import { startThrottledLink, type ThrottledLink } from './lib/throttled-link.ts';
import { median } from './lib/timing.ts';
import {
  fuseMissing,
  loadAverage,
  range,
  removeTree,
  runCommand,
  startMount,
  timed,
  type BenchMount,
} from './lib/on-demand-mount.ts';

const ROUNDS = Number(process.env['BENCH_OD_HYDRATE_ROUNDS'] ?? 3);
const SMALL_MB = Number(process.env['BENCH_OD_HYDRATE_SMALL_MB'] ?? 50);
const BIG_MB = Number(process.env['BENCH_OD_HYDRATE_BIG_MB'] ?? 1024);
const REMOTE_FOLDER = '/on-demand-bench';

/** What a reader child prints: from before the open (or request) to the first byte and to the end. */
interface ReadTiming {
  firstByteMs: number;
  totalS: number;
  bytes: number;
  /** CPU seconds of the processes involved, by role (device, service, mount, reader), when known. */
  cpu?: Record<string, number>;
}

/** This process's user + system CPU seconds. */
const ownCpu = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Child mode: reads a file (through the mount) with 1 MiB reads. */
function readChild(path: string): void {
  const buffer = Buffer.allocUnsafe(1 << 20);
  const cpu0 = ownCpu();
  const started = now();
  const fd = openSync(path, 'r');
  let first = 0;
  let bytes = 0;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    if (first === 0) first = now();
    if (n === 0) break;
    bytes += n;
  }
  closeSync(fd);
  const timing: ReadTiming = {
    firstByteMs: first - started,
    totalS: (now() - started) / 1000,
    bytes,
    cpu: { reader: ownCpu() - cpu0 },
  };
  console.log(JSON.stringify(timing));
}

/** Child mode: a bare GET of `url` with the token, the body dropped. */
function getChild(url: string, token: string): void {
  const cpu0 = ownCpu();
  const started = now();
  let first = 0;
  let bytes = 0;
  request(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
    if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode}`);
    response.on('data', (chunk: Buffer) => {
      if (first === 0) first = now();
      bytes += chunk.length;
    });
    response.on('end', () => {
      const timing: ReadTiming = {
        firstByteMs: first - started,
        totalS: (now() - started) / 1000,
        bytes,
        cpu: { reader: ownCpu() - cpu0 },
      };
      console.log(JSON.stringify(timing));
    });
  }).end();
}

async function child(args: string[]): Promise<ReadTiming> {
  const result = await runCommand(process.execPath, [import.meta.filename, ...args]);
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ReadTiming;
}

async function curl(url: string, token: string): Promise<ReadTiming> {
  const result = await runCommand('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-H',
    `authorization: Bearer ${token}`,
    '-w',
    '%{time_starttransfer} %{time_total} %{size_download}',
    url,
  ]);
  if (result.code !== 0) throw new Error(`curl failed: ${result.stderr}`);
  const [first, total, bytes] = result.stdout.trim().split(' ').map(Number);
  return { firstByteMs: (first ?? 0) * 1000, totalS: total ?? 0, bytes: bytes ?? 0 };
}

async function main(): Promise<void> {
  const missing = fuseMissing();
  if (missing !== null) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const root = mkdtempSync(join(process.env['BENCH_OD_DIR'] ?? tmpdir(), 'mch-od-hydrate-'));
  const source = join(root, 'source');
  const cache = join(root, 'cache');
  const mountPoint = join(root, 'mount');
  mkdirSync(source);
  mkdirSync(cache);
  const device = await startBenchDevice(join(root, 'device'));
  const devicePid = Number(
    spawnSync('pgrep', ['-f', `mch-device.js --port 0 --data ${join(root, 'device')}`])
      .stdout.toString()
      .split('\n')[0],
  );
  const db = openIndexDb(join(root, 'cache-index.db'));
  let mounted: BenchMount | undefined;
  let server: Awaited<ReturnType<typeof startHydrationServer>> | undefined;
  let link: ThrottledLink | undefined;
  try {
    const files = { small: { name: 'small.bin', mb: SMALL_MB }, big: { name: 'big.bin', mb: BIG_MB } };
    for (const { name, mb } of Object.values(files)) {
      await timed('dd', [
        'if=/dev/urandom',
        `of=${join(source, name)}`,
        'bs=1M',
        `count=${mb}`,
        'status=none',
      ]);
    }
    const uploadDb = openIndexDb(join(root, 'source-index.db'));
    try {
      const uploader = new SyncEngine({
        client: countedClient(device.base, device.token).client,
        index: new IndexStore(uploadDb),
        localRoot: source,
        remoteFolder: REMOTE_FOLDER,
      });
      const report = await uploader.syncOnce();
      if (report.status !== 'synced') throw new Error(`upload pass: ${report.status}`);
    } finally {
      uploadDb.close();
    }
    const { client, tally } = countedClient(device.base, device.token);
    const index = new IndexStore(db);
    const engine = new SyncEngine({
      client,
      index,
      localRoot: cache,
      remoteFolder: REMOTE_FOLDER,
      onDemand: { keepsContent: () => false },
    });
    const report = await engine.syncOnce();
    if (report.status !== 'synced') throw new Error(`on-demand pass: ${report.status}`);
    for (const { name } of Object.values(files)) {
      if (!isPlaceholder(join(cache, name))) throw new Error(`${name} is no placeholder after the pass`);
    }
    console.log(`uploaded and made placeholders: ${describeTally(tally)} (load ${loadAverage()})`);
    tally.clear();

    // BENCH_OD_HYDRATE_LINK_MBIT=1000: every measured request (curl's, node's, the hydrator's) crosses a
    // link of that many megabits a second to the device, as at home, instead of loopback.
    const linkMbit = Number(process.env['BENCH_OD_HYDRATE_LINK_MBIT'] ?? 0);
    link = linkMbit > 0 ? await startThrottledLink(device.base, (linkMbit * 1e6) / 8) : undefined;
    const linked = link === undefined ? { client, tally } : countedClient(link.base, device.token);
    const measured = linked.client;
    if (link !== undefined) console.log(`through a link of ${linkMbit} Mbit/s (${link.base})`);
    const finished = new Map<string, () => void>();
    const hydrator = new Hydrator({ client: measured, index, cacheRoot: cache });
    server = await startHydrationServer({
      socketPath: join(root, 'hydrate.sock'),
      hydrator,
      onEvent: (hydrate, event: HydrationEvent) => {
        if (event.type === 'failed') console.log(`hydration of ${hydrate.path} failed: ${event.message}`);
        if (event.type === 'done' || event.type === 'failed') finished.get(hydrate.path)?.();
      },
    });
    const socketPath = server.socketPath;
    const attributes = placeholderAttributes();

    /** The file a placeholder again, in place, as the service frees one: its row's size and mtime, the mark. */
    const unhydrate = (name: string): void => {
      const row = index.byPath(name);
      if (row === undefined || row.localMtimeNs === null) throw new Error(`no row for ${name}`);
      const fd = openSync(join(cache, name), 'r+');
      try {
        ftruncateSync(fd, 0);
        ftruncateSync(fd, row.localSize ?? 0);
        attributes.setMtimeNs(fd, row.localMtimeNs);
        attributes.setAttribute(fd, PLACEHOLDER_XATTR, Buffer.from(PLACEHOLDER_MARK));
      } finally {
        closeSync(fd);
      }
    };

    /** A fresh mount over a fresh placeholder; reads it from a child; waits until the hydration is over. */
    const throughMount = async (name: string): Promise<ReadTiming> => {
      if (!isPlaceholder(join(cache, name))) unhydrate(name);
      mounted = await startMount(cache, mountPoint, socketPath);
      try {
        const done = new Promise<void>((resolve) => finished.set(name, resolve));
        const mountCpu = cpuSeconds(mounted.pid);
        const timing = await child(['--read', join(mountPoint, name)]);
        await done;
        return { ...timing, cpu: { ...timing.cpu, mount: cpuSeconds(mounted.pid) - mountCpu } };
      } finally {
        await mounted.stop();
        mounted = undefined;
      }
    };

    /** The service's part alone, no mount: the hydrator filling the placeholder, timed to its progress. */
    const hydrateAlone = async (name: string): Promise<ReadTiming> => {
      if (!isPlaceholder(join(cache, name))) unhydrate(name);
      const size = index.byPath(name)?.localSize ?? 0;
      const started = now();
      let first = 0;
      let all = 0;
      await hydrator.hydrate(name, (event) => {
        if (event.type !== 'progress') return;
        if (first === 0) first = now();
        if (event.bytes === size) all = now();
      });
      return { firstByteMs: first - started, totalS: (all - started) / 1000, bytes: size };
    };

    const urlOf = (name: string): string => {
      const row = index.byPath(name);
      return measured.url(`/sdk/v2/files/${row?.remoteId ?? ''}/content`).toString();
    };
    type Side = 'mount' | 'hydrator alone' | 'node GET' | 'curl GET';
    const every: Side[] = ['mount', 'hydrator alone', 'node GET', 'curl GET'];
    // BENCH_OD_HYDRATE_SIDES=mount,curl GET measures only those (a profile of one side).
    const only = process.env['BENCH_OD_HYDRATE_SIDES']?.split(',');
    const sides = every.filter((side) => only === undefined || only.includes(side));
    const results = new Map<string, ReadTiming[]>();
    const measure = async (file: 'small' | 'big', side: Side): Promise<void> => {
      const { name, mb } = files[file];
      const device0 = cpuSeconds(devicePid);
      const service0 = ownCpu();
      const timing =
        side === 'mount'
          ? await throughMount(name)
          : side === 'hydrator alone'
            ? await hydrateAlone(name)
            : side === 'node GET'
              ? await child(['--get', urlOf(name), device.token])
              : await curl(urlOf(name), device.token);
      if (timing.bytes !== mb << 20) throw new Error(`${side} read ${timing.bytes} bytes of ${name}`);
      timing.cpu = { ...timing.cpu, device: cpuSeconds(devicePid) - device0, service: ownCpu() - service0 };
      const key = `${file} ${side}`;
      results.set(key, [...(results.get(key) ?? []), timing]);
    };
    // BENCH_OD_HYDRATE_PROFILE=FILE: a CPU profile of this process (the service's side) while measuring.
    const profile = await startProfile(process.env['BENCH_OD_HYDRATE_PROFILE']);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const file of ['small', 'big'] as const) {
        const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
        for (const side of order) await measure(file, side);
      }
      const line = [...results]
        .map(([key, timings]) => {
          const last = timings.at(-1) as ReadTiming;
          return key.startsWith('small')
            ? `${key} ${last.firstByteMs.toFixed(1)} ms`
            : `${key} ${(BIG_MB / last.totalS).toFixed(0)} MB/s`;
        })
        .join(', ');
      console.log(`round ${round + 1}: ${line} (load ${loadAverage()})`);
    }
    await profile?.();
    const of = (key: string): ReadTiming[] => results.get(key) ?? [];
    console.log(`\nFirst byte of a ${SMALL_MB} MiB placeholder, ${ROUNDS} rounds (ms from open or request)`);
    console.log('| case | first byte (ms, median) | range | whole file (s, median) |');
    console.log('|---|---:|---:|---:|');
    for (const side of sides) {
      const timings = of(`small ${side}`);
      console.log(
        `| ${side} | ${median(timings.map((t) => t.firstByteMs)).toFixed(1)} | ${range(
          timings.map((t) => t.firstByteMs),
          1,
        )} | ${median(timings.map((t) => t.totalS)).toFixed(2)} |`,
      );
    }
    console.log(`\nA ${BIG_MB} MiB placeholder read end to end, ${ROUNDS} rounds (MiB/s)`);
    console.log('| case | MB/s (median) | range | first byte (ms, median) |');
    console.log('|---|---:|---:|---:|');
    for (const side of sides) {
      const rates = of(`big ${side}`).map((t) => BIG_MB / t.totalS);
      console.log(
        `| ${side} | ${median(rates).toFixed(0)} | ${range(rates, 0)} | ${median(of(`big ${side}`).map((t) => t.firstByteMs)).toFixed(1)} |`,
      );
    }
    console.log(`\nCPU seconds for the ${BIG_MB} MiB file, by process (median)`);
    console.log(
      '| case | device | service (the hydrator) | mount process | reader (curl: not measured) | all |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const side of sides) {
      const timings = of(`big ${side}`);
      const role = (name: string): number => median(timings.map((t) => t.cpu?.[name] ?? 0));
      const all = median(timings.map((t) => Object.values(t.cpu ?? {}).reduce((a, b) => a + b, 0)));
      const cells = ['device', 'service', 'mount', 'reader'].map((name) => role(name).toFixed(2));
      console.log(`| ${side} | ${cells.join(' | ')} | ${all.toFixed(2)} |`);
    }
    const getFirst = median(of('small curl GET').map((t) => t.firstByteMs));
    const mountFirst = median(of('small mount').map((t) => t.firstByteMs));
    const limit = getFirst * 1.2 + 20;
    console.log(
      `\ngoal, first byte at most 1.2× the raw GET's (curl) + 20 ms: ${mountFirst.toFixed(1)} ms against ${limit.toFixed(1)} ms → ${mountFirst <= limit ? 'met' : 'MISSED'}`,
    );
    const ratio =
      median(of('big mount').map((t) => BIG_MB / t.totalS)) /
      median(of('big curl GET').map((t) => BIG_MB / t.totalS));
    console.log(
      `goal, ${BIG_MB} MiB at least 0.9× the raw GET's (curl) throughput: ${ratio.toFixed(2)}× → ${ratio >= 0.9 ? 'met' : 'MISSED'}`,
    );
    console.log(`the pair's requests while measuring: ${describeTally(linked.tally)}`);
  } finally {
    await mounted?.stop();
    await server?.close();
    await link?.close();
    db.close();
    await device.stop();
    removeTree(root);
  }
}

/** Starts the inspector's CPU profiler; the function returned stops it and writes the profile to `file`. */
async function startProfile(file: string | undefined): Promise<(() => Promise<void>) | undefined> {
  if (file === undefined) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`CPU profile of the service's side: ${file}`);
  };
}

const mode = process.argv[2];
if (mode === '--read') readChild(process.argv[3] as string);
else if (mode === '--get') getChild(process.argv[3] as string, process.argv[4] as string);
else await main();
