// The device's free space for people (issue #33), as a user runs mch-sync against a device with a capacity:
// `run --once` holds the file that cannot fit and says so, `status` of a running service shows the space.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { test } from '../../../helpers/fixtures.ts';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import type { PassReport } from '../../../../app/sync/pass-report.ts';
import { formatBytes } from '../../../../common/units.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { folderNumbering, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { MCH_SYNC_BIN, runMchSync } from '../../../helpers/mch-sync.ts';

const CAPACITY = 4_000_000;
test.override({ deviceOptions: { capacityBytes: CAPACITY } });
const it = test;

const localFolder = folderNumbering();

async function freeBytes(device: TestDevice): Promise<number> {
  const response = await device.fetchAs('alice', '/sdk/v2/device/storage');
  return ((await response.json()) as { freeBytes: number }).freeBytes;
}

function mchSync(profile: SignedInProfile, args: readonly string[]): ReturnType<typeof runMchSync> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('mch-sync and a device that is full', () => {
  it('run --once holds the file that cannot fit, naming it and the space missing, syncs the rest, and exits 1', async ({
    device,
    profile,
  }) => {
    device.setCapacity(CAPACITY);
    const folder = localFolder(profile.home, 'Full', { 'notes.txt': 'n'.repeat(5_000) });
    writeFileSync(join(folder, 'video.mov'), Buffer.alloc(6_000_000, 1));
    const free = await freeBytes(device);
    const text = await mchSync(profile, ['run', '--folder', folder, '--once']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `video.mov: video.mov (6.0 MB) does not fit on the device: ${formatBytes(free)} free,`,
    );
    expect(text.stdout).toContain('Free space on the device; it is sent when there is room. [DEVICE_FULL]');
    // The next run says the same in --json, and the rest is synced.
    const json = await mchSync(profile, ['run', '--folder', folder, '--once', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as PassReport;
    expect(report.issues.map((issue) => [issue.path, issue.code])).toEqual([['video.mov', 'DEVICE_FULL']]);
    expect(report.counts.uploaded).toBe(0);
    expect(await freeBytes(device)).toBe(free - 5_000);
  });

  it('status of a running service shows the device space in words and in --json', async ({
    device,
    profile,
  }) => {
    device.setCapacity(CAPACITY);
    const folder = localFolder(profile.home, 'Shown', { 'a.txt': 'a'.repeat(1_000) });
    let output = '';
    const child: ChildProcess = spawn(
      process.execPath,
      [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder],
      { env: profile.env },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const status = await waitFor(
        `a status with the device's space (output so far: ${output})`,
        async () => {
          const result = await mchSync(profile, ['status', '--folder', folder, '--json']);
          // Until the service has paired the folder, status has nothing to say of it.
          if (result.code !== 0) return undefined;
          const parsed = JSON.parse(result.stdout) as StatusJson;
          return parsed.running && parsed.device !== undefined && parsed.lastSyncAtMs !== null
            ? parsed
            : undefined;
        },
      );
      const free = await freeBytes(device);
      // The first pass read the space before it sent a.txt: its figure is at least what is free now.
      expect(status.device?.totalBytes).toBe(CAPACITY);
      expect(status.device?.freeBytes).toBeGreaterThanOrEqual(free);
      expect(status.device?.checkedAtMs).toBeGreaterThan(0);
      const words = await mchSync(profile, ['status', '--folder', folder]);
      expect(words.code).toBe(0);
      expect(words.stdout).toMatch(
        new RegExp(
          `^device: +${formatBytes(status.device?.freeBytes ?? -1)} free of 4\\.0 MB \\(checked .+\\)$`,
          'm',
        ),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
