// The mount process of an on-demand pair, started and stopped by the live service: spawned, waited for, ended at stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mountArgumentList, type MountArguments } from '../mount/mount-arguments.ts';
import { isMountErrorCode, MountError } from '../mount/mount-errors.ts';
import { cleanStaleMount } from '../mount/stale-mount.ts';
import { appModule } from '../app-files.ts';

/** The mount process's entry: compiled JavaScript in a build, the TypeScript source otherwise. */
function mountEntry(): string {
  return appModule('mount/mount-process');
}

export interface RunningMount {
  readonly mountPoint: string;
  /** Resolves when the mount process ended, by `stop()` or on its own (with its exit code). */
  readonly ended: Promise<number | null>;
  /** Unmounts (SIGTERM, then SIGKILL and a lazy unmount if it does not end); safe to call twice. */
  stop(): Promise<void>;
}

/** How long a mount process gets to unmount after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;
/** How long a start may take before it is given up (libfuse's mount is instant when it works). */
const START_TIMEOUT_MS = 30_000;

/**
 * Spawns the mount process and resolves once it says the mount is up; its error (`MountError`, with
 * the mount process's code) otherwise. Its stdin stays a pipe: if this process dies, the mount process
 * sees it end and unmounts.
 */
export async function startMount(
  args: MountArguments,
  options: { log?: (level: 'info' | 'warn', message: string) => void } = {},
): Promise<RunningMount> {
  const child = spawn(process.execPath, [mountEntry(), ...mountArgumentList(args)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // In the desktop app the executable is Electron's: as Node it runs the script, with no window.
    env:
      process.versions['electron'] === undefined
        ? process.env
        : { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => options.log?.('warn', `mount: ${text.trim()}`));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await firstLine(child, lines, ended);
  if (first !== undefined && 'mounted' in first) {
    options.log?.('info', `mounted at ${args.mountPoint}`);
    return { mountPoint: args.mountPoint, ended, stop: stopper(child, ended, args.mountPoint) };
  }
  child.kill('SIGKILL');
  await ended;
  const error = first?.error;
  if (error !== undefined && isMountErrorCode(error.code)) throw new MountError(error.code, error.message);
  throw new MountError('MOUNT_FAILED', error?.message ?? 'The mount process ended without mounting.');
}

type FirstLine = { mounted: true } | { error: { code: string; message: string } };

async function firstLine(
  child: ChildProcess,
  lines: AsyncIterable<string>,
  ended: Promise<number | null>,
): Promise<FirstLine | undefined> {
  const reading = (async (): Promise<FirstLine | undefined> => {
    for await (const line of lines) {
      try {
        return JSON.parse(line) as FirstLine;
      } catch {
        return { error: { code: 'MOUNT_FAILED', message: `The mount process said: ${line}` } };
      }
    }
    return undefined;
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<FirstLine>((resolve) => {
    timer = setTimeout(
      () => resolve({ error: { code: 'MOUNT_FAILED', message: 'The mount did not start in time.' } }),
      START_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([reading, ended.then(() => reading), timeout]);
  } finally {
    clearTimeout(timer);
    if (child.exitCode !== null) child.stdout?.destroy();
  }
}

function stopper(
  child: ChildProcess,
  ended: Promise<number | null>,
  mountPoint: string,
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await ended;
        clearTimeout(timer);
      }
      // Killed, or crashed before: its mount is left answering ENOTCONN.
      await cleanStaleMount(mountPoint).catch(() => false);
    })());
}
