// `mch-sync run` live with a pause of its own length and a metered network (a stand-in NetworkManager on a private bus).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import { pairFilePath } from '../../../../app/profile/folder-pairs.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { MCH_SYNC_BIN, runMchSync } from '../../../helpers/mch-sync.ts';
import {
  missingBus,
  startMockNetworkManager,
  startPrivateBus,
  type MockNetworkManager,
} from '../../../helpers/private-bus.ts';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Run {
  env: NodeJS.ProcessEnv;
  cli(args: string[]): ReturnType<typeof runMchSync>;
  status(folder: string): Promise<StatusJson>;
  /** `mch-sync run --folder` as a child, stopped after the test. */
  live(folder: string): ChildProcess;
  /** What the live runs printed so far. */
  output(): string;
}

function runner(profile: SignedInProfile, busAddress: string): Run {
  const env = { ...profile.env, MCH_NM_BUS_ADDRESS: busAddress };
  const cli = (args: string[]): ReturnType<typeof runMchSync> =>
    runMchSync(['--profile', profile.profile, ...args], { env });
  let output = '';
  return {
    env,
    cli,
    output: () => output,
    async status(folder) {
      const result = await cli(['status', '--folder', folder, '--json']);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as StatusJson;
    },
    live(folder) {
      const child = spawn(
        process.execPath,
        [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder],
        {
          env,
        },
      );
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      cleanups.push(async () => {
        if (child.exitCode !== null) return;
        const exit = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exit;
        // Kept for a failing test's reader: what the service said.
        if (process.env['MCH_TEST_VERBOSE'] !== undefined) console.log(output);
      });
      return child;
    },
  };
}

async function startBus(): Promise<{ address: string; nm: MockNetworkManager }> {
  const bus = await startPrivateBus();
  cleanups.push(() => bus.stop());
  const nm = await startMockNetworkManager(bus.address);
  cleanups.push(() => nm.stop());
  return { address: bus.address, nm };
}

describe.skipIf(missingBus() !== undefined)('pause on a metered network', () => {
  it(
    'pauses every pair when Metered is 1, keeps one that syncs on metered networks going, and resumes at 4',
    { timeout: 180_000 },
    async ({ device, profile }) => {
      const { address, nm } = await startBus();
      const run = runner(profile, address);
      const api = clientFor(device).device;
      const careful = join(profile.home, 'Careful');
      const roaming = join(profile.home, 'Roaming');
      mkdirSync(careful);
      mkdirSync(roaming);
      writeFileSync(join(careful, 'a.txt'), 'a');
      run.live(careful);
      run.live(roaming);
      const carefulRemote = await waitFor('Careful on the device', () => api.findByName('root', 'Careful'));
      const roamingRemote = await waitFor('Roaming on the device', () => api.findByName('root', 'Roaming'));
      await waitFor('a.txt on the device', () => api.findByName(carefulRemote.id, 'a.txt'));
      // Told to the running service, and kept in the pair's record for its next run.
      const override = await run.cli(['metered', '--folder', roaming, 'sync']);
      expect(override.code).toBe(0);
      expect(override.stdout).toContain('syncs on metered networks too');
      expect(JSON.parse(readFileSync(pairFilePath(profile.profile, roaming), 'utf8'))).toMatchObject({
        onMetered: 'sync',
      });

      await nm.set('Metered', 1);
      const paused = await waitFor('Careful paused', async () => {
        const status = await run.status(careful);
        return status.state === 'paused' ? status : undefined;
      });
      expect(paused.pause).toEqual({ by: 'metered', untilMs: null });
      expect(paused.detail).toContain('Paused: metered network');
      // `resume` ends a user's pause, not the network's.
      expect((await run.cli(['resume', '--folder', careful])).code).toBe(0);
      expect((await run.status(careful)).state).toBe('paused');

      // The pair that syncs on metered networks does: a device file comes down at its next pass.
      expect((await run.status(roaming)).pause).toBeUndefined();
      await api.upload({ parentId: roamingRemote.id, name: 'roamed.txt', content: Buffer.from('r') });
      expect((await run.cli(['resume', '--folder', roaming])).code).toBe(0);
      await waitFor('roamed.txt here', () => (existsSync(join(roaming, 'roamed.txt')) ? true : undefined));

      // Guess-no is not metered: Careful syncs again and catches up with the device.
      await api.upload({ parentId: carefulRemote.id, name: 'later.txt', content: Buffer.from('l') });
      await nm.set('Metered', 4);
      await waitFor('later.txt here', () => (existsSync(join(careful, 'later.txt')) ? true : undefined));
      expect((await run.status(careful)).pause).toBeUndefined();

      // Guess-yes is metered again; switching the pair to `sync` while running resumes it at once.
      await nm.set('Metered', 3);
      await waitFor('Careful paused again', async () =>
        (await run.status(careful)).state === 'paused' ? true : undefined,
      );
      expect((await run.cli(['metered', '--folder', careful, 'sync'])).code).toBe(0);
      await waitFor('Careful syncing on the metered network', async () =>
        (await run.status(careful)).state !== 'paused' ? true : undefined,
      );
      const shown = await run.cli(['metered', '--folder', careful]);
      expect(shown.stdout).toContain('syncs on metered networks too');
    },
  );
});

describe.skipIf(missingBus() !== undefined)('pause for a while', () => {
  it(
    'pauses until the time and resumes by itself; a bad duration or choice changes nothing',
    { timeout: 180_000 },
    async ({ device, profile }) => {
      const { address } = await startBus();
      const run = runner(profile, address);
      const api = clientFor(device).device;
      const folder = join(profile.home, 'Timed');
      mkdirSync(folder);
      run.live(folder);
      const remote = await waitFor('Timed on the device', () => api.findByName('root', 'Timed'));
      await waitFor('the first pass', async () =>
        (await run.status(folder)).lastSyncAtMs !== null ? true : undefined,
      );

      const bad = await run.cli(['pause', '--folder', folder, '--for', 'soon']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--for "soon" is not a duration');
      expect((await run.status(folder)).state).not.toBe('paused');
      const tooLong = await run.cli(['pause', '--folder', folder, '--for', '31d']);
      expect(tooLong.code).toBe(2);
      const badChoice = await run.cli(['metered', '--folder', folder, 'maybe']);
      expect(badChoice.code).toBe(2);
      expect(JSON.parse(readFileSync(pairFilePath(profile.profile, folder), 'utf8'))).not.toHaveProperty(
        'onMetered',
      );
      const notSynced = await run.cli(['metered', '--folder', join(profile.home, 'Nowhere'), 'sync']);
      expect(notSynced.code).toBe(1);
      expect(notSynced.stderr).toContain('is not a synced folder of this profile: nothing changed');

      // A long pause shows its end in the status and ends early with `resume`.
      const before = Date.now();
      const long = await run.cli(['pause', '--folder', folder, '--for', '1h']);
      expect(long.code).toBe(0);
      expect(long.stdout).toMatch(/until (tomorrow )?\d\d:\d\d/);
      const status = await run.status(folder);
      expect(status.state).toBe('paused');
      expect(status.detail).toMatch(/^Paused until (tomorrow )?\d\d:\d\d/);
      expect(status.pause?.by).toBe('user');
      expect(status.pause?.untilMs).toBeGreaterThanOrEqual(before + 3_600_000);
      expect((await run.cli(['status', '--folder', folder])).stdout).toMatch(
        /Paused until (tomorrow )?\d\d:\d\d/,
      );
      expect((await run.cli(['resume', '--folder', folder])).code).toBe(0);
      expect((await run.status(folder)).pause).toBeUndefined();

      // A short one ends by itself: nobody resumes it, and the pass after it brings the device's file.
      await api.upload({ parentId: remote.id, name: 'after-pause.txt', content: Buffer.from('p') });
      const printedBefore = run.output().length;
      const short = await run.cli(['pause', '--folder', folder, '--for', '2s']);
      expect(short.code).toBe(0);
      await waitFor('after-pause.txt here', () =>
        existsSync(join(folder, 'after-pause.txt')) ? true : undefined,
      );
      const after = await run.status(folder);
      expect(after.pause).toBeUndefined();
      expect(after.state).not.toBe('paused');
      await waitFor('a pass after the pause', () =>
        /Paused until \d\d:\d\d[^\n]*\n(.*\n)*.*Looking for changes/.test(run.output().slice(printedBefore))
          ? true
          : undefined,
      );
    },
  );
});
