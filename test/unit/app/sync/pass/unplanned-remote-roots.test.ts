// A scoped round's walk: device changes it saw outside its scope are named for the next poll, its own writes are not.
import { describe, expect, it } from 'vitest';
import type { IndexEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import { PassScope, unplannedRemoteRoots } from '../../../../../app/sync/pass/pass-scope.ts';
import type { RemoteWalkResult } from '../../../../../app/sync/remote/remote-walk.ts';

function row(remoteId: string, path: string, parentRemoteId: string, kind: 'file' | 'folder'): IndexEntry {
  return {
    remoteId,
    parentRemoteId,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind,
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
    inode: `i-${remoteId}`,
    localSize: 1,
    localMtimeNs: 1n,
    contentHash: null,
  };
}

function entry(id: string, path: string, parentId: string, kind: 'file' | 'folder'): RemoteEntry {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { id, parentId, path, name, kind, eTag: 'e', size: 1, mTimeMs: 1 };
}

function walkOf(entries: RemoteEntry[], listed: string[]): RemoteWalkResult {
  return {
    entries: new Map(entries.map((item) => [item.id, item])),
    rejected: [],
    vanished: [],
    listed: new Set(listed),
    excluded: [],
    cache: { pageSize: undefined, folders: new Map() },
    stats: { listed: listed.length, notModified: 0, trusted: 0 },
  } as unknown as RemoteWalkResult;
}

/** The index of `sub` (folder s) holding `sub/a` and of `docs` (file d), all in the root folder. */
const rows = [
  row('s', 'sub', 'root', 'folder'),
  row('a', 'sub/a', 's', 'file'),
  row('d', 'docs', 'root', 'file'),
];
const index = {
  get: (id: string) => rows.find((item) => item.remoteId === id),
  children: (parentId: string) => rows.filter((item) => item.parentRemoteId === parentId),
};
const synced = [
  entry('s', 'sub', 'root', 'folder'),
  entry('a', 'sub/a', 's', 'file'),
  entry('d', 'docs', 'root', 'file'),
];

describe('unplannedRemoteRoots', () => {
  it('names a folder listed in full outside the scope when another client added to it', () => {
    const walk = walkOf([...synced, entry('n', 'sub/notes', 's', 'folder')], ['s']);
    expect(unplannedRemoteRoots(walk, index, 'root', new PassScope(['docs']))).toEqual(['sub']);
  });

  it('names nothing for a folder listed in full only because this engine wrote into it', () => {
    const walk = walkOf(synced, ['s', 'root']);
    expect(unplannedRemoteRoots(walk, index, 'root', new PassScope(['docs']))).toEqual([]);
  });

  it('names nothing inside the scope: the round plans it', () => {
    const walk = walkOf([...synced, entry('n', 'sub/notes', 's', 'folder')], ['s']);
    expect(unplannedRemoteRoots(walk, index, 'root', new PassScope(['sub']))).toEqual([]);
  });

  it('names a file edited by another client (new size or time) and the whole tree for the root folder', () => {
    const edited = { ...entry('d', 'docs', 'root', 'file'), size: 7 };
    const walk = walkOf([synced[0] as RemoteEntry, synced[1] as RemoteEntry, edited], ['root']);
    expect(unplannedRemoteRoots(walk, index, 'root', new PassScope(['sub/a']))).toEqual(['']);
  });
});
