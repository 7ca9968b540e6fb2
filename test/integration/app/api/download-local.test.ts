// A download's own file: private while it fills, the mode asked for once done; a disk that cannot take it is the disk's error.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partialPath } from '../../../../app/api/download.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { mountTmpfs, mountUnavailable, unmountAll } from '../../../helpers/mounts.ts';

let device: TestDevice;
let folder: string;

beforeAll(async () => {
  device = await startTestDevice();
  folder = mkdtempSync(join(tmpdir(), 'mch-api-download-'));
});
afterAll(async () => {
  await device.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('downloadFile on this disk', () => {
  it('keeps the partial file 0600 while it fills, and gives the finished file the mode asked for', async () => {
    const { device: api } = clientFor(device);
    const content = Buffer.alloc(3 * 1024 * 1024, 5);
    const created = await api.create({ parentId: 'root', name: 'modes.bin', content });
    const target = join(folder, 'modes.bin');
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
    async () => {
      const recorded = clientFor(device);
      const created = await recorded.device.create({
        parentId: 'root',
        name: 'too-big.bin',
        content: Buffer.alloc(3_000_000, 9),
      });
      const small = join(folder, 'small-disk');
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
