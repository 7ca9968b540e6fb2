// `mch-sync ui --no-open` started for a window test: the process, and the address it says the window is at.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { waitFor } from './live-pair.ts';
import { MCH_SYNC_BIN } from './mch-sync.ts';

export interface UiHostProcess {
  process: ChildProcessWithoutNullStreams;
  /** The window's address, with its secret, as the host printed it. */
  address: string;
  /** All the host printed so far, both streams. */
  output: () => string;
}

/** Starts the headless host of `profile` and waits for the line that gives the window's address. */
export async function startUiHost(profile: string, env: NodeJS.ProcessEnv): Promise<UiHostProcess> {
  let output = '';
  const host = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile, 'ui', '--no-open'], { env });
  host.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  host.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = await waitFor('the address', () => /The window is at (\S+)/.exec(output)?.[1]);
  return { process: host, address, output: () => output };
}
