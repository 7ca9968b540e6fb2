// Versions of an on-demand folder: kept in its cache folder, named and restored by their paths in the mounted folder, with live sync and its mount running.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { liveSync, mch, serviceLogs, waitFor } from '../../../helpers/on-demand-cli.ts';
import { mchJson, type VersionJson } from '../../../helpers/versions-cli.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';

describe('versions of an on-demand folder', () => {
  it("keeps a pinned file the device's newer version replaced in the cache folder; versions and restore take its path in the mounted folder", async ({
    device,
    profile,
  }) => {
    const api = clientFor(device).device;
    const folder = join(profile.home, 'Cloud');
    mkdirSync(folder);
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
    const cache = readPairOnDemand(profile.profile, folder)?.cache ?? '';
    const root = await api.createFolder({ parentId: 'root', name: 'Cloud' });
    const note = await api.create({ parentId: root.id, name: 'note.txt', content: Buffer.from('note one') });

    const live = await liveSync(profile, folder);
    try {
      expectExit(await mch(profile, ['pin', join(folder, 'note.txt')]), 0);
      await waitFor('note.txt whole', () => (isPlaceholder(join(cache, 'note.txt')) ? undefined : true));
      await api.putContent(note.id, Buffer.from('note two, longer'));
      const asked = await askService(controlSocketPath(profile.profile, folder), { op: 'sync-now' });
      expect(asked?.ok).toBe(true);
      await waitFor('the new content through the mount', async () =>
        (await readFile(join(folder, 'note.txt'), 'utf8')) === 'note two, longer' ? true : undefined,
      );

      const listed = await mchJson<{ path: string; versions: VersionJson[] }>(profile, [
        'versions',
        join(folder, 'note.txt'),
      ]);
      expect(listed).toEqual({
        path: join(folder, 'note.txt'),
        folder,
        versions: [expect.objectContaining({ number: 1, size: 8, reason: 'replaced' }) as VersionJson],
      });

      const restored = await mch(profile, ['restore', join(folder, 'note.txt')]);
      expectExit(restored, 0);
      expect(restored.stdout).toContain(`Restored version 1 of ${join(folder, 'note.txt')} (8 B);`);
      expect(restored.stdout).toContain(`Live sync of ${folder} is carrying it to the device now.`);
      expect(await readFile(join(folder, 'note.txt'), 'utf8')).toBe('note one');
      await waitFor('note one on the device', async () =>
        (await (await device.fetchAs('alice', `/sdk/v2/files/${note.id}/content`)).text()) === 'note one'
          ? true
          : undefined,
      );
      // The versions are in the cache folder, never in the mounted one.
      const aside = join(profile.home, 'aside.txt');
      expectExit(await mch(profile, ['restore', join(folder, 'note.txt'), '--to', aside]), 0);
      expect(await readFile(aside, 'utf8')).toBe('note two, longer');
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${serviceLogs(profile)}`, { cause: error });
    } finally {
      await live.stop();
    }
  }, 300_000);
});
