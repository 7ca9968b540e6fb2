// The walk's listing cache kept in the index: what a walk listed comes back in a new process, and only changes are written.
import { afterEach, describe, expect, it } from 'vitest';
import { BadResponseError } from '../../../../common/errors.ts';
import { openIndexDb, type IndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { ListingCacheKeeper } from '../../../../app/sync/listing-cache.ts';
import type { CachedListing, ListedItem, RemoteWalkCache } from '../../../../app/sync/remote-walk.ts';

const open: IndexDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function newIndex(): { db: IndexDb; index: IndexStore } {
  const db = openIndexDb(':memory:');
  open.push(db);
  return { db, index: new IndexStore(db) };
}

function item(id: string, overrides: Partial<ListedItem> = {}): ListedItem {
  return {
    id,
    parentId: 'p',
    name: `${id}.txt`,
    isFolder: false,
    eTag: `"${id}"`,
    size: 3,
    mTimeMs: 1_700_000_000_123,
    ...overrides,
  };
}

function cacheOf(folders: Record<string, CachedListing>): RemoteWalkCache {
  return { pageSize: undefined, folders: new Map(Object.entries(folders)) };
}

function rowCount(db: IndexDb): number {
  return db.prepare('SELECT count(*) FROM listings').pluck().get() as number;
}

describe('ListingCacheKeeper', () => {
  it('gives back what was saved, in a keeper of a later process', () => {
    const { index } = newIndex();
    const listing: CachedListing = {
      eTag: '"l1"',
      children: [item('a'), item('d', { isFolder: true, size: 0, parentId: undefined, name: 'ü dir' })],
      rejected: [],
    };
    new ListingCacheKeeper(index.listings).save(cacheOf({ p: listing }));
    const loaded = new ListingCacheKeeper(index.listings).load();
    expect(loaded.pageSize).toBeUndefined();
    expect(loaded.folders.get('p')).toEqual(listing);
  });

  it('writes only listings that changed, and forgets folders the walk no longer has', () => {
    const { db, index } = newIndex();
    const keeper = new ListingCacheKeeper(index.listings);
    const a: CachedListing = { eTag: '"a"', children: [item('x')], rejected: [] };
    const b: CachedListing = { eTag: '"b"', children: [], rejected: [] };
    keeper.save(cacheOf({ a, b }));
    expect(rowCount(db)).toBe(2);
    const writes: string[] = [];
    db.function('note_write', (id: unknown) => {
      writes.push(String(id));
      return null;
    });
    db.exec(`CREATE TEMP TRIGGER noted AFTER UPDATE ON listings BEGIN SELECT note_write(new.folder_id); END`);
    // b unchanged (the same object, as after a 304), a listed again, c new, nothing of the old b gone.
    const a2: CachedListing = { eTag: '"a2"', children: [item('y')], rejected: [] };
    keeper.save(cacheOf({ a: a2, b }));
    expect(writes).toEqual(['a']);
    keeper.save(cacheOf({ a: a2 }));
    expect(rowCount(db)).toBe(1);
    expect(new ListingCacheKeeper(index.listings).load().folders.get('a')?.eTag).toBe('"a2"');
  });

  it('does not keep a listing with rejected items, which is then listed in full again', () => {
    const { db, index } = newIndex();
    const rejected = [{ id: 'bad', name: 'a\\b', error: new BadResponseError('bad name') }];
    new ListingCacheKeeper(index.listings).save(
      cacheOf({ p: { eTag: '"p"', children: [item('a')], rejected } }),
    );
    expect(rowCount(db)).toBe(0);
  });

  it('skips a damaged row and a cache made with another page size', () => {
    const { db, index } = newIndex();
    const insert = db.prepare(
      'INSERT INTO listings (folder_id, etag, page_size, children) VALUES (?, ?, ?, ?)',
    );
    insert.run('broken', '"e"', 0, '[["a", null, "n", 2, "e", 1, 2]]');
    insert.run('notjson', '"e"', 0, '{');
    insert.run('paged', '"e"', 50, '[]');
    insert.run('good', '"e"', 0, '[]');
    const loaded = new ListingCacheKeeper(index.listings).load();
    expect([...loaded.folders.keys()]).toEqual(['good']);
    expect([...new ListingCacheKeeper(index.listings, 50).load().folders.keys()]).toEqual(['paged']);
  });
});
