// Reading a whole (hydrated) 1 GiB file through the on-demand mount, against reading it in the cache
// folder directly: `dd bs=1M` to /dev/null in a child process, cold and warm.
//
// Cold: the file's pages dropped (posix_fadvise DONTNEED through `dd iflag=nocache`, this file only, so
// other work on the machine keeps its cache) from the cache folder's file and from the mount's own page
// cache. "Mount, cache folder warm": the mount's page cache dropped, the cache folder's kept, so every
// byte crosses FUSE but none comes from the disk. Warm: read again at once (the mount keeps its page
// cache while size and mtime hold, auto_cache). Rounds interleave the cases. Goal (issue 30): at least
// 0.8× the plain folder's throughput.
//
//   npm run bench -- on-demand-read   (BENCH_OD_READ_MB, BENCH_OD_READ_ROUNDS; BENCH_OD_DIR for the file)
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib/timing.ts';
import {
  CountingService,
  dropFileCache,
  fuseMissing,
  loadAverage,
  range,
  removeTree,
  startMount,
  timed,
  type BenchMount,
} from './lib/on-demand-mount.ts';

const MB = Number(process.env['BENCH_OD_READ_MB'] ?? 1024);
const ROUNDS = Number(process.env['BENCH_OD_READ_ROUNDS'] ?? 5);

type Case = 'plain cold' | 'mount cold' | 'mount, cache folder warm' | 'plain warm' | 'mount warm';
const CASES: Case[] = ['plain cold', 'mount cold', 'mount, cache folder warm', 'plain warm', 'mount warm'];

async function readMbPerSecond(path: string): Promise<number> {
  return MB / (await timed('dd', [`if=${path}`, 'of=/dev/null', 'bs=1M', 'status=none']));
}

async function main(): Promise<void> {
  const missing = fuseMissing();
  if (missing !== null) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const root = mkdtempSync(join(process.env['BENCH_OD_DIR'] ?? tmpdir(), 'mch-od-read-'));
  const cache = join(root, 'cache');
  mkdirSync(cache);
  const plainFile = join(cache, 'big.bin');
  const mountFile = join(root, 'mount', 'big.bin');
  const service = new CountingService(join(root, 'hydrate.sock'));
  let mounted: BenchMount | undefined;
  try {
    await timed('dd', [
      'if=/dev/urandom',
      `of=${plainFile}`,
      'bs=1M',
      `count=${MB}`,
      'conv=fsync',
      'status=none',
    ]);
    await service.listen();
    mounted = await startMount(cache, join(root, 'mount'), service.socketPath);
    console.log(`${MB} MiB file written and mounted (load ${loadAverage()})`);
    const rates = new Map<Case, number[]>(CASES.map((name) => [name, []]));
    const measure = async (name: Case): Promise<void> => {
      switch (name) {
        case 'plain cold':
          await dropFileCache(plainFile);
          rates.get(name)?.push(await readMbPerSecond(plainFile));
          return;
        case 'plain warm':
          await readMbPerSecond(plainFile);
          rates.get(name)?.push(await readMbPerSecond(plainFile));
          return;
        case 'mount cold':
          await dropFileCache(mountFile);
          await dropFileCache(plainFile);
          rates.get(name)?.push(await readMbPerSecond(mountFile));
          return;
        case 'mount, cache folder warm':
          await readMbPerSecond(plainFile);
          await dropFileCache(mountFile);
          rates.get(name)?.push(await readMbPerSecond(mountFile));
          return;
        case 'mount warm':
          await readMbPerSecond(mountFile);
          rates.get(name)?.push(await readMbPerSecond(mountFile));
          return;
      }
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      // Cold and warm pairs, the order turned each round: plain first, then the mount first.
      const pairs: Case[][] = [
        ['plain cold', 'mount cold'],
        ['plain warm', 'mount warm', 'mount, cache folder warm'],
      ];
      for (const pair of pairs) {
        for (const name of round % 2 === 0 ? pair : [...pair].reverse()) await measure(name);
      }
      console.log(
        `round ${round + 1}: ${CASES.map((name) => `${name} ${(rates.get(name)?.at(-1) ?? 0).toFixed(0)}`).join(', ')} MB/s (load ${loadAverage()})`,
      );
    }
    const base = (name: Case): number => median(rates.get(name) ?? []);
    console.log(`\nReading a ${MB} MiB whole file with dd bs=1M, ${ROUNDS} rounds (MB/s: MiB per second)`);
    console.log('| case | MB/s (median) | range | × plain (same cache state) |');
    console.log('|---|---:|---:|---:|');
    for (const name of CASES) {
      const plain = name === 'mount cold' ? 'plain cold' : name.startsWith('mount') ? 'plain warm' : name;
      const ratio = name === plain ? 'baseline' : (base(name) / base(plain)).toFixed(2);
      console.log(`| ${name} | ${base(name).toFixed(0)} | ${range(rates.get(name) ?? [], 0)} | ${ratio} |`);
    }
    for (const [name, plain] of [
      ['mount cold', 'plain cold'],
      ['mount warm', 'plain warm'],
    ] as const) {
      const ratio = base(name) / base(plain);
      console.log(
        `goal, ${name} at least 0.8× ${plain}: ${ratio.toFixed(2)}× → ${ratio >= 0.8 ? 'met' : 'MISSED'}`,
      );
    }
    console.log(`hydrations asked: ${service.requests.length}`);
  } finally {
    await mounted?.stop();
    await service.close();
    removeTree(root);
  }
}

await main();
