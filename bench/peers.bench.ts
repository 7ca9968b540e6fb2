// Our client against the two-way sync tools people pick instead, unison and rclone bisync, in the same run on the same trees: first upload, first download, deletes, an unchanged pass, an edit, a folder rename, and start-up.
//
// Each tool runs as a user runs it: its server in a process of its own on loopback (our device;
// `unison -socket`; `rclone serve sftp`) and one client process per pass (`mch-sync run --once`;
// `unison ROOT socket://...`; `rclone bisync`), each timed from outside (wall time from spawn to exit,
// the client's CPU from GNU time, the server's from /proc over the same span). Every run gives each tool
// a tree of its own, written the same (1-4 KiB files in 100 folders), and fresh client state; the order
// of the tools rotates from run to run so none always goes first. After every pass both sides are walked:
// a pass that left a file missing or of the wrong size fails the bench. Medians of the runs count.
// Cases 3-5 run on the pair of the first upload; the first download is a second pair of the same server
// folder with an empty local folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { smallFileSizes, writeTree } from './lib/file-tree.ts';
import { MCH_SYNC_SKIP, startMchSync, type MchSyncTool } from './lib/peer-mch-sync.ts';
import {
  checkSameFiles,
  ensurePeers,
  localFiles,
  timedPeerProcess,
  type PassFigures,
  type PeerPair,
  type PeerTool,
} from './lib/peer-process.ts';
import { RCLONE_FLAGS, startRclone } from './lib/peer-rclone.ts';
import { OURS, PeerFigures, printPeerReport, printStartUps, type PeerCase } from './lib/peer-report.ts';
import { startUnison, UNISON_FLAGS } from './lib/peer-unison.ts';
import { builtEntry } from './lib/built-entry.ts';
import { timedMchSync } from './lib/timed-cli.ts';

const FILES = Number(process.env['BENCH_PEERS_FILES'] ?? 10_000);
const RUNS = Number(process.env['BENCH_PEERS_RUNS'] ?? 3);
const FOLDERS = 100;
const DELETES = 100;
/** Start-ups of each command, interleaved. */
const STARTS = 10;
/**
 * Our passes run the command as `npm run install-cli` installs it (compiled, bundled), as users run it;
 * `BENCH_PEERS_SOURCES=1` runs the checkout's sources instead (Node's type stripping at every start).
 */
const FROM_SOURCES = process.env['BENCH_PEERS_SOURCES'] === '1';
const WARM_UP_FILES = 100;
/** Long enough for a first sync of 100,000 files by the slowest tool on a busy machine. */
const TIMEOUT_MS = 4 * 3_600_000;
/** The edited file and the renamed folder, both in the tree `writeTree` makes. */
const EDITED = join('folder-3', 'file-7.txt');
const RENAMED = 'folder-9';

const CASES = {
  upload: { title: `First upload of ${FILES} files`, perFile: true },
  download: { title: `First download of ${FILES} files into an empty folder`, perFile: true },
  deletes: { title: `${DELETES} files deleted, then one pass`, perFile: false },
  unchanged: { title: 'Nothing changed, one pass', perFile: false },
  edit: { title: 'One file edited, then one pass', perFile: false },
  rename: { title: 'One folder renamed, then one pass', perFile: false },
} satisfies Record<string, PeerCase>;

/** `folder-F/file-1.txt` (then `file-2.txt`...) of as many folders as it takes: spread over the tree. */
function deleteSome(root: string): void {
  for (let index = 0; index < DELETES; index += 1) {
    const file = `file-${1 + Math.floor(index / FOLDERS)}.txt`;
    unlinkSync(join(root, `folder-${index % FOLDERS}`, file));
  }
}

/** Saves the edited file with new bytes of a new size, as an editor does. */
function editOne(root: string, run: number): void {
  writeFileSync(join(root, EDITED), `edited in run ${run} at ${new Date().toISOString()}\n`);
}

function renameFolder(root: string): void {
  renameSync(join(root, RENAMED), join(root, `${RENAMED}-renamed`));
}

/** Directory-safe name of a tool. */
function slug(tool: PeerTool): string {
  return tool.name.replace(/[^a-z0-9]+/gi, '-');
}

/** Walks both sides of a pair: they must hold the same `expected` files with the same sizes. */
async function check(
  tool: PeerTool,
  pair: PeerPair,
  remoteName: string,
  what: string,
  expected: number,
): Promise<void> {
  const skip = tool.name === OURS ? MCH_SYNC_SKIP : [];
  checkSameFiles(
    `${tool.name}, ${what}`,
    localFiles(pair.localRoot, skip),
    await tool.remoteFiles(remoteName),
    expected,
  );
}

function describe(figures: PassFigures): string {
  return `${figures.seconds.toFixed(2)} s (CPU ${figures.cpu.toFixed(2)} s + server ${figures.serverCpu.toFixed(2)} s)`;
}

/** An unmeasured small first sync per tool: the device's JIT and every server's caches are warm before run 1. */
async function warmUp(tools: readonly PeerTool[], work: string): Promise<void> {
  for (const tool of tools) {
    const local = join(work, 'warm-up', slug(tool));
    writeTree(local, { files: WARM_UP_FILES, folders: 10, topFolders: 1, size: smallFileSizes(2) });
    const pair = await tool.pair(local, 'warm-up', false);
    await pair.sync();
    await check(tool, pair, 'warm-up', 'warm-up', WARM_UP_FILES);
  }
  rmSync(join(work, 'warm-up'), { recursive: true, force: true });
}

/** One run of every case, each tool in turn in `order`; returns the pairs of the first upload. */
async function oneRun(
  order: readonly PeerTool[],
  work: string,
  run: number,
  figures: PeerFigures,
): Promise<Map<PeerTool, PeerPair>> {
  const remoteName = `run-${run}`;
  const uploads = new Map<PeerTool, PeerPair>();
  const measure = async (
    peerCase: PeerCase,
    tool: PeerTool,
    pair: PeerPair,
    expected: number,
  ): Promise<void> => {
    const load = loadavg()[0] as number;
    const pass = await pair.sync();
    await check(tool, pair, remoteName, peerCase.title, expected);
    figures.add(peerCase, tool.name, pass);
    console.log(`  ${peerCase.title}: ${tool.name} ${describe(pass)} (load ${load.toFixed(2)})`);
  };
  for (const tool of order) {
    const local = join(work, `run-${run}`, slug(tool), 'upload');
    writeTree(local, { files: FILES, folders: FOLDERS, topFolders: 1, size: smallFileSizes() });
    const pair = await tool.pair(local, remoteName, false);
    uploads.set(tool, pair);
    await measure(CASES.upload, tool, pair, FILES);
  }
  for (const tool of order) {
    const local = join(work, `run-${run}`, slug(tool), 'download');
    mkdirSync(local, { recursive: true });
    await measure(CASES.download, tool, await tool.pair(local, remoteName, true), FILES);
  }
  const step = async (
    peerCase: PeerCase,
    change: (root: string) => void,
    expected: number,
  ): Promise<void> => {
    for (const tool of order) {
      const pair = uploads.get(tool) as PeerPair;
      change(pair.localRoot);
      await measure(peerCase, tool, pair, expected);
    }
  };
  await step(CASES.deletes, deleteSome, FILES - DELETES);
  await step(CASES.unchanged, () => {}, FILES - DELETES);
  await step(CASES.edit, (root) => editOne(root, run), FILES - DELETES);
  await step(CASES.rename, renameFolder, FILES - DELETES);
  return uploads;
}

/** `node -e 0`, `mch-sync --help`, `mch-sync status` (and the peers' own version commands), interleaved. */
async function startUps(ours: MchSyncTool, pair: PeerPair, entry: string | undefined): Promise<void> {
  const profile = ours.profileOf(pair.localRoot);
  if (profile === undefined) throw new Error('no profile for the status start-up');
  const sources = { env: profile.env, timeoutMs: 60_000 };
  const installed = entry === undefined ? undefined : { ...sources, entry };
  const status = ['--profile', profile.profile, 'status', '--folder', pair.localRoot];
  type Start = [string, () => Promise<{ seconds: number }>];
  const installedStarts: Start[] =
    installed === undefined
      ? []
      : [
          ['mch-sync --help (installed)', () => succeeded(timedMchSync(['--help'], installed))],
          ['mch-sync status (installed)', () => succeeded(timedMchSync(status, installed))],
        ];
  const commands: Start[] = [
    ['node -e 0', () => timedPeerProcess(process.execPath, ['-e', '0'], process.env, undefined, 60_000)],
    ...installedStarts,
    ['mch-sync --help (sources)', () => succeeded(timedMchSync(['--help'], sources))],
    ['mch-sync status (sources)', () => succeeded(timedMchSync(status, sources))],
    ['unison -version', () => timedPeerProcess('unison', ['-version'], process.env, undefined, 60_000)],
    ['rclone version', () => timedPeerProcess('rclone', ['version'], process.env, undefined, 60_000)],
  ];
  const starts = new Map<string, number[]>(commands.map(([name]) => [name, []]));
  for (let start = 0; start < STARTS; start += 1) {
    for (const [name, command] of commands) starts.get(name)?.push((await command()).seconds);
  }
  printStartUps(starts, 'node -e 0', STARTS);
}

async function succeeded<T extends { code: number | null; stderr: string }>(run: Promise<T>): Promise<T> {
  const done = await run;
  if (done.code !== 0) throw new Error(`exited with ${done.code}: ${done.stderr}`);
  return done;
}

/** The commit the figures belong to, and whether the client's or device's sources differ from it. */
function sourceVersion(): string {
  const git = (...args: string[]): string =>
    spawnSync('git', args, { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('rev-parse', '--short', 'HEAD');
  if (commit === '') return 'no git work tree';
  const changed = git('status', '--porcelain', '--', 'app', 'device', 'common', 'bin')
    .split('\n')
    .filter(Boolean);
  return changed.length === 0
    ? `commit ${commit}`
    : `commit ${commit} with ${changed.length} changed files in app/, device/, common/, bin/`;
}

async function main(): Promise<void> {
  if (FILES < 1000)
    throw new Error('BENCH_PEERS_FILES must be 1000 or more: the cases edit files of the 100 folders');
  ensurePeers();
  const work = mkdtempSync(join(tmpdir(), 'mch-peers-bench-'));
  const tools: PeerTool[] = [];
  let cleaned: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaned ??= (async () => {
      for (const tool of tools) await tool.stop();
      rmSync(work, { recursive: true, force: true });
    })());
  // A bench stopped from outside (Ctrl+C, a kill of this process alone) still stops its servers.
  const onSignal = (): void => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const entry = FROM_SOURCES ? undefined : builtEntry(work);
    const ours = await startMchSync(join(work, 'mch-sync'), TIMEOUT_MS, entry);
    tools.push(ours);
    tools.push(await startUnison(join(work, 'unison'), TIMEOUT_MS));
    tools.push(await startRclone(join(work, 'rclone'), TIMEOUT_MS));
    console.log(
      `${FILES} files of 1-4 KiB in ${FOLDERS} folders, ${RUNS} runs; unison ${UNISON_FLAGS.join(' ')}; rclone bisync ${RCLONE_FLAGS.join(' ')} (its defaults); mch-sync run --once (4 transfers at once) ${FROM_SOURCES ? 'from the sources' : 'installed (npm run install-cli)'}`,
    );
    console.log(`at ${sourceVersion()}`);
    await warmUp(tools, work);
    const figures = new PeerFigures();
    let last = new Map<PeerTool, PeerPair>();
    for (let run = 0; run < RUNS; run += 1) {
      // Rotated: each tool goes first in one run of three.
      const order = tools.map((_, index) => tools[(index + run) % tools.length] as PeerTool);
      console.log(`run ${run + 1}: ${order.map((tool) => tool.name).join(', ')}`);
      // The previous run's local trees are not needed any more (at 100,000 files they take gigabytes).
      rmSync(join(work, `run-${run - 1}`), { recursive: true, force: true });
      last = await oneRun(order, work, run, figures);
    }
    // Others may commit while a long run goes on: the end says whether the sources stayed the same.
    console.log(`\nat the end: ${sourceVersion()}`);
    printPeerReport(figures, FILES, RUNS);
    await startUps(ours, last.get(ours) as PeerPair, entry);
  } finally {
    await cleanUp();
  }
}

await main();
