// Folder digests in the index: equal to a scan's when disk and rows agree, and gone whenever a row under the folder changes.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { folderDigest } from '../../../../app/model/folder-digest.ts';
import type { IndexEntry, LocalEntry } from '../../../../app/model/items.ts';
import { scanLocalFolder } from '../../../../app/sync/local/scanner.ts';

let dir: string;
const open: IndexDb[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-digests-'));
});
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function newStore(): IndexStore {
  const db = openIndexDb(':memory:');
  open.push(db);
  return new IndexStore(db);
}

function row(remoteId: string, parentRemoteId: string, path: string, kind: IndexEntry['kind']): IndexEntry {
  return {
    remoteId,
    parentRemoteId,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind,
    eTag: `"${remoteId}"`,
    size: 1,
    mTimeMs: 1,
    inode: `${remoteId}0`,
    localSize: kind === 'file' ? 1 : 0,
    localMtimeNs: 1_700_000_000_123_456_789n,
    contentHash: null,
  };
}

/** Rows for what a scan found, as a pass would record them (ids made from paths). */
function rowsOf(entries: readonly LocalEntry[], rootId: string): IndexEntry[] {
  const idOf = (path: string): string => (path === '' ? rootId : `id:${path}`);
  return entries.map((entry) => {
    const slash = entry.path.lastIndexOf('/');
    return {
      ...row(idOf(entry.path), idOf(slash < 0 ? '' : entry.path.slice(0, slash)), entry.path, entry.kind),
      inode: entry.inode,
      localSize: entry.size,
      localMtimeNs: entry.mtimeNs,
    };
  });
}

describe('folder digests', () => {
  it('are the same from a scan and from the rows recorded for it, for every folder, the root too', () => {
    const root = join(dir, 'tree');
    mkdirSync(join(root, 'docs', 'deep'), { recursive: true });
    mkdirSync(join(root, 'empty'));
    for (const [path, text] of [
      ['a.txt', 'alpha'],
      ['ä ü.txt', 'umlauts'],
      ['docs/b.txt', 'bravo'],
      ['docs/deep/c.txt', ''],
    ] as const) {
      writeFileSync(join(root, path), text);
    }
    utimesSync(join(root, 'a.txt'), 1_700_000_000.5, 1_700_000_000.123456);
    const scan = scanLocalFolder(root, { digests: true });
    const store = newStore();
    store.upsertMany(rowsOf(scan.entries, 'R'));
    expect(store.digests.fillMissing('R')).toBe(4);
    const stored = store.digests.all();
    const scanned = new Map(
      (scan.folders ?? []).map((folder) => [folder.path === '' ? 'R' : `id:${folder.path}`, folder.digest]),
    );
    expect(scanned.size).toBe(4);
    expect(stored).toEqual(scanned);
  });

  it('do not depend on the order of the children, and change with any local fact a pass compares', () => {
    const base = { name: 'a.txt', kind: 'file' as const, inode: '7', size: 3, mtimeNs: 5n };
    const other = { name: 'b', kind: 'folder' as const, inode: '8', size: 0, mtimeNs: 9n };
    const digest = folderDigest([base, other]);
    expect(folderDigest([other, base])).toBe(digest);
    for (const changed of [
      { ...base, name: 'A.txt' },
      { ...base, inode: '70' },
      { ...base, size: 4 },
      { ...base, mtimeNs: 6n },
      { ...base, kind: 'folder' as const },
      { ...base, inode: null },
    ]) {
      expect(folderDigest([changed, other])).not.toBe(digest);
    }
    // A folder's own size and mtime move with its children: they are no change of the folder.
    expect(folderDigest([base, { ...other, mtimeNs: 10n }])).toBe(digest);
    expect(folderDigest([base])).not.toBe(digest);
  });

  it('are deleted by the triggers when a row under the folder is added, changed, moved or deleted', () => {
    const store = newStore();
    store.upsertMany([
      row('d', 'R', 'docs', 'folder'),
      row('e', 'R', 'other', 'folder'),
      row('f', 'd', 'docs/f.txt', 'file'),
      row('g', 'e', 'other/g.txt', 'file'),
    ]);
    const refill = (): void => {
      store.digests.fillMissing('R');
      expect([...store.digests.all().keys()].sort()).toEqual(['R', 'd', 'e']);
    };
    const missing = (): string[] => ['R', 'd', 'e'].filter((id) => !store.digests.all().has(id)).sort();

    refill();
    store.upsert(row('h', 'd', 'docs/h.txt', 'file'));
    expect(missing()).toEqual(['d']);
    refill();
    store.upsert({ ...row('f', 'd', 'docs/f.txt', 'file'), localMtimeNs: 1n });
    expect(missing()).toEqual(['d']);
    refill();
    // The remote half alone is no local fact: the digest stays.
    store.upsert({ ...row('f', 'd', 'docs/f.txt', 'file'), localMtimeNs: 1n, eTag: '"f2"' });
    expect(missing()).toEqual([]);
    store.moveSubtree({ remoteId: 'f', toPath: 'other/f.txt', toName: 'f.txt', toParentRemoteId: 'e' });
    expect(missing()).toEqual(['d', 'e']);
    refill();
    // A folder renamed: its parent's digest goes, and (its rows' paths changed) its own.
    store.moveSubtree({ remoteId: 'e', toPath: 'renamed', toName: 'renamed', toParentRemoteId: 'R' });
    expect(missing()).toEqual(['R', 'e']);
    refill();
    store.delete('h');
    expect(missing()).toEqual(['d']);
    refill();
    store.deleteSubtree('renamed');
    // The parent's digest went, and the deleted folder's own went with it.
    expect([...store.digests.all().keys()].sort()).toEqual(['d']);
    store.digests.fillMissing('R');
    expect([...store.digests.all().keys()].sort()).toEqual(['R', 'd']);
  });

  it('fill only the folders that have none', () => {
    const store = newStore();
    store.upsertMany([row('d', 'R', 'docs', 'folder'), row('f', 'd', 'docs/f.txt', 'file')]);
    expect(store.digests.fillMissing('R')).toBe(2);
    expect(store.digests.fillMissing('R')).toBe(0);
    store.upsert(row('g', 'd', 'docs/g.txt', 'file'));
    expect(store.digests.fillMissing('R')).toBe(1);
  });
});
