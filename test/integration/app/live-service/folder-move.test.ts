// Live sync of a folder move of 5,000 files against the real device: one PATCH, nothing transferred or deleted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { LivePair } from '../../../helpers/live-pair.ts';

const FILES = 5_000;
const PER_FOLDER = 500;

let live: LivePair | undefined;

afterAll(async () => {
  await live?.close();
}, 120_000);

describe('a folder move while running', () => {
  it('moving a folder of 5,000 files costs exactly one PATCH and no upload, download or delete', async ({
    newLivePair,
  }) => {
    // Local changes start passes by themselves; polls would only read the 5,000 files again and again.
    live = newLivePair({ pollMs: 60_000 });
    for (let index = 0; index < FILES; index += 1) {
      const folder = live.pair.local(`album/part-${Math.floor(index / PER_FOLDER)}`);
      if (index % PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
      writeFileSync(`${folder}/photo-${index}.txt`, `photo ${index}`);
    }
    live.pair.writeLocal('elsewhere/readme.txt', 'stays');
    await live.start();
    const before = await live.waitUntilSameShape('the first pass to upload everything', 240_000);
    expect(Object.keys(before).filter((path) => path.endsWith('.txt'))).toHaveLength(FILES + 1);
    const id = await live.pair.remoteId('album');
    const mark = live.mark();

    live.pair.renameLocal('album', 'elsewhere/album 2024');

    const after = await live.waitUntilSameShape('the move on the device', 120_000);
    expect(live.writesSince(mark)).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expect(await live.pair.remoteId('elsewhere/album 2024')).toBe(id);
    const moved = Object.fromEntries(
      Object.entries(before).map(([path, shape]) => [
        path.startsWith('album') ? `elsewhere/album 2024${path.slice('album'.length)}` : path,
        shape,
      ]),
    );
    expect(after).toEqual(Object.fromEntries(Object.entries(moved).sort(([a], [b]) => (a < b ? -1 : 1))));
  }, 400_000);
});
