// The walk's listing cache kept in the index: what a walk listed comes back in a new process, and only changes are written.
import { afterEach, describe, expect, it } from 'vitest';
import { BadResponseError } from '../../../../../common/errors.ts';
import { openIndexDb, type IndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import {
  ListingCacheDamagedError,
  ListingCacheKeeper,
} from '../../../../../app/sync/remote/listing-cache.ts';
import type { RemoteEntry } from '../../../../../app/model/items.ts';
import type { CachedListing, RemoteWalkCache } from '../../../../../app/sync/remote/remote-walk.ts';
import { WalkedListing } from '../../../../../app/sync/remote/walk-listing.ts';

const open: IndexDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function newIndex(): { db: IndexDb; index: IndexStore } {
  const db = openIndexDb(':memory:');
  open.push(db);
  return { db, index: new IndexStore(db) };
}

function entry(id: string, overrides: Partial<RemoteEntry> = {}): RemoteEntry {
  const name = overrides.name ?? `${id}.txt`;
  return {
    id,
    parentId: 'p',
    path: `docs/${name}`,
    name,
    kind: 'file',
    eTag: `"${id}"`,
    size: 3,
    mTimeMs: 1_700_000_000_123,
    ...overrides,
  };
}

function listing(
  eTag: string,
  entries: RemoteEntry[],
  rejected: CachedListing['rejected'] = [],
): WalkedListing {
  return new WalkedListing(eTag, rejected, 'docs', entries);
}

function cacheOf(folders: Record<string, CachedListing>): RemoteWalkCache {
  return { pageSize: undefined, folders: new Map(Object.entries(folders)) };
}

/** A kept listing written as is (ETag `"e"`), to read back what a damaged row gives. */
function storeRow(db: IndexDb, folderId: string, pageSize: number, folders: string, children: string): void {
  db.prepare(
    'INSERT INTO listings (folder_id, etag, page_size, folders, children) VALUES (?, ?, ?, ?, ?)',
  ).run(folderId, '"e"', pageSize, folders, children);
}

function rowCount(db: IndexDb): number {
  return db.prepare('SELECT count(*) FROM listings').pluck().get() as number;
}

describe('ListingCacheKeeper', () => {
  it('gives back what was saved, in a keeper of a later process, at the folder path asked for', () => {
    const { index } = newIndex();
    const entries = [entry('a'), entry('d', { kind: 'folder', size: 0, name: 'ü dir', path: 'docs/ü dir' })];
    new ListingCacheKeeper(index.listings).save(cacheOf({ p: listing('"l1"', entries) }));
    const loaded = new ListingCacheKeeper(index.listings).load();
    expect(loaded.pageSize).toBeUndefined();
    const stored = loaded.folders.get('p');
    expect(stored?.eTag).toBe('"l1"');
    expect(stored?.at('p', 'docs')?.entries).toEqual(entries);
    // The folder moved since: the same children, at the new place.
    expect(stored?.at('p', 'old/docs')?.entries.map((child) => child.path)).toEqual([
      'old/docs/a.txt',
      'old/docs/ü dir',
    ]);
  });

  it('writes only listings whose ETag changed, and forgets folders the walk no longer has', () => {
    const { db, index } = newIndex();
    const keeper = new ListingCacheKeeper(index.listings);
    const a = listing('"a"', [entry('x')]);
    const b = listing('"b"', []);
    keeper.save(cacheOf({ a, b }));
    expect(rowCount(db)).toBe(2);
    const writes: string[] = [];
    db.function('note_write', (id: unknown) => {
      writes.push(String(id));
      return null;
    });
    db.exec(`CREATE TEMP TRIGGER noted AFTER UPDATE ON listings BEGIN SELECT note_write(new.folder_id); END`);
    // b unchanged (at a new path after a move: the same ETag), a listed again, nothing of the old b gone.
    const a2 = listing('"a2"', [entry('y')]);
    keeper.save(cacheOf({ a: a2, b: b.at('b', 'moved') }));
    expect(writes).toEqual(['a']);
    keeper.save(cacheOf({ a: a2 }));
    expect(rowCount(db)).toBe(1);
    expect(new ListingCacheKeeper(index.listings).load().folders.get('a')?.eTag).toBe('"a2"');
  });

  it('does not keep a listing with rejected items, which is then listed in full again', () => {
    const { db, index } = newIndex();
    const rejected = [{ id: 'bad', name: 'a\\b', error: new BadResponseError('bad name') }];
    new ListingCacheKeeper(index.listings).save(cacheOf({ p: listing('"p"', [entry('a')], rejected) }));
    expect(rowCount(db)).toBe(0);
  });

  it('reads a row with damaged subfolders as no cache and writes the next listing over it, even with the same ETag', () => {
    const { db, index } = newIndex();
    storeRow(db, 'broken', 0, '[["a", 2]]', '[]');
    storeRow(db, 'notjson', 0, '{', '[]');
    storeRow(db, 'paged', 50, '[]', '[]');
    storeRow(db, 'good', 0, '[]', '[]');
    const keeper = new ListingCacheKeeper(index.listings);
    const loaded = keeper.load();
    expect([...loaded.folders.keys()].sort()).toEqual(['broken', 'good', 'notjson']);
    expect(loaded.folders.get('broken')?.at('broken', 'b')).toBeUndefined();
    expect(loaded.folders.get('notjson')?.at('notjson', 'n')).toBeUndefined();
    expect(loaded.folders.get('good')?.at('good', 'g')?.entries).toEqual([]);
    expect([...new ListingCacheKeeper(index.listings, 50).load().folders.keys()]).toEqual(['paged']);
    // The walk listed the damaged folder in full; the device's ETag is the one stored.
    const fresh = new WalkedListing('"e"', [], 'b', [entry('a', { parentId: 'broken', path: 'b/a.txt' })]);
    keeper.save(cacheOf({ broken: fresh, good: loaded.folders.get('good') as CachedListing }));
    const again = new ListingCacheKeeper(index.listings).load().folders.get('broken');
    expect(again?.at('broken', 'b')?.entries).toEqual(fresh.entries);
  });

  it('gives the subfolders without reading the other children, which are read when first asked for', () => {
    const { index } = newIndex();
    const entries = [entry('a'), entry('d', { kind: 'folder', size: 0, name: 'sub', path: 'docs/sub' })];
    new ListingCacheKeeper(index.listings).save(cacheOf({ p: listing('"l1"', entries) }));
    const store = index.listings;
    const readChildren = store.children.bind(store);
    const reads: string[] = [];
    store.children = (folderId, pageSize) => {
      reads.push(folderId);
      return readChildren(folderId, pageSize);
    };
    const moved = new ListingCacheKeeper(store).load().folders.get('p')?.at('p', 'old/docs');
    expect(moved?.folders).toEqual([{ id: 'd', path: 'old/docs/sub' }]);
    expect(reads).toEqual([]);
    expect(moved?.entries.map((child) => child.path)).toEqual(['old/docs/a.txt', 'old/docs/sub']);
    expect(moved?.entries.map((child) => child.path)).toEqual(['old/docs/a.txt', 'old/docs/sub']);
    expect(reads).toEqual(['p']);
  });

  it('drops every kept listing when the children turn out damaged after the subfolders were used', () => {
    const { db, index } = newIndex();
    storeRow(db, 'p', 0, '[["d", "sub"]]', '[["a", "p", "a.txt", 0, "x"]]');
    const listing = new ListingCacheKeeper(index.listings).load().folders.get('p')?.at('p', 'docs');
    expect(listing?.folders).toEqual([{ id: 'd', path: 'docs/sub' }]);
    expect(() => listing?.entries).toThrow(ListingCacheDamagedError);
    expect(rowCount(db)).toBe(0);
  });

  it('reads children that disagree with the subfolders as damaged', () => {
    const { db, index } = newIndex();
    storeRow(db, 'p', 0, '[["d", "sub"]]', '[["d", "p", "other", 1, "x", 0, 1]]');
    const listing = new ListingCacheKeeper(index.listings).load().folders.get('p')?.at('p', 'docs');
    expect(() => listing?.entries).toThrow(ListingCacheDamagedError);
  });
});
