// The sync index: migrations once, data kept across reopen, transactions, subtree moves, exact mtimes, intents.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  indexFilePath,
  latestIndexVersion,
  openIndexDb,
  type IndexDb,
} from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import type { IndexEntry } from '../../../../app/model/items.ts';

let dir: string;
const open: IndexDb[] = [];

function openStore(file = join(dir, 'index.db')): { db: IndexDb; store: IndexStore } {
  const db = openIndexDb(file);
  open.push(db);
  return { db, store: new IndexStore(db) };
}

function entry(remoteId: string, path: string, overrides: Partial<IndexEntry> = {}): IndexEntry {
  const slash = path.lastIndexOf('/');
  return {
    remoteId,
    parentRemoteId: 'root',
    path,
    name: path.slice(slash + 1),
    kind: 'file',
    eTag: `"${remoteId}"`,
    size: 10,
    mTimeMs: 1_700_000_000_000,
    inode: `${remoteId}-inode`,
    localSize: 10,
    localMtimeNs: 1_700_000_000_123_456_789n,
    contentHash: null,
    ...overrides,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-index-'));
});

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openIndexDb', () => {
  it('applies the migrations once and records the version in user_version', () => {
    const { db } = openStore();
    expect(db.pragma('user_version', { simple: true })).toBe(latestIndexVersion());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // A second open must not run 001 again (it would fail: CREATE TABLE items exists).
    const again = openStore();
    expect(again.db.pragma('user_version', { simple: true })).toBe(latestIndexVersion());
  });

  it('keeps rows across a reopen', () => {
    const first = openStore();
    first.store.upsert(entry('a', 'a.txt'));
    first.db.close();
    expect(openStore().store.get('a')).toEqual(entry('a', 'a.txt'));
  });

  it('refuses an index written by a newer client', () => {
    const { db } = openStore();
    db.pragma(`user_version = ${latestIndexVersion() + 1}`);
    db.close();
    expect(() => openStore()).toThrow(expect.objectContaining({ code: 'INDEX_UNAVAILABLE' }));
  });

  it('keeps one index per local folder in the profile', () => {
    const a = indexFilePath('/profile', '/home/u/Sync');
    expect(a).toMatch(/^\/profile\/index\/[0-9a-f]{16}\.db$/);
    expect(indexFilePath('/profile', '/home/u/Other')).not.toBe(a);
  });
});

describe('IndexStore', () => {
  let store: IndexStore;
  beforeEach(() => {
    store = openStore().store;
  });

  it('finds items by remote id, path, inode and parent', () => {
    store.upsertMany([
      entry('d', 'docs', { kind: 'folder', size: 0, localSize: 0 }),
      entry('x', 'docs/x.txt', { parentRemoteId: 'd' }),
      entry('y', 'docs/y.txt', { parentRemoteId: 'd', inode: null, localSize: null, localMtimeNs: null }),
    ]);
    expect(store.byPath('docs/x.txt')?.remoteId).toBe('x');
    expect(store.byInode('x-inode').map((e) => e.path)).toEqual(['docs/x.txt']);
    expect(store.children('d').map((e) => e.remoteId)).toEqual(['x', 'y']);
    expect(store.get('y')?.localMtimeNs).toBeNull();
    expect(store.get('nope')).toBeUndefined();
    expect([...store.entries()].map((e) => e.path)).toEqual(['docs', 'docs/x.txt', 'docs/y.txt']);
  });

  it('stores nanosecond mtimes exactly, beyond 2^53', () => {
    const mtimes = [1_732_240_000_999_999_999n, 9_223_372_036_854_775_807n, -1_000_000_001n];
    mtimes.forEach((localMtimeNs, i) => store.upsert(entry(`m${i}`, `m${i}`, { localMtimeNs })));
    expect(mtimes.map((_, i) => store.get(`m${i}`)?.localMtimeNs)).toEqual(mtimes);
  });

  it('upsert replaces the row of the same remote id', () => {
    store.upsert(entry('a', 'a.txt'));
    store.upsert(entry('a', 'b.txt', { eTag: '"2"' }));
    expect(store.count()).toBe(1);
    expect(store.get('a')).toMatchObject({ path: 'b.txt', eTag: '"2"' });
  });

  it('writes nothing of a transaction that throws', () => {
    store.upsert(entry('a', 'a.txt'));
    // The second row claims a path already taken: the unique path index refuses it, and the first goes too.
    expect(() => store.upsertMany([entry('b', 'b.txt'), entry('c', 'a.txt')])).toThrow(/UNIQUE/);
    expect(store.count()).toBe(1);
    expect(store.get('b')).toBeUndefined();
  });

  it('joins an outer transaction: a failure after a nested one undoes both', () => {
    expect(() =>
      store.transaction(() => {
        store.upsertMany([entry('a', 'a.txt'), entry('b', 'b.txt')]);
        throw new Error('crash after the nested write');
      }),
    ).toThrow('crash after');
    expect(store.count()).toBe(0);
  });

  it('lets another connection read committed rows while this one holds the writer', () => {
    store.upsert(entry('a', 'a.txt'));
    const reader = openStore().store;
    store.transaction(() => {
      store.upsert(entry('b', 'b.txt'));
      // WAL: readers see the last commit and are not blocked by the open write transaction.
      expect(reader.count()).toBe(1);
    });
    expect(reader.count()).toBe(2);
  });

  it('moves a folder: every descendant path changes, siblings with the same prefix do not', () => {
    store.upsertMany([
      entry('p', 'photos', { kind: 'folder' }),
      entry('p1', 'photos/2024', { kind: 'folder', parentRemoteId: 'p' }),
      entry('p2', 'photos/2024/a%_.jpg', { parentRemoteId: 'p1' }),
      entry('p3', 'photos/b.jpg', { parentRemoteId: 'p' }),
      entry('s1', 'photos-old', { kind: 'folder' }),
      entry('s2', 'photos-old/c.jpg', { parentRemoteId: 's1' }),
      entry('s3', 'photos0', {}),
      entry('a', 'archive', { kind: 'folder' }),
    ]);
    const changed = store.moveSubtree({
      remoteId: 'p',
      toPath: 'archive/pictures',
      toName: 'pictures',
      toParentRemoteId: 'a',
      eTag: '"moved"',
    });
    expect(changed).toBe(4);
    expect([...store.entries()].map((e) => e.path)).toEqual([
      'archive',
      'archive/pictures',
      'archive/pictures/2024',
      'archive/pictures/2024/a%_.jpg',
      'archive/pictures/b.jpg',
      'photos-old',
      'photos-old/c.jpg',
      'photos0',
    ]);
    expect(store.get('p')).toMatchObject({ name: 'pictures', parentRemoteId: 'a', eTag: '"moved"' });
    expect(store.get('p3')).toMatchObject({ name: 'b.jpg', parentRemoteId: 'p' });
  });

  it('refuses to move a folder into itself', () => {
    store.upsert(entry('p', 'photos', { kind: 'folder' }));
    expect(() =>
      store.moveSubtree({ remoteId: 'p', toPath: 'photos/in', toName: 'in', toParentRemoteId: 'p' }),
    ).toThrow(expect.objectContaining({ code: 'BUG' }));
  });

  it('deletes a subtree and nothing beside it', () => {
    store.upsertMany([
      entry('d', 'd', { kind: 'folder' }),
      entry('d1', 'd/x'),
      entry('d2', 'd/e/y'),
      entry('o', 'd e'),
      entry('o2', 'd.txt'),
    ]);
    expect(store.deleteSubtree('d')).toBe(3);
    expect([...store.entries()].map((e) => e.path)).toEqual(['d e', 'd.txt']);
    expect(store.delete('o')).toBe(true);
    expect(store.delete('o')).toBe(false);
  });

  it('keeps an intent until its effect is written, then drops it with the index update', () => {
    const id = store.recordIntent(
      { action: 'upload', path: 'a.txt', remoteId: null, parentRemoteId: 'root', detail: { size: 10 } },
      1234,
    );
    expect(store.pendingIntents()).toEqual([
      {
        id,
        action: 'upload',
        path: 'a.txt',
        remoteId: null,
        parentRemoteId: 'root',
        detail: { size: 10 },
        createdAtMs: 1234,
      },
    ]);
    store.completeIntent(id, (index) => index.upsert(entry('a', 'a.txt')));
    expect(store.pendingIntents()).toEqual([]);
    expect(store.get('a')).toBeDefined();
  });

  it('keeps the intent when the index update fails', () => {
    store.upsert(entry('a', 'a.txt'));
    const id = store.recordIntent({
      action: 'upload',
      path: 'a.txt',
      remoteId: null,
      parentRemoteId: 'root',
      detail: {},
    });
    expect(() => store.completeIntent(id, (index) => index.upsert(entry('b', 'a.txt')))).toThrow();
    expect(store.pendingIntents().map((i) => i.id)).toEqual([id]);
  });

  it('keeps small facts in meta', () => {
    expect(store.getMeta('remoteRootId')).toBeUndefined();
    store.setMeta('remoteRootId', 'r1');
    store.setMeta('remoteRootId', 'r2');
    expect(store.getMeta('remoteRootId')).toBe('r2');
  });
});
