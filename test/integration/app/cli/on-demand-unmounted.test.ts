// An on-demand folder unmounted by another program, or replaced while nothing ran: shown again, and what was saved in it meanwhile syncs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { isOurMount } from '../../../../app/mount/stale-mount.ts';
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

/** The folder's names, read asynchronously: this process serves the device a read may wait for. */
async function listed(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name !== '.mch-sync').sort();
}

describe('an on-demand folder unmounted or replaced', () => {
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
});
