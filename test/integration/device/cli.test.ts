// The mch-device command as a user runs it: starts, prints its config url, serves it, stops on a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs, runDevice } from '../../../device/cli.ts';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'mch-device.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  configUrl: string;
  exited: Promise<number | null>;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-device-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const configUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /^config url: (\S+)$/m.exec(output);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`mch-device exited with ${String(code)}: ${output}`));
    });
  });
  return { child, output: () => output, configUrl, exited };
}

describe('mch-device', () => {
  it('creates the demo user when none exists, serves the configuration and stops cleanly on SIGTERM', async () => {
    const device = await startCli(['--port', '0', '--data', tempDir()]);
    expect(device.output()).toContain('created user demo (password demo)');
    const answer = await fetch(device.configUrl);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { componentMap: Record<string, Record<string, string>> } };
    const identity = body.data.componentMap['cloud.service.urls']?.['service.identity.url'];
    expect(identity).toBe(device.configUrl.replace('/config/v1/config', '/identity'));
    device.child.kill('SIGTERM');
    expect(await device.exited).toBe(0);
    expect(device.output()).toContain('mch-device: stopped');
  });

  it('creates the named users instead of demo and lets them sign in', async () => {
    const device = await startCli(['--port', '0', '--data', tempDir(), '--user', 'carol:pw:with:colons']);
    expect(device.output()).toContain('created user carol');
    expect(device.output()).not.toContain('demo');
    const identity = device.configUrl.replace('/config/v1/config', '/identity');
    const token = await fetch(`${identity}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: 'mch-desktop',
        username: 'carol',
        password: 'pw:with:colons',
      }),
    });
    expect(token.status).toBe(200);
    device.child.kill('SIGINT');
    expect(await device.exited).toBe(0);
  });

  it('advertises the public URL in every address it hands out', async () => {
    const device = await startCli([
      '--port',
      '0',
      '--data',
      tempDir(),
      '--public-url',
      'https://cloud.example.org/x',
    ]);
    expect(device.configUrl).toBe('https://cloud.example.org/x/config/v1/config');
    const port = /listening on: http:\/\/127\.0\.0\.1:(\d+)/.exec(device.output())?.[1];
    expect(port).toBeDefined();
    const answer = await fetch(`http://127.0.0.1:${port}/config/v1/config`);
    const text = await answer.text();
    expect(text).toContain('"https://cloud.example.org/x/identity"');
    expect(text).not.toContain('127.0.0.1');
    device.child.kill('SIGTERM');
    expect(await device.exited).toBe(0);
  });

  it('exits with 2 and the usage on a bad option', async () => {
    const child = spawn(process.execPath, [bin, '--port', 'many'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be a whole number');
    expect(stderr).toContain('Usage: mch-device');
  });

  it('documents --upload-ttl in --help and gives it to the device', async () => {
    const child = spawn(process.execPath, [bin, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(0);
    expect(stdout).toMatch(/--upload-ttl SECONDS .*\n.*\(default 86400, a day\)/);
    const options = parseCliArgs(['--port', '0', '--data', tempDir(), '--upload-ttl', '90']);
    const device = await runDevice(options, () => undefined);
    try {
      expect(device.context.uploadSweeper.ttlSeconds).toBe(90);
    } finally {
      await device.close();
    }
  });

  it('exits with 1 and says what to do when the port is taken', async () => {
    const first = await startCli(['--port', '0', '--data', tempDir()]);
    const port = /:(\d+)\/config/.exec(first.configUrl)?.[1] ?? '';
    const second = spawn(process.execPath, [bin, '--port', port, '--data', tempDir()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is in use`);
    first.child.kill('SIGTERM');
    await first.exited;
  });
});
