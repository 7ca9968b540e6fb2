// The mch-device command with its home and relay addresses (issue #33): printed, served, and switched off and
// on by a line on its standard input.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'mch-device.js');

async function waitFor(output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    const match = pattern.exec(output());
    if (match) return match;
    await sleep(50);
  }
  throw new Error(`mch-device never printed ${pattern}:\n${output()}`);
}

async function status(url: string): Promise<number | string> {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? 'no errno';
  }
}

it('prints both addresses, serves them, and switches the relay off and on from standard input', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mch-device-cli-'));
  const child = spawn(
    process.execPath,
    [
      bin,
      '--port',
      '0',
      '--data',
      dataDir,
      '--home',
      '127.0.0.2',
      '--relay',
      '127.0.0.3',
      '--relay-latency',
      '5ms',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const home = (await waitFor(() => output, /^home address: (http:\/\/127\.0\.0\.2:\d+)$/m))[1];
    const relay = (
      await waitFor(
        () => output,
        /^relay address: (http:\/\/127\.0\.0\.3:\d+\/proxy\/\S+) \(latency 5 ms, no cap\)$/m,
      )
    )[1];
    await waitFor(() => output, /Press Ctrl\+C/);
    // Unauthenticated: a 401 from the device API is an answer.
    expect(await status(`${home}/sdk/v2/files/root`)).toBe(401);
    expect(await status(`${relay}/sdk/v2/files/root`)).toBe(401);
    child.stdin.write('relay down\n');
    await waitFor(() => output, /relay address down/);
    expect(await status(`${relay}/sdk/v2/files/root`)).toBe('ECONNREFUSED');
    expect(await status(`${home}/sdk/v2/files/root`)).toBe(401);
    child.stdin.write('relay up\n');
    await waitFor(() => output, /relay address up/);
    expect(await status(`${relay}/sdk/v2/files/root`)).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('stops at a bad relay rate with a message that names the option', async () => {
  const child = spawn(process.execPath, [bin, '--relay', '127.0.0.3', '--relay-rate', 'fast'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
  expect(code).toBe(2);
  expect(output).toMatch(/^mch-device: --relay-rate takes a rate such as 5MB\/s/);
});
