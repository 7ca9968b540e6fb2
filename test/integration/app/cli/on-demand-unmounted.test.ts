// An on-demand folder unmounted by another program, replaced while nothing ran, or changed from a second computer: what shows, and what syncs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { isOurMount } from '../../../../app/mount/stale-mount.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';
import { liveSync, mch, serviceLogs, serviceStatus, waitFor } from '../../../helpers/on-demand-cli.ts';

/** An on-demand pair whose device folder holds a.txt, and the client of its device folder. */
async function onDemandFolder(
  profile: SignedInProfile,
  device: Parameters<typeof clientFor>[0],
  name: string,
): Promise<{ folder: string; onDevice: () => Promise<string[]> }> {
  const folder = join(profile.home, name);
  mkdirSync(folder);
  expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
  const api = clientFor(device).device;
  const root = await api.createFolder({ parentId: 'root', name });
  await api.upload({ parentId: root.id, name: 'a.txt', content: Buffer.from('alpha') });
  const onDevice = async (): Promise<string[]> => {
    const listing = await api.listAll(root.id);
    return 'files' in listing ? listing.files.map((file) => file.name).sort() : [];
  };
  return { folder, onDevice };
}

/** `cat` of a file through the mount, in a child process: this process serves the device it may download from. */
async function catThrough(path: string): Promise<string> {
  const child = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return out;
}

/** The folder's names, read asynchronously: this process serves the device a read may wait for. */
async function listed(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name !== '.mch-sync').sort();
}

describe('an on-demand folder unmounted, replaced, or shared with a second computer', () => {
  it("shows the device's files again when another program unmounts it, and syncs what was saved there meanwhile", async ({
    device,
    profile,
  }) => {
    const { folder, onDevice } = await onDemandFolder(profile, device, 'Unmounted');
    const live = await liveSync(profile, folder);
    try {
      expect(await listed(folder)).toEqual(['a.txt']);
      expect(spawnSync('fusermount', ['-u', folder]).status).toBe(0);
      // An empty folder now: a program saves into it before the service shows the device's files again.
      writeFileSync(join(folder, 'saved meanwhile.txt'), 'mine');
      await waitFor('the folder shown again, with the file saved meanwhile', async () =>
        (await isOurMount(folder)) && (await listed(folder)).join() === 'a.txt,saved meanwhile.txt'
          ? true
          : undefined,
      );
      await waitFor('the file saved meanwhile on the device', async () =>
        (await onDevice()).includes('saved meanwhile.txt') ? true : undefined,
      );
      expect((await serviceStatus(profile, folder))?.mount?.mounted).toBe(true);
      expect(serviceLogs(profile)).toContain('was unmounted by another program');
    } finally {
      await live.stop();
    }
  }, 120_000);

  it('sends what was saved in the folder while nothing ran at the next pass, then shows it with the rest', async ({
    device,
    profile,
  }) => {
    const { folder, onDevice } = await onDemandFolder(profile, device, 'Replaced');
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    // Nothing runs: the folder is an empty folder, replaced by another that a program saved a file in.
    rmSync(folder, { recursive: true });
    mkdirSync(folder);
    writeFileSync(join(folder, 'new.txt'), 'saved while nothing ran');
    const once = await mch(profile, ['run', '--once', '--folder', folder]);
    expectExit(once, 0);
    expect(once.stderr).toContain(
      '"new.txt" was saved in the folder while it did not show the device\'s files',
    );
    expect(await onDevice()).toEqual(['a.txt', 'new.txt']);
    expect(await listed(folder)).toEqual([]);
    const live = await liveSync(profile, folder);
    try {
      expect(await listed(folder)).toEqual(['a.txt', 'new.txt']);
    } finally {
      await live.stop();
    }
  }, 120_000);

  it('shows an edit and a new file made on a second computer, opens them with their new content, and sends an edit back', async ({
    device,
    profile,
  }) => {
    const { folder } = await onDemandFolder(profile, device, 'Shared');
    const second = await signedInProfile(device, 'mch-sync-second-computer-');
    const there = join(second.home, 'Shared');
    try {
      mkdirSync(there);
      expectExit(await mch(second, ['run', '--once', '--folder', there]), 0);
      const live = await liveSync(profile, folder);
      try {
        // The second computer edits a.txt (a placeholder here) and adds b.txt.
        writeFileSync(join(there, 'a.txt'), 'alpha, edited on the second computer');
        writeFileSync(join(there, 'b.txt'), 'new there');
        expectExit(await mch(second, ['run', '--once', '--folder', there]), 0);
        // As a device's change notice would: the live service looks now, not at its next poll.
        await askService(controlSocketPath(profile.profile, folder), { op: 'sync-now' });
        await waitFor('the new file shown here', async () =>
          (await listed(folder)).join() === 'a.txt,b.txt' ? true : undefined,
        );
        await waitFor('the edit opened here', async () =>
          (await catThrough(join(folder, 'a.txt'))) === 'alpha, edited on the second computer'
            ? true
            : undefined,
        );
        expect(await catThrough(join(folder, 'b.txt'))).toBe('new there');
        // And back: an edit here (a program writing through the mount) reaches the second computer.
        spawnSync('sh', ['-c', 'printf "edited here" > "$1"', 'sh', join(folder, 'b.txt')]);
        await waitFor('the edit on the second computer', async () => {
          expectExit(await mch(second, ['run', '--once', '--folder', there]), 0);
          return readFileSync(join(there, 'b.txt'), 'utf8') === 'edited here' ? true : undefined;
        });
      } finally {
        await live.stop();
      }
    } finally {
      second.remove();
    }
  }, 120_000);
});
