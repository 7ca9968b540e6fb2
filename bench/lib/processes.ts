// Starts the servers a benchmark measures as child processes, so the load generator has its own core.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  child: ChildProcess;
  /** The first line matching the pattern's capture group, e.g. the URL the server printed. */
  value: string;
  stop(): Promise<void>;
}

/**
 * Spawns `node args...` (with `env`, this process's by default) and waits for a line matching `ready`
 * (its first capture group is returned).
 */
export async function startNodeProcess(
  args: string[],
  ready: RegExp,
  timeoutMs = 20_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout });
  const value = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in time`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited early with ${String(code)}`)));
    lines.on('line', (line) => {
      const match = ready.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    child,
    value,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
