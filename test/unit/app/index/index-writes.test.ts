// The executor's index writes: rows placed where another row still is, moves with subtrees, parked rows.
import { describe, expect, it } from 'vitest';
import { openIndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { IndexWriter } from '../../../../app/index/index-writes.ts';
import type { IndexEntry } from '../../../../app/model/items.ts';

function entry(remoteId: string, path: string, overrides: Partial<IndexEntry> = {}): IndexEntry {
  return {
    remoteId,
    parentRemoteId: 'root',
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind: 'file',
    eTag: `"${remoteId}"`,
    size: 1,
    mTimeMs: 1,
    inode: `i-${remoteId}`,
    localSize: 1,
    localMtimeNs: 1n,
    contentHash: null,
    ...overrides,
  };
}

function writer(...rows: IndexEntry[]): IndexWriter {
  const store = new IndexStore(openIndexDb(':memory:'));
  store.upsertMany(rows);
  return new IndexWriter(store);
}

function paths(index: IndexWriter): string[] {
  return [...index.store.entries()].map((row) => `${row.remoteId}:${row.path}`);
}

describe('IndexWriter', () => {
  it('parks the row that holds a path until its own operation moves it (a swap)', () => {
    const index = writer(entry('a', 'one'), entry('b', 'two'));
    index.move('a', 'two', null);
    expect(index.store.get('a')?.path).toBe('two');
    expect(index.store.get('b')?.path).toBe('/parked/b');
    index.move('b', 'one', null);
    expect(paths(index)).toEqual(['b:one', 'a:two']);
    expect(index.dropParked()).toBe(0);
  });

  it('drops rows still parked at the end of a pass, with their subtree', () => {
    const index = writer(
      entry('old', 'x', { kind: 'folder' }),
      entry('child', 'x/c', { parentRemoteId: 'old' }),
    );
    index.place(entry('new', 'x'));
    expect(index.store.get('child')?.path).toBe('/parked/old/c');
    expect(index.dropParked()).toBe(2);
    expect(paths(index)).toEqual(['new:x']);
  });

  it('places a parked folder with its children at their new paths (seed 20694)', () => {
    const index = writer(
      entry('f', 'a', { kind: 'folder' }),
      entry('c', 'a/c', { parentRemoteId: 'f' }),
      entry('g', 'b', { kind: 'folder' }),
    );
    index.move('g', 'a', null);
    expect(index.store.get('c')?.path).toBe('/parked/f/c');
    index.place(entry('f', 'a/f\u00e9', { kind: 'folder', parentRemoteId: 'g' }));
    expect(paths(index)).toEqual(['g:a', 'f:a/f\u00e9', 'c:a/f\u00e9/c']);
    expect(index.dropParked()).toBe(0);
  });

  it('a removed folder keeps, parked, the rows of items that survive it; the rest go', () => {
    const index = writer(
      entry('f', 'a', { kind: 'folder' }),
      entry('kept', 'a/k', { kind: 'folder', parentRemoteId: 'f' }),
      entry('under', 'a/k/u', { parentRemoteId: 'kept' }),
      entry('gone', 'a/g', { parentRemoteId: 'f' }),
    );
    index.removeTree('f', (row) => row.remoteId === 'kept');
    expect(paths(index)).toEqual(['kept:/parked/kept', 'under:/parked/kept/u']);
    index.move('kept', 'k', null);
    expect(paths(index)).toEqual(['kept:k', 'under:k/u']);
  });

  it('a row already placed below the target keeps its place; the row a move carries there is parked (seed 24304)', () => {
    const index = writer(
      entry('f', 'a', { kind: 'folder' }),
      entry('old', 'a/x', { parentRemoteId: 'f' }),
      entry('keep', 'a/y', { parentRemoteId: 'f' }),
      entry('placed', 'c/x', { kind: 'folder', parentRemoteId: 'elsewhere' }),
    );
    index.move('f', 'c', null);
    expect(paths(index)).toEqual(['old:/parked/old', 'f:c', 'placed:c/x', 'keep:c/y']);
    index.place(entry('old', 'c/x (conflicted copy)', { parentRemoteId: 'f' }));
    expect(index.dropParked()).toBe(0);
  });

  it('a move to where the item already is keeps its children (a remote and a local move of one folder)', () => {
    const index = writer(entry('f', 'a', { kind: 'folder' }), entry('c', 'a/c', { parentRemoteId: 'f' }));
    index.move('f', 'b', null);
    index.move('f', 'b', null);
    expect(paths(index)).toEqual(['f:b', 'c:b/c']);
  });

  it('drops rows parked by an older version under NUL', () => {
    const index = writer(entry('p', '\u0000/p'), entry('q', 'q'));
    expect(index.dropParked()).toBe(1);
    expect(paths(index)).toEqual(['q:q']);
  });

  it('moves a folder row with its children when it is placed at a new path', () => {
    const index = writer(entry('f', 'a', { kind: 'folder' }), entry('c', 'a/c', { parentRemoteId: 'f' }));
    index.place(entry('f', 'b', { kind: 'folder', eTag: 'new' }));
    expect(paths(index)).toEqual(['f:b', 'c:b/c']);
    expect(index.store.get('f')?.eTag).toBe('new');
  });

  it('keeps the eTag on a move unless one is given, and sets the new parent and name', () => {
    const index = writer(entry('p', 'p', { kind: 'folder' }), entry('a', 'a'));
    expect(index.move('a', 'p/b', 'p')).toBe(true);
    expect(index.store.get('a')).toMatchObject({ path: 'p/b', name: 'b', parentRemoteId: 'p', eTag: '"a"' });
    index.move('a', 'p/c', null, 'fresh');
    expect(index.store.get('a')).toMatchObject({ path: 'p/c', parentRemoteId: 'p', eTag: 'fresh' });
    expect(index.move('missing', 'z', null)).toBe(false);
  });

  it('removes an item with everything below it', () => {
    const index = writer(
      entry('f', 'f', { kind: 'folder' }),
      entry('c', 'f/c', { parentRemoteId: 'f' }),
      entry('g', 'g'),
    );
    index.removeTree('f');
    expect(paths(index)).toEqual(['g:g']);
  });
});
