// Crash leftovers: download temporaries deleted, items parked under temporary names put back.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import { tidyLeftovers } from '../../../../../app/sync/recovery/leftovers.ts';
import { scanLocalFolder } from '../../../../../app/sync/local/scanner.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setUp(): { root: string; index: IndexStore } {
  const root = mkdtempSync(join(tmpdir(), 'mch-leftovers-'));
  roots.push(root);
  return { root, index: new IndexStore(openIndexDb(':memory:')) };
}

describe('tidyLeftovers', () => {
  it('deletes download temporaries and their partial files, nothing else', async () => {
    const { root, index } = setUp();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', '.mch-dl-0a1b2c3d4e5f'), 'half');
    writeFileSync(join(root, '..mch-dl-0a1b2c3d4e5f.mch-partial'), 'half');
    writeFileSync(join(root, '.DS_Store'), 'mac');
    writeFileSync(join(root, 'keep.txt'), 'mine');
    expect(await tidyLeftovers(root, scanLocalFolder(root), index, { partials: true })).toBe(true);
    expect(existsSync(join(root, 'sub', '.mch-dl-0a1b2c3d4e5f'))).toBe(false);
    expect(existsSync(join(root, '..mch-dl-0a1b2c3d4e5f.mch-partial'))).toBe(false);
    expect(existsSync(join(root, '.DS_Store'))).toBe(true);
    expect(await tidyLeftovers(root, scanLocalFolder(root), index, { partials: true })).toBe(false);
  });

  it('moves a parked item back to its index path, or to its own name when that is taken', async () => {
    const { root, index } = setUp();
    writeFileSync(join(root, '.mch-moving-1-a.txt'), 'was b');
    const inode = statSync(join(root, '.mch-moving-1-a.txt')).ino.toString();
    index.upsert({
      remoteId: 'r',
      parentRemoteId: 'root',
      path: 'b.txt',
      name: 'b.txt',
      kind: 'file',
      eTag: 'e',
      size: 5,
      mTimeMs: 1,
      inode,
      localSize: 5,
      localMtimeNs: 1n,
      contentHash: null,
    });
    writeFileSync(join(root, '.mch-moving-2-c.txt'), 'unknown');
    expect(await tidyLeftovers(root, scanLocalFolder(root), index, { partials: true })).toBe(true);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('was b');
    expect(readFileSync(join(root, 'c.txt'), 'utf8')).toBe('unknown');
  });

  it('leaves a parked item alone when both places are taken', async () => {
    const { root, index } = setUp();
    writeFileSync(join(root, '.mch-moving-1-a.txt'), 'parked');
    writeFileSync(join(root, 'a.txt'), 'other');
    expect(await tidyLeftovers(root, scanLocalFolder(root), index, { partials: true })).toBe(false);
    expect(readFileSync(join(root, '.mch-moving-1-a.txt'), 'utf8')).toBe('parked');
  });
});
