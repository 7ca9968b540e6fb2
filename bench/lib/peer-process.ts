// What the peers bench shares between its three tools: their common shape, peer servers as child processes, timed client processes, and the file walks that check a sync.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { runProcess } from '../../test/helpers/mch-sync.ts';
import { secondsSince } from './timing.ts';

/** GNU time, which reports the child's own rusage (wait4) whatever program it is. */
const TIME_BIN = '/usr/bin/time';

/** One sync pass of one tool, measured from outside. */
export interface PassFigures {
  /** From spawn to exit of the client process. */
  seconds: number;
  /** User + system CPU seconds of the client process. */
  cpu: number;
  /** CPU seconds the tool's server (our device, unison's socket server, rclone's sftp server) used meanwhile. */
  serverCpu: number;
}

/** A local folder synced with one folder on a tool's server side. */
export interface PeerPair {
  readonly localRoot: string;
  /** One pass, as a user runs it (its first one makes the pair: rclone's --resync). Throws unless it succeeded. */
  sync(): Promise<PassFigures>;
}

/** A sync tool with its server running. */
export interface PeerTool {
  readonly name: string;
  /**
   * A new pair with fresh client state (no archive, no index): `remoteName` is made empty on the
   * server side unless `existing` (it then holds what an earlier pair put there).
   */
  pair(localRoot: string, remoteName: string, existing: boolean): Promise<PeerPair>;
  /** The files the server side holds in `remoteName`: relative path ('/'-separated) → size. */
  remoteFiles(remoteName: string): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

/** A peer's server as a child process of its own. */
export interface PeerServer {
  pid: number;
  stop(): Promise<void>;
}

/** Spawns `command args` and waits until it prints a line (on stdout or stderr) that `ready` matches. */
export async function startPeerServer(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 20_000,
): Promise<PeerServer> {
  const child: ChildProcess = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${output}`)), timeoutMs);
      child.once('exit', (code) => reject(new Error(`${command} exited early with ${code}:\n${output}`)));
      child.once('error', reject);
      for (const stream of [child.stdout, child.stderr]) {
        if (stream === null) continue;
        createInterface({ input: stream }).on('line', (line) => {
          // Kept only until it is ready; the stream is still read afterwards so the server never blocks.
          if (output.length < 10_000) output += `${line}\n`;
          if (ready.test(line)) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: child.pid as number, stop };
}

/**
 * User + system CPU seconds of a process so far, with those of the children it waited for (a server
 * that forks a child per connection counts its children's work there).
 */
export function processTreeCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name (which may hold spaces): fields 14-17 of proc(5) are the 12th-15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Clock ticks: 100 per second on every Linux this runs on (`getconf CLK_TCK`).
  return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / 100;
}

/** A process run to its end under GNU time, with its server's CPU over the same span. */
export async function timedPeerProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  serverPid: number | undefined,
  timeoutMs: number,
): Promise<PassFigures & { stdout: string; stderr: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'mch-peer-time-'));
  const report = join(folder, 'time');
  try {
    const serverStart = serverPid === undefined ? Number.NaN : processTreeCpuSeconds(serverPid);
    const started = process.hrtime.bigint();
    const run = await runProcess(TIME_BIN, ['-f', '%U %S', '-o', report, command, ...args], {
      env,
      timeoutMs,
    });
    const seconds = secondsSince(started);
    const serverCpu = serverPid === undefined ? Number.NaN : processTreeCpuSeconds(serverPid) - serverStart;
    if (run.code !== 0) {
      throw new Error(
        `${command} ${args.join(' ')} exited with ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`,
      );
    }
    const [user, system] = (readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? '')
      .split(' ')
      .map(Number);
    return { seconds, cpu: (user ?? 0) + (system ?? 0), serverCpu, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every file below `root`: relative path ('/'-separated) → size; folders named in `skip` are left out. */
export function localFiles(root: string, skip: readonly string[] = []): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const relativePath = relative(root, path).split(sep).join('/');
    if (skip.some((name) => relativePath === name || relativePath.startsWith(`${name}/`))) continue;
    files.set(relativePath, statSync(path).size);
  }
  return files;
}

/** Throws unless both sides hold the same files with the same sizes (and `expected` of them). */
export function checkSameFiles(
  what: string,
  local: ReadonlyMap<string, number>,
  remote: ReadonlyMap<string, number>,
  expected: number,
): void {
  if (local.size !== expected)
    throw new Error(`${what}: the local folder holds ${local.size} files, not ${expected}`);
  const wrong: string[] = [];
  for (const [path, size] of local) {
    const other = remote.get(path);
    if (other !== size) wrong.push(`${path}: ${size} here, ${other ?? 'missing'} there`);
  }
  for (const path of remote.keys()) if (!local.has(path)) wrong.push(`${path}: only on the server side`);
  if (wrong.length > 0)
    throw new Error(`${what}: ${wrong.length} files differ, e.g. ${wrong.slice(0, 5).join('; ')}`);
}

/**
 * Stops unless `unison` and `rclone` are there: Debian's packages are installed when this runs as root,
 * else the command that installs them is named.
 */
export function ensurePeers(): void {
  const missing = ['unison', 'rclone'].filter((name) => spawnSync(name, ['-version']).error !== undefined);
  if (missing.length === 0) return;
  const command = 'apt-get install -y unison rclone';
  if (process.getuid?.() !== 0)
    throw new Error(`${missing.join(' and ')} missing: run \`sudo ${command}\` first`);
  console.log(`installing ${missing.join(' and ')}: ${command}`);
  const install = (): boolean =>
    spawnSync('apt-get', ['install', '-y', 'unison', 'rclone'], { stdio: 'inherit' }).status === 0;
  // A machine that never fetched Debian's lists cannot install anything yet.
  if (!install() && !(spawnSync('apt-get', ['update'], { stdio: 'inherit' }).status === 0 && install()))
    throw new Error(`\`${command}\` failed`);
}
