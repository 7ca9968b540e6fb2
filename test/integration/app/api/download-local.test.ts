// A download's own file: private while it fills, the mode asked for once done; a disk that cannot take it is the disk's error.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { partialPath } from '../../../../app/api/download.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { mountTmpfs, mountUnavailable, unmountAll } from '../../../helpers/mounts.ts';

describe('downloadFile on this disk', () => {
  it('keeps the partial file 0600 while it fills, and gives the finished file the mode asked for', async ({
    device,
    tempDir,
  }) => {
    const { device: api } = clientFor(device);
    const content = Buffer.alloc(3 * 1024 * 1024, 5);
    const created = await api.create({ parentId: 'root', name: 'modes.bin', content });
    const target = join(tempDir, 'modes.bin');
    const partialModes = new Set<number>();
    await api.download(created.id, target, {
      mode: 0o640,
      onProgress: () => {
        if (existsSync(partialPath(target))) partialModes.add(statSync(partialPath(target)).mode & 0o777);
      },
    });
    expect([...partialModes]).toEqual([0o600]);
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readFileSync(target).equals(content)).toBe(true);
  });

  it.skipIf(mountUnavailable() !== undefined)(
    'throws the disk’s ENOSPC after one request, never a network error retried, and frees the space',
    async ({ device, tempDir }) => {
      const recorded = clientFor(device);
      const created = await recorded.device.create({
        parentId: 'root',
        name: 'too-big.bin',
        content: Buffer.alloc(3_000_000, 9),
      });
      const small = join(tempDir, 'small-disk');
      mountTmpfs(small, 1);
      try {
        const before = recorded.requests().length;
        await expect(
          recorded.device.download(created.id, join(small, 'too-big.bin'), { eTag: created.eTag }),
        ).rejects.toMatchObject({ code: 'ENOSPC' });
        expect(recorded.requests().slice(before)).toEqual([`GET /sdk/v2/files/${created.id}/content`]);
        expect(readdirSync(small)).toEqual([]);
      } finally {
        unmountAll(small);
      }
    },
  );
});
