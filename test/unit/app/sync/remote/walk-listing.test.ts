// The walk cache learns the engine's own moves: both listings follow, nothing else changes, unknowns are asked for.
import { describe, expect, it } from 'vitest';
import type { RemoteEntry } from '../../../../../app/model/items.ts';
import type { RemoteWalkCache } from '../../../../../app/sync/remote/remote-walk.ts';
import { WalkedListing, withOwnMoves } from '../../../../../app/sync/remote/walk-listing.ts';

function entry(id: string, parentId: string, path: string): RemoteEntry {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { id, parentId, path, name, kind: 'file', eTag: `"${id}"`, size: 1, mTimeMs: 1 };
}

function cache(): RemoteWalkCache {
  const root = new WalkedListing('"root"', [], '', [entry('a', 'R', 'a.txt'), entry('d', 'R', 'docs')]);
  const docs = new WalkedListing('"docs"', [], 'docs', [entry('b', 'd', 'docs/b.txt')]);
  return {
    pageSize: undefined,
    folders: new Map([
      ['R', root],
      ['d', docs],
    ]),
  };
}

function listed(result: RemoteWalkCache, folderId: string): string[] {
  const listing = result.folders.get(folderId) as WalkedListing;
  return listing.entries.map((child) => `${child.id}:${child.path}:${child.parentId}:${child.eTag}`);
}

describe('withOwnMoves', () => {
  it('renames an item in its folder listing, with its new eTag; the listing keeps its ETag', () => {
    const before = cache();
    const touched = new Set<string>();
    const after = withOwnMoves(
      before,
      [{ remoteId: 'a', fromParentId: 'R', toParentId: 'R', name: 'z.txt', eTag: '"a2"' }],
      touched,
    );
    expect(listed(after, 'R')).toEqual(['a:z.txt:R:"a2"', 'd:docs:R:"d"']);
    expect(after.folders.get('R')?.eTag).toBe('"root"');
    expect(touched.size).toBe(0);
    // The walk's earlier result shares these entries: they are never changed in place.
    expect(listed(before, 'R')).toEqual(['a:a.txt:R:"a"', 'd:docs:R:"d"']);
  });

  it('moves an item from one listing to the other, keeping its name when the move did', () => {
    const touched = new Set<string>();
    const after = withOwnMoves(
      cache(),
      [{ remoteId: 'a', fromParentId: 'R', toParentId: 'd', name: null, eTag: '"a2"' }],
      touched,
    );
    expect(listed(after, 'R')).toEqual(['d:docs:R:"d"']);
    expect(listed(after, 'd')).toEqual(['b:docs/b.txt:d:"b"', 'a:docs/a.txt:d:"a2"']);
    expect(touched.size).toBe(0);
  });

  it('asks for both folders when a listing is not cached or the item is not where it says', () => {
    const touched = new Set<string>();
    const before = cache();
    const after = withOwnMoves(
      before,
      [
        { remoteId: 'a', fromParentId: 'R', toParentId: 'unknown', name: null, eTag: '"a2"' },
        { remoteId: 'x', fromParentId: 'd', toParentId: 'R', name: 'x', eTag: '"x2"' },
      ],
      touched,
    );
    expect(touched).toEqual(new Set(['R', 'unknown', 'd']));
    expect(listed(after, 'R')).toEqual(listed(before, 'R'));
    expect(listed(after, 'd')).toEqual(listed(before, 'd'));
  });
});
