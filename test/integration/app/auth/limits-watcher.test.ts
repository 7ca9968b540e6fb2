// The process's limits follow the profile's settings.json while it runs: changes applied, a broken file ignored with a warning, nothing after close.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { LimitsWatcher } from '../../../../app/auth/limits-watcher.ts';
import type { BandwidthLimits } from '../../../../app/api/http/bandwidth.ts';
import { SettingsFile } from '../../../../app/profile/settings.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function started(profileDir: string): Promise<{
  watcher: LimitsWatcher;
  applied: BandwidthLimits[];
  warnings: string[];
}> {
  const applied: BandwidthLimits[] = [];
  const warnings: string[] = [];
  const watcher = await LimitsWatcher.start({
    profileDir,
    warn: (message) => warnings.push(message),
    onApplied: (limits) => applied.push(limits),
  });
  cleanups.push(() => watcher.close());
  return { watcher, applied, warnings };
}

describe('LimitsWatcher', () => {
  it('starts with the limits of settings.json and follows each change written while it runs', async () => {
    const profileDir = mkdtempSync(join(tmpdir(), 'mch-limits-watch-'));
    cleanups.push(() => rmSync(profileDir, { recursive: true, force: true }));
    const file = new SettingsFile(profileDir);
    await file.update((current) => ({ ...current, limits: { upBytesPerSec: 2_000_000 } }));
    const { watcher, applied, warnings } = await started(profileDir);
    expect(watcher.bandwidth.up.rate).toBe(2_000_000);
    expect(watcher.bandwidth.down.rate).toBeUndefined();
    // The limits read at start are not a change.
    expect(applied).toEqual([]);

    await file.update((current) => ({ ...current, limits: { downBytesPerSec: 500_000 } }));
    await until('the new limits', () => applied.length === 1);
    expect(applied[0]).toEqual({ downBytesPerSec: 500_000 });
    expect(watcher.bandwidth.up.rate).toBeUndefined();
    expect(watcher.bandwidth.down.rate).toBe(500_000);

    // A file that cannot be read keeps the limits in force, and says why.
    writeFileSync(join(profileDir, 'settings.json'), '{ not json');
    await until('a warning', () => warnings.length === 1);
    expect(warnings[0]).toMatch(/^the limits in force stay: .*settings\.json is not valid/);
    expect(watcher.bandwidth.down.rate).toBe(500_000);

    // Other keys changing (a sign-in) do not count as a change of the limits.
    writeFileSync(
      join(profileDir, 'settings.json'),
      JSON.stringify({
        version: 1,
        configUrl: 'http://127.0.0.1:1/config/v1/config',
        limits: { downBytesPerSec: 500_000 },
      }),
    );
    await file.update((current) => ({ ...current, limits: {} }));
    await until('the limits removed', () => applied.length === 2);
    expect(applied[1]).toEqual({});
    expect(watcher.bandwidth.down.rate).toBeUndefined();

    watcher.close();
    await file.update((current) => ({ ...current, limits: { upBytesPerSec: 1000 } }));
    await sleep(500);
    expect(applied).toHaveLength(2);
    expect(watcher.bandwidth.up.rate).toBeUndefined();
  });

  it('in a profile folder that does not exist yet: no limits, no warning', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'mch-limits-watch-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const { watcher, warnings } = await started(join(parent, 'profile'));
    expect(watcher.limits).toEqual({});
    expect(watcher.bandwidth.up.rate).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});
