// Drives files on demand as a user does: the mch-sync command, live sync in a child process with its mount, waits.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectExit } from './expect-cli.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from './mch-sync.ts';
import type { SignedInProfile } from './signed-in-profile.ts';
import type { StatusJson } from '../../app/cli/sync-commands/status-json.ts';
import { isOurMount } from '../../app/mount/stale-mount.ts';
import { askService } from '../../app/live-service/control-client.ts';
import { controlSocketPath } from '../../app/live-service/control-socket-path.ts';
import type { SyncStatus } from '../../common/sync-status.ts';

export function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 120_000 });
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export async function status(profile: SignedInProfile, folder: string): Promise<StatusJson> {
  const result = await mch(profile, ['status', '--folder', folder, '--json']);
  expectExit(result, 0);
  return JSON.parse(result.stdout) as StatusJson;
}

/**
 * The running live service's status over its control socket, or undefined when none runs: what the
 * waits poll (a `status` command per poll would start a Node process each time, on a shared machine).
 */
export async function serviceStatus(
  profile: SignedInProfile,
  folder: string,
): Promise<SyncStatus | undefined> {
  const answer = await askService(controlSocketPath(profile.profile, folder), { op: 'status' });
  return answer?.ok === true ? answer.status : undefined;
}

/** What the folder shows the user: the client's own state folder aside. */
export function shown(folder: string): string[] {
  return readdirSync(folder).filter((name) => name !== '.mch-sync');
}

/** The live service's log files, for a failure's message. */
export function serviceLogs(profile: SignedInProfile): string {
  const logs = join(profile.profile, 'logs');
  return readdirSync(logs)
    .map((name) => readFileSync(join(logs, name), 'utf8'))
    .join('\n');
}

export interface LiveSync {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Ctrl+C, and waits for it to end. */
  stop(): Promise<void>;
  readonly ended: Promise<void>;
}

/**
 * `mch-sync run --folder` in a child process, once its folder is mounted (an on-demand pair's; `mounted:
 * false` for another) and a first pass is over.
 */
export async function liveSync(
  profile: SignedInProfile,
  folder: string,
  options: { mounted?: boolean; command?: readonly string[] } = {},
): Promise<LiveSync> {
  // The checkout's command unless another is given (the installed one: installed-command.test.ts).
  const [program = process.execPath, ...words] = options.command ?? [process.execPath, MCH_SYNC_BIN];
  const child = spawn(program, [...words, '--profile', profile.profile, 'run', '--folder', folder], {
    env: profile.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    if (options.mounted !== false) {
      await waitFor('the mount', async () => ((await isOurMount(folder)) ? true : undefined));
    }
    await waitFor('a first pass', async () => {
      const now = await serviceStatus(profile, folder);
      // Over: synced, or over with items it could not sync (a name clash stays).
      const over = now?.lastSyncAtMs !== null || (now?.issues.length ?? 0) > 0;
      return now?.state === 'idle' && over ? true : undefined;
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}; the service said:\n${output}`, { cause: error });
  }
  return {
    child,
    output: () => output,
    ended,
    stop: async () => {
      child.kill('SIGINT');
      await ended;
    },
  };
}
