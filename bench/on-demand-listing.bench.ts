// `ls -lR` over 100,000 placeholders (1,000 folders of 100 files) through the on-demand mount, against the
// same tree (the cache folder itself) listed directly, and through Debian's bindfs as a reference.
//
// Each round mounts afresh (nothing cached in the kernel for the mount), lists once ("first") and again at
// once ("second": the mount caches attributes and entries for 1 s, attr_timeout=1, so only what the first
// listing touched in its last second is still cached when the second begins). The plain folder is listed
// twice the same way, warm. Rounds interleave the cases. Goals (issue 30): the second listing at most 3×
// the plain folder's; the first at least as fast as bindfs's first. Nothing may be hydrated.
//
//   npm run bench -- on-demand-listing   (BENCH_OD_LIST_FOLDERS, _FILES, _ROUNDS; BENCH_OD_DIR for the tree)
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib/timing.ts';
import {
  bindfsPath,
  CountingService,
  entriesOf,
  fuseMissing,
  loadAverage,
  range,
  removeTree,
  startBindfs,
  startMount,
  timed,
  writePlaceholderTree,
  type BenchMount,
} from './lib/on-demand-mount.ts';

const SHAPE = {
  folders: Number(process.env['BENCH_OD_LIST_FOLDERS'] ?? 1_000),
  filesPerFolder: Number(process.env['BENCH_OD_LIST_FILES'] ?? 100),
  topFolders: 10,
};
const ROUNDS = Number(process.env['BENCH_OD_LIST_ROUNDS'] ?? 3);

type Case = 'plain' | 'mount' | 'bindfs';

async function listTwice(dir: string): Promise<[number, number]> {
  const first = await timed('ls', ['-lR', dir]);
  const second = await timed('ls', ['-lR', dir]);
  return [first, second];
}

async function main(): Promise<void> {
  const missing = fuseMissing();
  if (missing !== null) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const root = mkdtempSync(join(process.env['BENCH_OD_DIR'] ?? tmpdir(), 'mch-od-list-'));
  const cache = join(root, 'cache');
  const mountPoint = join(root, 'mount');
  const bindPoint = join(root, 'bindfs');
  mkdirSync(cache);
  const service = new CountingService(join(root, 'hydrate.sock'));
  let mounted: BenchMount | undefined;
  try {
    const made = writePlaceholderTree(cache, SHAPE);
    const entries = entriesOf(SHAPE);
    console.log(`made ${entries} entries of placeholders in ${made.toFixed(1)} s (load ${loadAverage()})`);
    await service.listen();
    const bindfs = bindfsPath();
    if (bindfs === undefined)
      console.log('bindfs is not installed: its reference is skipped (apt-get install bindfs)');
    const cases: Case[] = bindfs === undefined ? ['plain', 'mount'] : ['plain', 'mount', 'bindfs'];
    const times = new Map<Case, { first: number[]; second: number[] }>(
      cases.map((name) => [name, { first: [], second: [] }]),
    );
    await timed('ls', ['-lR', cache]); // the cache folder's inodes and dentries warm for every case alike
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round starts with another case, so no case always follows the same one.
      const order = cases.map((_, i) => cases[(i + round) % cases.length] as Case);
      for (const name of order) {
        let result: [number, number];
        if (name === 'plain') {
          result = await listTwice(cache);
        } else {
          mounted =
            name === 'mount'
              ? await startMount(cache, mountPoint, service.socketPath)
              : await startBindfs(bindfs as string, cache, bindPoint);
          try {
            result = await listTwice(mounted.mountPoint);
          } finally {
            await mounted.stop();
            mounted = undefined;
          }
        }
        times.get(name)?.first.push(result[0]);
        times.get(name)?.second.push(result[1]);
        console.log(
          `round ${round + 1}: ${name} first ${result[0].toFixed(2)} s, second ${result[1].toFixed(2)} s (load ${loadAverage()})`,
        );
      }
    }
    const plain = times.get('plain') as { first: number[]; second: number[] };
    const plainMedian = median([...plain.first, ...plain.second]);
    const bindfsFirst = times.get('bindfs')?.first;
    console.log(
      `\nls -lR over ${entries} entries (${SHAPE.folders} folders of ${SHAPE.filesPerFolder} placeholders), ${ROUNDS} rounds; ` +
        'second = listed again at once (attr_timeout=1 s)',
    );
    console.log('| case | first (s) | second (s) | first × plain | second × plain |');
    console.log('|---|---:|---:|---:|---:|');
    for (const name of cases) {
      const { first, second } = times.get(name) as { first: number[]; second: number[] };
      const label = {
        plain: 'plain folder (the cache folder)',
        mount: 'on-demand mount',
        bindfs: 'bindfs (reference)',
      }[name];
      console.log(
        `| ${label} | ${range(first)} | ${range(second)} | ${range(
          first.map((t) => t / plainMedian),
          1,
        )} | ${range(
          second.map((t) => t / plainMedian),
          1,
        )} |`,
      );
    }
    const mount = times.get('mount') as { first: number[]; second: number[] };
    const secondRatio = median(mount.second) / plainMedian;
    console.log(
      `\ngoal, second listing at most 3× plain: ${secondRatio.toFixed(1)}× (median) → ${secondRatio <= 3 ? 'met' : 'MISSED'}`,
    );
    if (bindfsFirst !== undefined) {
      const firstRatio = median(mount.first) / median(bindfsFirst);
      console.log(
        `goal, first listing at least as fast as bindfs: ${firstRatio.toFixed(2)}× bindfs's time (median) → ${firstRatio <= 1 ? 'met' : 'MISSED'}`,
      );
    }
    console.log(`hydrations asked: ${service.requests.length}`);
    if (service.requests.length > 0) process.exitCode = 1;
  } finally {
    await mounted?.stop();
    await service.close();
    removeTree(root);
  }
}

await main();
