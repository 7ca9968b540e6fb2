// `mch-sync run` live, as a user runs it: changes on both sides arrive, status/pause/resume talk to it, SIGTERM stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { MCH_SYNC_BIN, runMchSync } from '../../../helpers/mch-sync.ts';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function status(profile: SignedInProfile, folder: string): Promise<StatusJson> {
  const result = await runMchSync(['--profile', profile.profile, 'status', '--folder', folder, '--json'], {
    env: profile.env,
  });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as StatusJson;
}

describe('mch-sync run (live)', () => {
  let child: ChildProcess;
  let output = '';

  it('syncs both ways while running, answers status, pause and resume, and stops on SIGTERM', async ({
    device,
    profile,
  }) => {
    const folder = join(profile.home, 'Live');
    mkdirSync(folder);
    writeFileSync(join(folder, 'first.txt'), 'one');
    child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder], {
      env: profile.env,
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const api = clientFor(device).device;
    const remoteFolder = await waitFor('the remote folder', () => api.findByName('root', 'Live'));
    await waitFor('first.txt on the device', () => api.findByName(remoteFolder.id, 'first.txt'));

    // A local rename goes up as a rename.
    renameSync(join(folder, 'first.txt'), join(folder, 'renamed.txt'));
    const renamed = await waitFor('the rename on the device', () =>
      api.findByName(remoteFolder.id, 'renamed.txt'),
    );
    expect(await api.findByName(remoteFolder.id, 'first.txt')).toBeUndefined();

    const running = await status(profile, folder);
    expect(running.pid).toBe(child.pid);
    expect(running.activity.map((entry) => entry.path)).toContain('renamed.txt');

    // A remote change comes down after `resume` (a pass now), not only on the 30 s poll.
    const paused = await runMchSync(['--profile', profile.profile, 'pause', '--folder', folder], {
      env: profile.env,
    });
    expect(paused.code).toBe(0);
    expect((await status(profile, folder)).state).toBe('paused');
    await api.upload({ parentId: remoteFolder.id, name: 'from-device.txt', content: Buffer.from('hello') });
    const resumed = await runMchSync(['--profile', profile.profile, 'resume', '--folder', folder], {
      env: profile.env,
    });
    expect(resumed.code).toBe(0);
    await waitFor('the remote file here', () =>
      existsSync(join(folder, 'from-device.txt')) ? true : undefined,
    );
    expect(readFileSync(join(folder, 'from-device.txt'), 'utf8')).toBe('hello');
    expect(renamed.id).toBeDefined();
    // Nothing waits for an answer: a confirm is refused, not kept for whatever a later pass finds.
    const unasked = await runMchSync(
      ['--profile', profile.profile, 'resume', '--folder', folder, '--confirm-deletes'],
      {
        env: profile.env,
      },
    );
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain('is not waiting for an answer: nothing was changed');

    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output).toContain('Stopped.');
    // Stopped: status reads the index and says so.
    const after = await status(profile, folder);
    expect(after.pid).toBeNull();
    expect(after.state).toBe('idle');
  });
});
