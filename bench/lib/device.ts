// Starts the local device as a child process for a benchmark and signs in its `bench` user.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNodeProcess } from './processes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchDevice {
  base: string;
  token: string;
  stop(): Promise<void>;
}

/** An access token of the `bench` user of the device at `base` (the password grant). */
export async function benchToken(base: string): Promise<string> {
  const answer = await fetch(`${base}/identity/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: 'mch-desktop',
      username: 'bench',
      password: 'bench',
    }),
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  return token;
}

export async function startBenchDevice(dataDir: string, startTimeoutMs = 20_000): Promise<BenchDevice> {
  const device = await startNodeProcess(
    [join(root, 'bin/mch-device.js'), '--port', '0', '--data', dataDir, '--user', 'bench:bench'],
    /^config url: (\S+)\/config\/v1\/config$/,
    startTimeoutMs,
  );
  try {
    const base = device.value;
    return { base, token: await benchToken(base), stop: () => device.stop() };
  } catch (error) {
    await device.stop();
    throw error;
  }
}
