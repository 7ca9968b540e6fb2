// `find` over 1,000,000 placeholders (10,000 folders of 100 files) through the on-demand mount: nothing
// may be downloaded, and the mount process must stay small. Against `find` on the cache folder itself.
//
// The tree is placeholders as the engine leaves them (sparse, real size and mtime, the mark), written
// straight with the addon; a stand-in service counts every hydration the mount asks for (none may come).
// `find` alone reads folders only (names and types); `find -printf '%s %T@'` also looks up and stats
// every file, the most the mount keeps track of. The mount process's peak RSS (VmHWM) is read after
// each. Goals (issue 30): 0 bytes downloaded, the mount process under 300 MB.
//
//   npm run bench -- on-demand-find   (BENCH_OD_FIND_FOLDERS, _FILES, _ROUNDS; BENCH_OD_FIND_KEEP=DIR keeps
//   the tree for the next run; BENCH_OD_DIR for where it is made)
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib/timing.ts';
import {
  CountingService,
  entriesOf,
  fuseMissing,
  loadAverage,
  peakRssMb,
  range,
  removeTree,
  rssNowMb,
  startMount,
  timed,
  writePlaceholderTree,
  type BenchMount,
} from './lib/on-demand-mount.ts';

const SHAPE = {
  folders: Number(process.env['BENCH_OD_FIND_FOLDERS'] ?? 10_000),
  filesPerFolder: Number(process.env['BENCH_OD_FIND_FILES'] ?? 100),
  topFolders: 10,
};
const ROUNDS = Number(process.env['BENCH_OD_FIND_ROUNDS'] ?? 2);
const KEEP = process.env['BENCH_OD_FIND_KEEP'];

const PRINTF = ['-printf', '%s %T@ %p\\n'];

async function main(): Promise<void> {
  const missing = fuseMissing();
  if (missing !== null) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const root = KEEP ?? mkdtempSync(join(process.env['BENCH_OD_DIR'] ?? tmpdir(), 'mch-od-find-'));
  const cache = join(root, 'cache');
  const entries = entriesOf(SHAPE);
  const service = new CountingService(join(root, 'hydrate.sock'));
  let mounted: BenchMount | undefined;
  try {
    if (!existsSync(join(cache, 'made'))) {
      removeTree(cache);
      mkdirSync(cache, { recursive: true });
      const seconds = writePlaceholderTree(cache, SHAPE);
      mkdirSync(join(cache, 'made'));
      console.log(`made ${entries} entries of placeholders in ${seconds.toFixed(1)} s`);
    }
    await service.listen();
    await timed('find', [cache]); // the cache folder's dentries and inodes warm for both sides
    mounted = await startMount(cache, join(root, 'mount'), service.socketPath);
    const mountPoint = mounted.mountPoint;
    const afterMount = peakRssMb(mounted.pid);
    console.log(`mounted; mount process ${afterMount.toFixed(0)} MB (load ${loadAverage()})`);
    const times = {
      plainFind: [] as number[],
      mountFind: [] as number[],
      plainStat: [] as number[],
      mountStat: [] as number[],
    };
    const peaks = { find: 0, stat: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const plainFirst = round % 2 === 0;
      if (plainFirst) times.plainFind.push(await timed('find', [cache]));
      times.mountFind.push(await timed('find', [mountPoint]));
      if (!plainFirst) times.plainFind.push(await timed('find', [cache]));
      if (round === 0) peaks.find = peakRssMb(mounted.pid); // before any file was looked up
      if (plainFirst) times.plainStat.push(await timed('find', [cache, ...PRINTF]));
      times.mountStat.push(await timed('find', [mountPoint, ...PRINTF]));
      if (!plainFirst) times.plainStat.push(await timed('find', [cache, ...PRINTF]));
      peaks.stat = peakRssMb(mounted.pid);
      console.log(
        `round ${round + 1}: find ${times.plainFind.at(-1)?.toFixed(2)} s plain, ${times.mountFind.at(-1)?.toFixed(2)} s mount; ` +
          `find -printf ${times.plainStat.at(-1)?.toFixed(2)} s plain, ${times.mountStat.at(-1)?.toFixed(2)} s mount; ` +
          `mount process peak ${peaks.stat.toFixed(0)} MB, now ${rssNowMb(mounted.pid).toFixed(0)} MB; hydrations ${service.requests.length} (load ${loadAverage()})`,
      );
    }
    console.log(
      `\nfind over ${entries} entries (${SHAPE.folders} folders of ${SHAPE.filesPerFolder} placeholders), ${ROUNDS} rounds`,
    );
    console.log('| case | plain (s) | mount (s) | × plain (median) | mount process peak RSS after it |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| find | ${range(times.plainFind)} | ${range(times.mountFind)} | ${(median(times.mountFind) / median(times.plainFind)).toFixed(1)} | ${peaks.find.toFixed(0)} MB |`,
    );
    console.log(
      `| find -printf '%s %T@ %p' (stats every file) | ${range(times.plainStat)} | ${range(times.mountStat)} | ${(median(times.mountStat) / median(times.plainStat)).toFixed(1)} | ${peaks.stat.toFixed(0)} MB |`,
    );
    const downloads = service.requests.length;
    console.log(
      `\ngoal, 0 bytes downloaded: ${downloads} hydrations asked → ${downloads === 0 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `goal, mount process under 300 MB: peak ${peaks.stat.toFixed(0)} MB (${afterMount.toFixed(0)} MB once mounted) → ${peaks.stat < 300 ? 'met' : 'MISSED'}`,
    );
    if (downloads > 0) process.exitCode = 1;
  } finally {
    await mounted?.stop();
    await service.close();
    if (KEEP === undefined) removeTree(root);
  }
}

await main();
