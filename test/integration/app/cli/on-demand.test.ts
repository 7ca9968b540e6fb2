// Files on demand as a user meets them: `folders add --on-demand`, live sync mounting the folder, `ls`, `cat`, `cp`, `mv`, `rm`, an editor's save.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { isOurMount } from '../../../../app/mount/stale-mount.ts';
import { liveSync, mch, serviceLogs, serviceStatus, shown, waitFor } from '../../../helpers/on-demand-cli.ts';

const run = promisify(execFile);

describe('an on-demand folder', () => {
  it('shows every device file, downloads one when it is read, and syncs what is done in it', async ({
    device,
    profile,
  }) => {
    const api = clientFor(device).device;
    const folder = join(profile.home, 'Device');
    mkdirSync(folder);
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
    const onDemand = readPairOnDemand(profile.profile, folder);
    expect(onDemand?.cache).toBeDefined();
    const cache = onDemand?.cache ?? '';
    // Files put on the device by another computer.
    const root = await api.createFolder({ parentId: 'root', name: 'Device' });
    const docs = await api.createFolder({ parentId: root.id, name: 'Docs' });
    await api.create({ parentId: docs.id, name: 'report.txt', content: Buffer.from('the quarterly report') });
    await api.create({ parentId: docs.id, name: 'letter.txt', content: Buffer.from('dear device') });
    await api.upload({ parentId: root.id, name: 'photo.jpg', content: Buffer.alloc(300_000, 7) });

    const live = await liveSync(profile, folder);
    try {
      await waitFor('the placeholders', () => (shown(folder).length === 2 ? true : undefined));
      // Listing shows real sizes and downloads nothing.
      const listing = (await run('ls', ['-lR', folder])).stdout;
      expect(listing).toContain('report.txt');
      expect(statSync(join(folder, 'photo.jpg')).size).toBe(300_000);
      expect(
        (await run('find', [folder, '-not', '-path', '*/.mch-sync*'])).stdout.split('\n').filter(Boolean),
      ).toHaveLength(5);
      expect(isPlaceholder(join(cache, 'photo.jpg'))).toBe(true);
      expect(isPlaceholder(join(cache, 'Docs/report.txt'))).toBe(true);

      // Reading downloads it, once, and it stays.
      expect((await run('cat', [join(folder, 'Docs/report.txt')])).stdout).toBe('the quarterly report');
      // The status says the folder is mounted, and the download is in the activity.
      await waitFor('the download in the activity', async () => {
        const now = await serviceStatus(profile, folder);
        if (now === undefined) return undefined;
        const seen = now.activity.some(
          (entry) => entry.action === 'downloaded' && entry.path === 'Docs/report.txt',
        );
        return seen && now.mount?.mounted === true && now.mount.opening.length === 0 ? true : undefined;
      });
      // The mark goes right after the last byte (the reader may finish first).
      await waitFor('the mark gone', () =>
        isPlaceholder(join(cache, 'Docs/report.txt')) ? undefined : true,
      );
      // Never a synchronous read here: this process serves the device the download comes from.
      expect((await readFile(join(folder, 'photo.jpg'))).equals(Buffer.alloc(300_000, 7))).toBe(true);

      // What is done in the folder syncs: a new file, a rename of a placeholder, a copy, an editor's
      // save (a temporary file renamed over a placeholder), a delete.
      await writeFile(join(folder, 'Docs/new.txt'), 'written in the on-demand folder');
      await run('mv', [join(folder, 'photo.jpg'), join(folder, 'Docs/photo.jpg')]);
      await run('cp', [join(folder, 'Docs/photo.jpg'), join(folder, 'copy.jpg')]);
      await writeFile(join(folder, 'Docs/.letter.txt.swp'), 'dear device, edited in an editor');
      await run('mv', [join(folder, 'Docs/.letter.txt.swp'), join(folder, 'Docs/letter.txt')]);
      await run('rm', [join(folder, 'Docs/report.txt')]);
      await waitFor('the copy, the save and the delete on the device', async () => {
        const copy = await api.findByName(root.id, 'copy.jpg');
        const letter = await api.findByName(docs.id, 'letter.txt');
        const report = await api.findByName(docs.id, 'report.txt');
        const saved = letter?.size === 'dear device, edited in an editor'.length;
        return copy?.size === 300_000 && saved && report === undefined ? true : undefined;
      });
      // The copy went up with the photo's bytes, not a placeholder's zeros.
      const copied = await api.findByName(root.id, 'copy.jpg');
      const target = join(profile.home, 'copy-from-device.jpg');
      await api.download(copied?.id ?? '', target);
      expect(readFileSync(target).equals(Buffer.alloc(300_000, 7))).toBe(true);
      await waitFor('the new file on the device', async () => {
        const found = await api.findByName(docs.id, 'new.txt');
        return found === undefined ? undefined : true;
      });
      await waitFor('the move on the device', async () =>
        (await api.findByName(docs.id, 'photo.jpg')) === undefined ? undefined : true,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${serviceLogs(profile)}`, { cause: error });
    } finally {
      await live.stop();
    }
    // Stopped: the mount is gone, the folder empty again, the files in the cache folder.
    expect(await isOurMount(folder)).toBe(false);
    expect(shown(folder)).toEqual([]);
    expect(readFileSync(join(cache, 'Docs/new.txt'), 'utf8')).toBe('written in the on-demand folder');
  }, 180_000);
});
