// `mch-sync limits` as a user runs it: rates measured where the device receives and sends the bytes, a live change, pairs sharing one limit, bad input.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor } from '../../../helpers/api-client.ts';
import { tappedDevice, type ByteTap } from '../../../helpers/byte-tap.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { cliEnv, MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';

const MB = 1_000_000;
/** What the tap may count before a transfer's body starts (sign-in, listings, headers): it is left out. */
const LEAD_IN = 256 * 1024;
/** The burst of a 1 MB/s bucket (a quarter second of it): the most that may pass ahead of the rate. */
const BURST_AT_1MB = 250_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(): Promise<{ device: TestDevice; tap: ByteTap; profile: SignedInProfile }> {
  const { device, tap, stop } = await tappedDevice();
  cleanups.push(stop);
  const profile = await signedInProfile(device, 'mch-limits-');
  cleanups.push(() => profile.remove());
  return { device, tap, profile };
}

function mch(profile: SignedInProfile, args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs });
}

async function setLimits(profile: SignedInProfile, ...args: string[]): Promise<void> {
  const result = await mch(profile, ['limits', ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/**
 * The shortest time `bytes` can take through a bucket of `rate` after the first LEAD_IN bytes: after
 * any moment at most one burst plus rate × time goes, so what a limit guarantees, whatever the load.
 */
function floorSeconds(bytes: number, rate: number, burst: number): number {
  return (bytes - LEAD_IN - burst) / rate;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function startLive(profile: SignedInProfile, args: string[]): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run', ...args], {
    env: profile.env,
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  return { child, output: () => output };
}

describe('mch-sync limits', () => {
  it('an upload at --up 1MB/s reaches the device no faster than the limit allows', async () => {
    const { device, tap, profile } = await setUp();
    await setLimits(profile, '--up', '1MB/s');
    const folder = join(profile.home, 'Up');
    mkdirSync(folder);
    const size = 6 * MB;
    writeFileSync(join(folder, 'big.bin'), randomBytes(size));
    tap.reset();
    const run = await mch(profile, ['run', '--folder', folder, '--remote-folder', '/Up', '--once']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const api = clientFor(device).device;
    const remote = await api.findByName('root', 'Up');
    expect((await api.findByName(remote!.id, 'big.bin'))?.size).toBe(size);
    expect(tap.total('up')).toBeGreaterThan(size);
    expect(tap.secondsBetween('up', LEAD_IN, size)).toBeGreaterThanOrEqual(
      floorSeconds(size, MB, BURST_AT_1MB),
    );
  });

  it('a download at --down 1MB/s is read from the device no faster than the limit allows', async () => {
    const { device, tap, profile } = await setUp();
    const api = clientFor(device).device;
    const size = 6 * MB;
    const parent = await api.createFolder({ parentId: 'root', name: 'Down' });
    await api.upload({ parentId: parent.id, name: 'big.bin', content: randomBytes(size) });
    await setLimits(profile, '--down', '1MB/s');
    const folder = join(profile.home, 'Down');
    mkdirSync(folder);
    tap.reset();
    const run = await mch(profile, ['run', '--folder', folder, '--remote-folder', '/Down', '--once']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statSync(join(folder, 'big.bin')).size).toBe(size);
    // The last byte the device sends is early by the buffers between it and the client (sockets,
    // streams: megabytes on loopback); the client closes its connection only once it read them all.
    expect(tap.secondsUntilClientClosed('down', LEAD_IN)).toBeGreaterThanOrEqual(
      floorSeconds(size, MB, BURST_AT_1MB),
    );
  });

  it('a live run applies `limits --up` set while it runs, without a restart', async () => {
    const { device, tap, profile } = await setUp();
    const folder = join(profile.home, 'Live');
    mkdirSync(folder);
    writeFileSync(join(folder, 'first.txt'), 'one');
    const live = startLive(profile, ['--folder', folder, '--remote-folder', '/Live']);
    const api = clientFor(device).device;
    const remote = await waitFor('the remote folder', () => api.findByName('root', 'Live'));
    await waitFor('first.txt on the device', () => api.findByName(remote.id, 'first.txt'));

    await setLimits(profile, '--up', '1MB/s');
    await waitFor('the running client to apply the limit', () =>
      live.output().includes('limits changed: upload at most 1.0 MB/s, download no limit') ? true : undefined,
    );
    const size = 4 * MB;
    tap.reset();
    writeFileSync(join(folder, 'big.bin'), randomBytes(size));
    await waitFor('big.bin on the device', async () => {
      const found = await api.findByName(remote.id, 'big.bin');
      return found?.size === size ? found : undefined;
    });
    expect(tap.secondsBetween('up', LEAD_IN, size)).toBeGreaterThanOrEqual(
      floorSeconds(size, MB, BURST_AT_1MB),
    );
    expect(live.child.exitCode).toBeNull();
  });

  it('the pairs of one `mch-sync run` share one limit: together no faster than it', async () => {
    const { device, tap, profile } = await setUp();
    const size = 3 * MB;
    const folders = ['One', 'Two'].map((name) => {
      const folder = join(profile.home, name);
      mkdirSync(folder);
      writeFileSync(join(folder, `${name}.bin`), randomBytes(size));
      return folder;
    });
    for (const folder of folders) {
      const added = await mch(profile, ['folders', 'add', '--folder', folder]);
      expect(added.code, added.stderr).toBe(0);
    }
    await setLimits(profile, '--up', '1MB/s');
    tap.reset();
    startLive(profile, []);
    const api = clientFor(device).device;
    for (const name of ['One', 'Two']) {
      await waitFor(`${name}.bin on the device`, async () => {
        const parent = await api.findByName('root', name);
        const found = parent && (await api.findByName(parent.id, `${name}.bin`));
        return found?.size === size ? found : undefined;
      });
    }
    // Two buckets would have let 2 MB/s through; one lets the 6 MB of both through at 1 MB/s.
    expect(tap.secondsBetween('up', LEAD_IN, 2 * size)).toBeGreaterThanOrEqual(
      floorSeconds(2 * size, MB, BURST_AT_1MB),
    );
  });

  it('refuses a speed it cannot read (exit 2) and changes nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mch-limits-input-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const profile = join(home, 'profile');
    const env = cliEnv();
    const set = await runMchSync(['--profile', profile, 'limits', '--up', '2MB/s'], { env });
    expect(set.code).toBe(0);
    const before = readFileSync(join(profile, 'settings.json'), 'utf8');
    for (const args of [
      ['--up', 'fast'],
      ['--down', '1MB/s', '--up', 'fast'],
      ['--up', '500'],
    ]) {
      const refused = await runMchSync(['--profile', profile, 'limits', ...args], { env });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        /^mch-sync: --(up|down): ".*" (is not a speed|has no unit|may be bits|is below)/,
      );
      expect(readFileSync(join(profile, 'settings.json'), 'utf8')).toBe(before);
    }
    const shown = await runMchSync(['--profile', profile, 'limits', '--json'], { env });
    expect(JSON.parse(shown.stdout)).toEqual({ upBytesPerSec: 2 * MB, downBytesPerSec: null });
    expect(existsSync(join(profile, 'settings.json'))).toBe(true);
  });
});
