// freeInPlace, the free without a mount: a filled file made a placeholder again that the engine and the
// hydrator take for the one they knew, and every file it must leave as it is.
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { freeInPlace } from '../../../../app/on-demand/free-in-place.ts';
import { Hydrator } from '../../../../app/on-demand/hydrator.ts';
import { nativeFileAttributes } from '../../../../app/sync/local/native-scan.ts';
import { isPlaceholder, writePlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { it } from '../../../helpers/fixtures.ts';
import {
  contentGets,
  expectHydrated,
  expectIntactPlaceholder,
  expectWholeHydration,
  hydrateEvents,
  placeholderPair,
} from '../../../helpers/on-demand.ts';

const TIMEOUT = { timeout: 60_000 };

/** What the index would say of the file at `file`: its size and mtime now. */
function expectationOf(file: string): { size: number; mtimeNs: bigint } {
  const { size, mtimeNs } = statSync(file, { bigint: true });
  return { size: Number(size), mtimeNs };
}

describe('freeInPlace', () => {
  it(
    'makes a filled file its row’s placeholder again: a quiet pass, and a hydration fills it again',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'docs/a.txt': 'alpha content' });
      const hydrator = new Hydrator({
        client: pair.client.device,
        index: pair.index,
        cacheRoot: pair.localRoot,
      });
      expectWholeHydration(await hydrateEvents(hydrator, 'docs/a.txt'), 'alpha content'.length);
      expectHydrated(pair, 'docs/a.txt', 'alpha content');
      const row = pair.index.byPath('docs/a.txt');

      const result = await freeInPlace(pair.localRoot, 'docs/a.txt', {
        size: row?.localSize ?? -1,
        mtimeNs: row?.localMtimeNs ?? -1n,
      });
      expect(result).toEqual({ type: 'freed' });
      expectIntactPlaceholder(pair, 'docs/a.txt');
      expect(statSync(pair.local('docs/a.txt')).blocks).toBe(0);

      const before = pair.client.requests().length;
      const { report, writes } = await pair.syncCounting();
      expect(report.status).toBe('synced');
      expect(writes).toEqual([]);
      expect(contentGets(pair.client.requests().slice(before))).toEqual([]);

      expectWholeHydration(await hydrateEvents(hydrator, 'docs/a.txt'), 'alpha content'.length);
      expectHydrated(pair, 'docs/a.txt', 'alpha content');
    },
  );

  it('keeps an mtime to the nanosecond', async ({ tempDir }) => {
    const file = join(tempDir, 'precise.bin');
    writeFileSync(file, 'x'.repeat(10_000));
    const mtimeNs = 1_709_618_828_123_456_789n;
    nativeFileAttributes()?.setMtimeNs(file, mtimeNs);
    const { ino } = statSync(file, { bigint: true });

    expect(await freeInPlace(tempDir, 'precise.bin', { size: 10_000, mtimeNs })).toEqual({ type: 'freed' });
    const after = statSync(file, { bigint: true });
    expect({ ino: after.ino, size: after.size, mtimeNs: after.mtimeNs, blocks: after.blocks }).toEqual({
      ino,
      size: 10_000n,
      mtimeNs,
      blocks: 0n,
    });
    expect(isPlaceholder(file)).toBe(true);
  });

  it('answers freed for a placeholder and leaves it as it is', async ({ tempDir }) => {
    const file = join(tempDir, 'p.bin');
    await writePlaceholder(file, { size: 500, mTimeMs: 1_700_000_000_000 });
    const before = lstatSync(file, { bigint: true });

    expect(await freeInPlace(tempDir, 'p.bin', { size: 1, mtimeNs: 0n })).toEqual({ type: 'freed' });
    expect(lstatSync(file, { bigint: true })).toEqual(before);
  });

  it('refuses with ESTALE a file whose size or mtime changed, and leaves its bytes', async ({ tempDir }) => {
    const file = join(tempDir, 'changed.txt');
    writeFileSync(file, 'the only copy');
    const expected = expectationOf(file);

    for (const wrong of [
      { ...expected, size: expected.size + 1 },
      { ...expected, mtimeNs: expected.mtimeNs + 1n },
    ]) {
      expect(await freeInPlace(tempDir, 'changed.txt', wrong)).toMatchObject({
        type: 'free-refused',
        errno: 'ESTALE',
      });
    }
    expect(readFileSync(file, 'utf8')).toBe('the only copy');
    expect(isPlaceholder(file)).toBe(false);
  });

  it('refuses with ENOENT what is not a regular file: nothing, a folder, a symlink', async ({ tempDir }) => {
    mkdirSync(join(tempDir, 'folder'));
    writeFileSync(join(tempDir, 'target.txt'), 'target');
    symlinkSync('target.txt', join(tempDir, 'link'));

    for (const path of ['missing.txt', 'folder', 'link', 'target.txt/below']) {
      expect(await freeInPlace(tempDir, path, { size: 6, mtimeNs: 0n })).toMatchObject({
        type: 'free-refused',
        errno: 'ENOENT',
      });
    }
    expect(readFileSync(join(tempDir, 'target.txt'), 'utf8')).toBe('target');
    expect(isPlaceholder(join(tempDir, 'target.txt'))).toBe(false);
  });

  it('throws UNSAFE_PATH for a path out of the cache folder', async ({ tempDir }) => {
    await expect(
      freeInPlace(join(tempDir, 'cache'), '../outside', { size: 0, mtimeNs: 0n }),
    ).rejects.toMatchObject({
      code: 'UNSAFE_PATH',
    });
  });
});
