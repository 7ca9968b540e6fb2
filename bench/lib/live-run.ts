// `mch-sync run` (live) on a bench profile's pair as a child process: waited for until its first pass ended, measured, then stopped as a user stops it.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { MCH_SYNC_BIN, runMchSync } from '../../test/helpers/mch-sync.ts';
import type { BenchProfile } from './bench-profile.ts';

/** Long enough for a first pass of 100,000 files on this machine. */
const READY_TIMEOUT_MS = 1_800_000;

/** Waits until `mch-sync status --json` says a pass that ended after `sinceMs` left it idle; returns when that pass ended. */
export async function waitForRunIdle(
  profile: BenchProfile,
  localRoot: string,
  sinceMs: number,
): Promise<number> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const status = await runMchSync(
      ['--profile', profile.profile, 'status', '--json', '--folder', localRoot],
      {
        env: profile.env,
      },
    );
    if (status.code === 0) {
      const json = JSON.parse(status.stdout) as {
        state: string;
        lastSyncAtMs: number | null;
        pid: number | null;
      };
      if (
        json.pid !== null &&
        json.state === 'idle' &&
        json.lastSyncAtMs !== null &&
        json.lastSyncAtMs >= sinceMs
      ) {
        return json.lastSyncAtMs;
      }
      if (json.state === 'error' || json.state === 'held') throw new Error(`mch-sync run is ${json.state}`);
    }
    if (Date.now() > deadline) throw new Error('mch-sync run did not finish its first pass');
    await sleep(1_000);
  }
}

/**
 * One `mch-sync run --once --json` of the pair with the real command; throws unless it exits 0. Returns
 * the pass's status and counts in one line, for the bench's log.
 */
export async function passOnce(
  profile: BenchProfile,
  localRoot: string,
  remoteFolder: string,
  timeoutMs: number = READY_TIMEOUT_MS,
): Promise<string> {
  const run = await runMchSync(
    [
      '--profile',
      profile.profile,
      'run',
      '--once',
      '--json',
      '--folder',
      localRoot,
      '--remote-folder',
      remoteFolder,
    ],
    { env: profile.env, timeoutMs },
  );
  if (run.code !== 0) throw new Error(`run --once failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  const summary = JSON.parse(run.stdout) as { status?: string; counts?: Record<string, number> };
  return `${summary.status ?? '?'} ${JSON.stringify(summary.counts ?? {})}`;
}

/** What `use` gets: the running child, when it was started, and when its first pass ended. */
export interface LiveRun {
  pid: number;
  /** process.hrtime.bigint() at the start, for secondsSince. */
  started: bigint;
  passEndMs: number;
}

/**
 * Starts `mch-sync run --folder localRoot --remote-folder remoteFolder`, waits for its first pass, hands
 * it to `use`, then stops it with SIGTERM and checks that it said it stopped cleanly.
 */
export async function withLiveRun<T>(
  profile: BenchProfile,
  localRoot: string,
  remoteFolder: string,
  use: (run: LiveRun) => Promise<T>,
): Promise<T> {
  const startedMs = Date.now();
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [
      MCH_SYNC_BIN,
      '--profile',
      profile.profile,
      'run',
      '--folder',
      localRoot,
      '--remote-folder',
      remoteFolder,
    ],
    { env: profile.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const passEndMs = await waitForRunIdle(profile, localRoot, startedMs);
    const result = await use({ pid: child.pid as number, started, passEndMs });
    child.kill('SIGTERM');
    await exited;
    if (!output.includes('Stopped.')) throw new Error(`mch-sync run did not stop cleanly:\n${output}`);
    return result;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  }
}
