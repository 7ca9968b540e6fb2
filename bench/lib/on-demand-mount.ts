// What the files-on-demand benches share: trees of placeholders, the mount process as a child, a stand-in
// for the service that counts what the mount asks, bindfs as a reference, and commands timed from outside.
//
// The bench process never reads a mount itself: the mount process is a child, and every read of a mount
// is a command run in another process, spawned asynchronously (a synchronous spawn would stop this
// process's event loop, where the hydration server answers the mount).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, ftruncateSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFuseAddon } from '../../app/mount/fuse-addon.ts';
import {
  PLACEHOLDER_MARK,
  PLACEHOLDER_XATTR,
  type HydrateRequest,
} from '../../app/mount/hydration-protocol.ts';
import { cleanStaleMount } from '../../app/mount/stale-mount.ts';
import { placeholderAttributes } from '../../app/sync/local/placeholders.ts';
import { secondsSince } from './timing.ts';

const MOUNT_PROCESS = fileURLToPath(new URL('../../app/mount/mount-process.ts', import.meta.url));

/** Why no mount can be made here (the addon, libfuse2 or /dev/fuse missing), or null. */
export function fuseMissing(): string | null {
  try {
    return loadFuseAddon().fuseUnavailable();
  } catch (error) {
    return (error as Error).message;
  }
}

export interface TreeShape {
  folders: number;
  filesPerFolder: number;
  /** Folders are grouped under this many top folders. */
  topFolders: number;
}

/** Entries of a tree: its files, its folders and its top folders. */
export function entriesOf(shape: TreeShape): number {
  return shape.folders * shape.filesPerFolder + shape.folders + shape.topFolders;
}

/**
 * A tree of placeholders as the engine leaves them in a cache folder: `top-T/folder-F/file-I.bin`,
 * each sparse with a size of 1 KB to 16 MB, an mtime of its own and the mark. Returns the seconds taken.
 */
export function writePlaceholderTree(root: string, shape: TreeShape): number {
  const started = process.hrtime.bigint();
  const attributes = placeholderAttributes();
  const mark = Buffer.from(PLACEHOLDER_MARK);
  const base = 1_700_000_000_000_000_000n;
  let state = 1;
  for (let f = 0; f < shape.folders; f += 1) {
    const folder = join(root, `top-${f % shape.topFolders}`, `folder-${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < shape.filesPerFolder; i += 1) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      const fd = openSync(join(folder, `file-${i}.bin`), 'wx', 0o644);
      try {
        ftruncateSync(fd, 1024 + (state % (16 << 20)));
        attributes.setMtimeNs(fd, base + BigInt(state) * 1_000_000n);
        attributes.setAttribute(fd, PLACEHOLDER_XATTR, mark);
      } finally {
        closeSync(fd);
      }
    }
  }
  return secondsSince(started);
}

/** Removes a tree (a child `rm -rf`: much faster than rmSync at a million files). */
export function removeTree(root: string): void {
  const result = spawnSync('rm', ['-rf', root]);
  if (result.status !== 0) rmSync(root, { recursive: true, force: true });
}

/** The stand-in for the service: records every hydration asked for and refuses it (nothing is downloaded). */
export class CountingService {
  readonly requests: HydrateRequest[] = [];
  readonly socketPath: string;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  constructor(socketPath: string) {
    this.socketPath = socketPath;
    this.#server = createServer((socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      let pending = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const request = JSON.parse(line) as HydrateRequest;
          if (request.type !== 'hydrate') continue;
          this.requests.push(request);
          socket.write(
            `${JSON.stringify({ type: 'failed', req: request.req, errno: 'EACCES', message: 'bench: no downloads' })}\n`,
          );
        }
      });
    });
  }

  async listen(): Promise<void> {
    this.#server.listen(this.socketPath);
    await once(this.#server, 'listening');
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close').catch(() => undefined);
  }
}

export interface BenchMount {
  readonly mountPoint: string;
  /** The mount process (its /proc/<pid>/status has its memory). */
  readonly pid: number;
  /** SIGTERM (it unmounts), then a lazy unmount should anything be left. */
  stop(): Promise<void>;
}

/** Starts `node app/mount/mount-process.ts` over `source` at `mountPoint`, its service on `socketPath`. */
export async function startMount(
  source: string,
  mountPoint: string,
  socketPath: string,
): Promise<BenchMount> {
  mkdirSync(mountPoint, { recursive: true });
  const child = spawn(
    process.execPath,
    [MOUNT_PROCESS, '--source', source, '--mount', mountPoint, '--socket', socketPath],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  while (!output.includes('\n')) {
    const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit')])) as [
      string | number | null,
    ];
    if (typeof chunk !== 'string') break;
    output += chunk;
  }
  const line = output.split('\n')[0] ?? '';
  if (line !== '{"mounted":true}') {
    child.kill('SIGKILL');
    throw new Error(`the mount process did not mount: ${line || 'it exited'}`);
  }
  return {
    mountPoint,
    pid: child.pid as number,
    stop: async () => {
      await stopChild(child);
      await cleanStaleMount(mountPoint).catch(() => undefined);
      spawnSync('fusermount', ['-uz', mountPoint], { stdio: 'ignore' });
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Where bindfs is, or undefined (the bench then skips it and says so). */
export function bindfsPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v bindfs'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : undefined;
}

/** Debian's bindfs (a C passthrough on libfuse) over `source` at `mountPoint`, with its defaults. */
export async function startBindfs(bindfs: string, source: string, mountPoint: string): Promise<BenchMount> {
  mkdirSync(mountPoint, { recursive: true });
  const result = await runCommand(bindfs, [source, mountPoint]);
  if (result.code !== 0) throw new Error(`bindfs failed: ${result.stderr}`);
  const pid = Number(
    spawnSync('pgrep', ['-n', '-f', `bindfs ${source} ${mountPoint}`])
      .stdout.toString()
      .trim(),
  );
  return {
    mountPoint,
    pid,
    stop: async () => {
      await runCommand('fusermount', ['-uz', mountPoint]);
    },
  };
}

export interface CommandResult {
  code: number;
  seconds: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in a child process, without blocking this one, timed from spawn to exit. Its output is
 * discarded unless `keepOutput` (a listing of 100,000 lines written to a pipe costs time of its own).
 */
export function runCommand(command: string, args: string[], keepOutput = true): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ['ignore', keepOutput ? 'pipe' : 'ignore', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code: code ?? 1, seconds: secondsSince(started), stdout, stderr }),
    );
  });
}

/** `command args` timed, its output to /dev/null; throws when it fails. */
export async function timed(command: string, args: string[]): Promise<number> {
  const result = await runCommand(command, args, false);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.seconds;
}

/** The peak resident set of a process, in MB (VmHWM of /proc/<pid>/status). */
export function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** The resident set of a process now, in MB. */
export function rssNowMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Drops one file's pages from the page cache (`posix_fadvise(DONTNEED)` through dd), no other file's. */
export async function dropFileCache(path: string): Promise<void> {
  await timed('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** The 1-minute load average, for the report. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';
}

/** Min-max of some figures, with a fixed number of decimals. */
export function range(values: readonly number[], digits = 2): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low.toFixed(digits) === high.toFixed(digits)
    ? low.toFixed(digits)
    : `${low.toFixed(digits)}-${high.toFixed(digits)}`;
}
