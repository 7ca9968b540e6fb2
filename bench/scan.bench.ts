// A local scan of 100,000 files in 1,000 folders with nothing changed, against `find` on the same tree.
//
// The tree is written once to a temporary folder. Each side runs several times, alternating, and the
// median counts (this machine is shared). Peak memory is measured in a child process that does nothing
// but one scan, so the tree generation and the timing runs do not count towards it.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeListFolder } from '../app/sync/local/native-scan.ts';
import { nodeScanFs, scanLocalFolder } from '../app/sync/local/scanner.ts';
import { printComparison } from './lib/report.ts';

const FILES = Number(process.env['BENCH_SCAN_FILES'] ?? 100_000);
const FOLDERS = 1_000;
const RUNS = Number(process.env['BENCH_SCAN_RUNS'] ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function createTree(root: string): void {
  const perFolder = Math.ceil(FILES / FOLDERS);
  for (let f = 0; f < FOLDERS; f += 1) {
    // Ten top folders of a hundred each: a realistic depth, not one flat folder.
    const folder = join(root, `top-${f % 10}`, `folder-${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < perFolder && f * perFolder + i < FILES; i += 1) {
      writeFileSync(join(folder, `file-${i}.txt`), 'x'.repeat(i % 64));
    }
  }
}

function timeFind(root: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync('sh', ['-c', `find "$1" -printf '%i %s %T@ %p\\n' > /dev/null`, 'find', root]);
  if (result.status !== 0) throw new Error(`find failed: ${result.stderr.toString()}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The scanner as a pass runs it (the native lister where it is built), or through node:fs calls. */
function timeScan(
  root: string,
  through: 'default' | 'node-fs' = 'default',
): { seconds: number; entries: number } {
  const started = process.hrtime.bigint();
  const result = scanLocalFolder(root, through === 'node-fs' ? { fs: nodeScanFs } : {});
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.root !== 'ok') throw new Error(`scan: root ${result.root}`);
  return { seconds, entries: result.entries.length };
}

/** The floor for any Node scanner: the same calls with no judging of names and no entries kept. */
function timeBareWalk(root: string): number {
  const started = process.hrtime.bigint();
  const stack = [root];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    for (const dirent of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${dirent.name}`;
      if (lstatSync(path, { bigint: true }).isDirectory()) stack.push(path);
    }
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Child mode: one scan, then the peak RSS in MB on stdout. */
function child(root: string): void {
  const { entries } = timeScan(root);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ entries, peakMb }));
}

function main(): void {
  const root = mkdtempSync(join(tmpdir(), 'mch-scan-bench-'));
  try {
    const createStarted = Date.now();
    createTree(root);
    console.log(
      `created ${FILES} files in ${FOLDERS} folders in ${((Date.now() - createStarted) / 1000).toFixed(1)} s`,
    );
    const findTimes: number[] = [];
    const scanTimes: number[] = [];
    const bareTimes: number[] = [];
    const nodeFsTimes: number[] = [];
    let entries = 0;
    timeFind(root); // warm the dentry and inode caches for both sides alike
    for (let run = 0; run < RUNS; run += 1) {
      findTimes.push(timeFind(root));
      const scan = timeScan(root);
      scanTimes.push(scan.seconds);
      bareTimes.push(timeBareWalk(root));
      nodeFsTimes.push(timeScan(root, 'node-fs').seconds);
      entries = scan.entries;
    }
    const probe = spawnSync(process.execPath, [import.meta.filename, '--child', root], { encoding: 'utf8' });
    if (probe.status !== 0) throw new Error(`RSS child failed: ${probe.stderr}`);
    const { peakMb } = JSON.parse(probe.stdout) as { peakMb: number };
    const findMedian = median(findTimes);
    const scanMedian = median(scanTimes);
    const bareMedian = median(bareTimes);
    const nodeFsMedian = median(nodeFsTimes);
    const native =
      nativeListFolder() === undefined ? 'node:fs (the native lister is not built)' : 'native lister';
    printComparison(
      `Local scan, ${FILES} files in ${FOLDERS} folders, nothing changed (median of ${RUNS} runs)`,
      {
        name: 'find -printf',
        rate: FILES / findMedian,
        unit: 'files/s',
        detail: `${findMedian.toFixed(3)} s`,
      },
      [
        {
          name: 'bare readdirSync + lstatSync walk',
          rate: FILES / bareMedian,
          unit: 'files/s',
          detail: `${bareMedian.toFixed(3)} s, ${(bareMedian / findMedian).toFixed(2)}× find's time`,
        },
        {
          name: 'scanLocalFolder through node:fs',
          rate: FILES / nodeFsMedian,
          unit: 'files/s',
          detail: `${nodeFsMedian.toFixed(3)} s, ${(nodeFsMedian / findMedian).toFixed(2)}× find's time`,
        },
        {
          name: `scanLocalFolder (${native})`,
          rate: FILES / scanMedian,
          unit: 'files/s',
          detail: `${scanMedian.toFixed(3)} s, ${(scanMedian / findMedian).toFixed(2)}× find's time, ${entries} entries, peak RSS ${peakMb.toFixed(0)} MB (goal: ≤ 3× find, < 300 MB)`,
        },
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') child(process.argv[3] as string);
else main();
