// A real `mch-sync run` child process, killed with SIGKILL at a seeded moment or run to its end.
import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { TestDevice } from '../../helpers/device.ts';
import { MCH_SYNC_BIN } from '../../helpers/mch-sync.ts';
import type { KillMoment } from './scenario.ts';

export interface ChildRun {
  /** Exit code; null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Work requests (uploads, downloads, moves, creates, deletes) the device saw while it ran. */
  requests: number;
  /** A live run that had said it was up to date: killed idle, not mid-work. */
  idle: boolean;
}

export interface RunTarget {
  profile: string;
  env: NodeJS.ProcessEnv;
  localRoot: string;
  remoteFolder: string;
}

/** A run that is not killed and still going after this has hung (a pass of a few hundred files takes seconds). */
const HANG_MS = 180_000;

function args(target: RunTarget, live: boolean, extra: readonly string[]): string[] {
  const words = [MCH_SYNC_BIN, '--profile', target.profile, 'run', '--folder', target.localRoot];
  words.push('--remote-folder', target.remoteFolder);
  return live ? words : [...words, '--once', '--json', ...extra];
}

/** A request that changes the device or moves content (listings and lookups are not work). */
function isWork(request: IncomingMessage): boolean {
  const path = (request.url ?? '').split('?')[0] ?? '';
  if (!path.startsWith('/sdk/')) return false;
  return request.method !== 'GET' || /\/(content|resumable)$/u.test(path);
}

/**
 * Counts the device's work requests while `child` runs: the device lives in this process, so its HTTP
 * server's `request` event is the moment a request arrives (for an upload, before its body is in).
 */
function countRequests(device: TestDevice, onRequest: (count: number) => void): () => void {
  let count = 0;
  const listener = (request: IncomingMessage): void => {
    if (!isWork(request)) return;
    count += 1;
    onRequest(count);
  };
  device.running.app.server.on('request', listener);
  return () => device.running.app.server.off('request', listener);
}

/**
 * Calls `kill` at the `count`-th change the engine makes in the local folder (its own `.mch-sync`
 * aside): downloads and the local side of remote moves make no device request to count.
 */
function watchLocal(root: string, count: number, kill: () => void): () => void {
  let seen = 0;
  const watcher = watch(root, { recursive: true }, (_event, name) => {
    if (name === null || name === '.mch-sync' || name.startsWith('.mch-sync/')) return;
    seen += 1;
    if (seen === count) kill();
  });
  watcher.on('error', () => {});
  return () => watcher.close();
}

/**
 * Runs `mch-sync run` (`--once --json`, or live when `moment.live`) and kills it with SIGKILL at
 * `moment`; a run that ends first is just a run that ended. Without a moment it runs to its end.
 */
export function runChild(
  device: TestDevice,
  target: RunTarget,
  moment?: KillMoment,
  extra: readonly string[] = [],
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, args(target, moment?.live === true, extra), {
      env: target.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let requests = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // A live run that is done with the work waits for changes: killed then, it dies idle.
      if (moment?.live === true && stdout.includes('Up to date')) kill();
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timers: NodeJS.Timeout[] = [];
    const kill = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const stopCounting = countRequests(device, (count) => {
      requests = count;
      if (moment?.at !== 'request' || count !== moment.request) return;
      if (moment.thenMs === 0) kill();
      else timers.push(setTimeout(kill, moment.thenMs));
    });
    if (moment?.at === 'delay') timers.push(setTimeout(kill, moment.ms));
    const stopWatching = moment?.at === 'local' ? watchLocal(target.localRoot, moment.event, kill) : () => {};
    // A live run ends only when killed: one that never reaches its moment is stopped after a while.
    const limit = moment?.live === true ? 30_000 : HANG_MS;
    let hung = false;
    timers.push(
      setTimeout(() => {
        hung = moment?.live !== true;
        kill();
      }, limit),
    );
    child.once('error', (error) => {
      for (const timer of timers) clearTimeout(timer);
      stopCounting();
      stopWatching();
      reject(error);
    });
    child.once('close', (code, signal) => {
      for (const timer of timers) clearTimeout(timer);
      stopCounting();
      stopWatching();
      if (hung) {
        reject(new Error(`mch-sync run did not end in ${HANG_MS / 1000} s:\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ code, signal, stdout, stderr, requests, idle: stdout.includes('Up to date') });
    });
  });
}
