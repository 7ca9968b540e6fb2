// The versions and conflicts tables: an index of schema 4 brought to 5 keeps its items, and the queries people use (a path's versions, the deleted files, conflicts).
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import type { NewVersion } from '../../../../app/index/version-rows.ts';

const migrations = fileURLToPath(new URL('../../../../app/index/migrations/', import.meta.url));
let dir: string;
let db: IndexDb;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-version-rows-'));
});

afterEach(() => {
  if (db?.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function version(path: string, keptAtMs: number, overrides: Partial<NewVersion> = {}): NewVersion {
  return {
    path,
    blob: `${path}-${keptAtMs}`,
    reason: 'deleted',
    size: 5,
    mTimeMs: 1,
    keptAtMs,
    state: 'kept',
    inode: null,
    remoteId: null,
    contentHash: null,
    ...overrides,
  };
}

describe('migration 005', () => {
  it('brings an index of schema 4 to 5 with its items kept and no versions', () => {
    const file = join(dir, 'index.db');
    const old = new Database(file);
    for (const name of readdirSync(migrations)
      .filter((f) => /^00[1-4]-.*\.sql$/.test(f))
      .sort()) {
      old.exec(readFileSync(join(migrations, name), 'utf8'));
    }
    old.pragma('user_version = 4');
    old.exec(
      `INSERT INTO items (remote_id, parent_remote_id, path, name, kind, etag, size, m_time_ms) VALUES ('a', 'root', 'a.txt', 'a.txt', 'file', '"1"', 1, 1)`,
    );
    old.close();
    db = openIndexDb(file);
    const store = new IndexStore(db);
    expect(store.get('a')?.path).toBe('a.txt');
    expect(store.versions.usage()).toEqual({ count: 0, bytes: 0 });
    expect(store.versions.conflicts()).toEqual([]);
  });
});

describe('queries', () => {
  it('lists a path’s kept versions newest first, pending ones left out', () => {
    db = openIndexDb(':memory:');
    const { versions } = new IndexStore(db);
    versions.add(version('a.txt', 1));
    versions.add(version('a.txt', 3));
    versions.add(version('a.txt', 2));
    versions.add(version('a.txt', 4, { state: 'pending' }));
    expect(versions.ofPath('a.txt').map((row) => row.keptAtMs)).toEqual([3, 2, 1]);
    expect(versions.usage()).toEqual({ count: 3, bytes: 15 });
  });

  it('lists as deleted the newest version of each path with no synced item there, within the folder and time', () => {
    db = openIndexDb(':memory:');
    const store = new IndexStore(db);
    store.upsert({
      remoteId: 'b',
      parentRemoteId: 'root',
      path: 'b.txt',
      name: 'b.txt',
      kind: 'file',
      eTag: '"1"',
      size: 1,
      mTimeMs: 1,
      inode: null,
      localSize: null,
      localMtimeNs: null,
      contentHash: null,
    });
    const { versions } = store;
    versions.add(version('docs/a.txt', 10));
    versions.add(version('docs/a.txt', 20));
    versions.add(version('b.txt', 30));
    versions.add(version('docs0.txt', 40));
    versions.add(version('other/c.txt', 5));
    expect(versions.deleted('', 0).map((row) => [row.path, row.keptAtMs])).toEqual([
      ['docs0.txt', 40],
      ['docs/a.txt', 20],
      ['other/c.txt', 5],
    ]);
    expect(versions.deleted('docs', 0).map((row) => row.path)).toEqual(['docs/a.txt']);
    expect(versions.deleted('', 15).map((row) => row.path)).toEqual(['docs0.txt', 'docs/a.txt']);
    expect(versions.countsOfPaths(['docs/a.txt', 'b.txt', 'none'])).toEqual(
      new Map([
        ['docs/a.txt', 2],
        ['b.txt', 1],
      ]),
    );
  });

  it('records conflicts, settled ones too, and forgets them', () => {
    db = openIndexDb(':memory:');
    const { versions } = new IndexStore(db);
    const conflict = {
      copyPath: 'a (conflicted copy).txt',
      originalPath: 'a.txt',
      madeAtMs: 5,
      madeHere: true,
      settled: null,
    };
    versions.putConflict(conflict);
    expect(versions.conflicts()).toEqual([conflict]);
    versions.putConflict({ ...conflict, settled: 'both' });
    expect(versions.conflict(conflict.copyPath)?.settled).toBe('both');
    versions.removeConflict(conflict.copyPath);
    expect(versions.conflicts()).toEqual([]);
  });
});
