// `mch-sync run --folder F` as a child process for the state-service benches: its pid, its state socket, its status over the control socket, a clean stop.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { askService } from '../../app/live-service/control-client.ts';
import { controlSocketPath } from '../../app/live-service/control-socket-path.ts';
import { stateSocketDir, stateSocketPath } from '../../app/file-state/state-socket-path.ts';
import { StateConnection } from '../../app/file-state/state-client.ts';
import type { SyncStatus } from '../../common/sync-status.ts';
import { MCH_SYNC_BIN } from '../../test/helpers/mch-sync.ts';
import type { BenchProfile } from './bench-profile.ts';

/** Long enough for a first pass of 100,000 files on this busy machine. */
const READY_TIMEOUT_MS = 1_800_000;

export interface LiveChild {
  pid: number;
  /** `<profile>/run/state/<pid>.sock`: what the file managers connect to. */
  socketPath: string;
  /** The service's status now (its control socket: no process started per ask), undefined before it listens. */
  status(): Promise<SyncStatus | undefined>;
  /** Resolves once a pass that ended after `sinceMs` left it idle. */
  idleAfter(sinceMs: number): Promise<SyncStatus>;
  /** SIGTERM, as a user stops it; resolves with what it printed, once it exited. */
  stop(): Promise<string>;
}

export interface LiveChildOptions {
  /** Added to the child's environment (e.g. NODE_OPTIONS with --cpu-prof). */
  env?: NodeJS.ProcessEnv;
  /** Wait for the first pass to end (default); false: only for the state socket to serve the folder. */
  waitIdle?: boolean;
}

/** Starts `node bin/mch-sync.js --profile P run --folder F --remote-folder R` and waits until it serves. */
export async function startLiveChild(
  profile: BenchProfile,
  folder: string,
  remoteFolder: string,
  options: LiveChildOptions = {},
): Promise<LiveChild> {
  const startedMs = Date.now();
  const child = spawn(
    process.execPath,
    [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder, '--remote-folder', remoteFolder],
    { env: { ...profile.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid as number;
  const control = controlSocketPath(profile.profile, folder);
  const status = async (): Promise<SyncStatus | undefined> => {
    try {
      const answer = await askService(control, { op: 'status' }, { timeoutMs: 30_000 });
      return answer?.ok === true ? answer.status : undefined;
    } catch {
      return undefined;
    }
  };
  const idleAfter = async (sinceMs: number): Promise<SyncStatus> => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mch-sync run exited:\n${output}`);
      const now = await status();
      if (now?.state === 'idle' && now.lastSyncAtMs !== null && now.lastSyncAtMs >= sinceMs) return now;
      if (now?.state === 'error' || now?.state === 'held') throw new Error(`mch-sync run is ${now.state}`);
      if (Date.now() > deadline) throw new Error('mch-sync run did not become idle in time');
      await sleep(250);
    }
  };
  const stop = async (): Promise<string> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    return output;
  };
  const socketPath = stateSocketPath(stateSocketDir(profile.profile), pid);
  try {
    if (options.waitIdle === false) await servesFolder(socketPath, folder, () => child.exitCode !== null);
    else await idleAfter(startedMs);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; it said:\n${output}`, { cause: error });
  }
  return { pid, socketPath, status, idleAfter, stop };
}

/** Waits until the state socket's hello names the folder (the pair's service tracks it from its start). */
async function servesFolder(socketPath: string, folder: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited()) throw new Error('mch-sync run exited');
    try {
      const connection = await StateConnection.connect(socketPath, 5_000);
      const serves = connection.folders.includes(folder);
      connection.close();
      if (serves) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`no state socket serving ${folder} at ${socketPath}`);
    await sleep(200);
  }
}
