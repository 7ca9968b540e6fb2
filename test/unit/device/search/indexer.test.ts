// Unit tests of the search index upkeep: the triggers of migration 002, its backfill, and the indexer.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIR_MIME_TYPE } from '../../../../common/wire/device-api.ts';
import { openDatabase } from '../../../../device/db/database.ts';
import type { UserPrincipal } from '../../../../device/http/auth.ts';
import { Permissions } from '../../../../device/permissions.ts';
import { SearchIndexer } from '../../../../device/search/indexer.ts';
import { searchTerms } from '../../../../device/search/query.ts';
import { TextSearch } from '../../../../device/search/text-search.ts';
import { createSearchFixture, type SearchFixture } from './fixture.ts';

let fixture: SearchFixture;

beforeEach(() => {
  fixture = createSearchFixture();
});

afterEach(() => fixture.close());

function queued(): string[] {
  return fixture.db
    .prepare<[], { item_id: string }>('SELECT item_id FROM search_queue ORDER BY seq')
    .all()
    .map((row) => row.item_id);
}

async function names(q: string, principal: UserPrincipal = fixture.alice): Promise<string[]> {
  const page = await fixture.textSearch.search(principal, searchTerms(q), 1000);
  return page.matches.map((match) => match.row.name);
}

describe('the triggers of migration 002', () => {
  it('queue a new live item, but not a root or an unfinished upload', () => {
    fixture.db.prepare('DELETE FROM search_queue').run();
    const file = fixture.add(fixture.alice.rootId, 'a.txt');
    fixture.add(fixture.alice.rootId, 'upload.bin', { state: 'uploading' });
    expect(queued()).toEqual([file.id]);
  });

  it('queue an item whose name, mimeType, image or state changes, once until it is indexed', () => {
    const file = fixture.add(fixture.alice.rootId, 'a.txt');
    fixture.db.prepare('DELETE FROM search_queue').run();
    const renamed = fixture.items.update(file, { name: 'b.txt' }, 1);
    fixture.items.update(renamed, { image: '{"cameraMake":"Canon"}' }, 2);
    expect(queued()).toEqual([file.id]);
  });

  it('queue nothing when only tags or times change (every child change bumps its folder)', () => {
    const folder = fixture.add(fixture.alice.rootId, 'folder', { mime_type: DIR_MIME_TYPE });
    const file = fixture.add(folder.id, 'a.txt');
    fixture.db.prepare('DELETE FROM search_queue').run();
    fixture.items.update(file, { m_time: 5, size: 3 }, 3);
    expect(queued()).toEqual([]);
  });

  it('queue every item of a deleted folder', () => {
    const folder = fixture.add(fixture.alice.rootId, 'folder', { mime_type: DIR_MIME_TYPE });
    const file = fixture.add(folder.id, 'a.txt');
    fixture.db.prepare('DELETE FROM search_queue').run();
    fixture.items.markDeleting(folder, 4);
    expect(queued().sort()).toEqual([folder.id, file.id].sort());
  });
});

describe('the indexer', () => {
  it('finds an upload only once it is committed', async () => {
    const upload = fixture.add(fixture.alice.rootId, 'movie.mp4', { state: 'uploading' });
    expect(await names('movie')).toEqual([]);
    fixture.items.update(upload, { state: 'live' }, 5);
    expect(await names('movie')).toEqual(['movie.mp4']);
  });

  it('drops the items of a deleted folder at once', async () => {
    const folder = fixture.add(fixture.alice.rootId, 'trip', { mime_type: DIR_MIME_TYPE });
    fixture.add(folder.id, 'trip photo.jpg');
    expect(await names('trip')).toEqual(['trip photo.jpg', 'trip']);
    fixture.items.markDeleting(folder, 6);
    expect(await names('trip')).toEqual([]);
  });

  it('finds a renamed item by its new name only, in the same place of the order', async () => {
    const first = fixture.add(fixture.alice.rootId, 'note one.txt');
    fixture.add(fixture.alice.rootId, 'note two.txt');
    expect(await names('note')).toEqual(['note two.txt', 'note one.txt']);
    fixture.items.update(first, { name: 'note uno.txt' }, 7);
    expect(await names('note')).toEqual(['note two.txt', 'note uno.txt']);
    expect(await names('one')).toEqual([]);
  });

  it('never finds a root, even by its folder mimeType', async () => {
    expect(await names('x.wd.dir')).toEqual([]);
  });

  it('indexes in the background after a kick', async () => {
    for (let index = 0; index < 450; index += 1) fixture.add(fixture.alice.rootId, `bulk ${index}.txt`);
    fixture.indexer.kick();
    for (let turns = 0; turns < 100 && queued().length > 0; turns += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(queued()).toEqual([]);
  });

  it('merges the index segments after a large background pass, keeping it whole', async () => {
    for (let index = 0; index < 2500; index += 1) fixture.add(fixture.alice.rootId, `bulk ${index}.txt`);
    const changes = fixture.db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    fixture.indexer.kick();
    await fixture.indexer.idle();
    const before = changes.get()?.n ?? 0;
    // Nothing is left to merge: one more merge step is a no-op (FTS5 counts the command as one change).
    fixture.db.prepare("INSERT INTO search_grams (search_grams, rank) VALUES ('merge', -256)").run();
    expect((changes.get()?.n ?? 0) - before).toBeLessThan(2);
    fixture.db.prepare("INSERT INTO search_grams (search_grams) VALUES ('integrity-check')").run();
    expect(await names('"bulk 2499."')).toEqual(['bulk 2499.txt']);
  });

  it('stops the background pass on close, leaving the rest for the next search', async () => {
    // Enough items that the first slice (40 ms) cannot take them all.
    for (let index = 0; index < 5000; index += 1) fixture.add(fixture.alice.rootId, `bulk ${index}.txt`);
    fixture.indexer.kick();
    await fixture.indexer.close();
    expect(queued().length).toBeGreaterThan(0);
    expect(await names('"bulk 4999."')).toEqual(['bulk 4999.txt']);
    expect(queued()).toEqual([]);
  });
});

describe('migration 002 on a device that has items already', () => {
  it('indexes them, oldest first in doc order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mch-search-migration-'));
    try {
      const path = join(dir, 'device.db');
      const old = new Database(path);
      old.exec(
        readFileSync(new URL('../../../../device/db/migrations/001-init.sql', import.meta.url), 'utf8'),
      );
      old.pragma('user_version = 1');
      old.exec(`INSERT INTO users VALUES ('u1', 'carol', 'carol', 'x', 'root1', 0);
        INSERT INTO items (id, owner_id, parent_id, name, is_dir, mime_type, m_time, c_time, etag, updated_at)
        VALUES ('root1', 'u1', NULL, '', 1, '${DIR_MIME_TYPE}', 0, 0, '"r"', 0),
               ('old1', 'u1', 'root1', 'older report.pdf', 0, 'application/pdf', 0, 0, '"a"', 0),
               ('old2', 'u1', 'root1', 'newer report.pdf', 0, 'application/pdf', 0, 0, '"b"', 0);
        INSERT INTO file_perms VALUES ('p1', 'root1', 'u1', 'user', 'FileOwner', 0);`);
      old.close();
      const db = openDatabase(path);
      try {
        const permissions = new Permissions(db);
        const search = new TextSearch({ db, permissions }, new SearchIndexer(db, () => {}));
        const carol: UserPrincipal = { kind: 'user', userId: 'u1', rootId: 'root1', scopes: new Set() };
        const page = await search.search(carol, searchTerms('report'), 10);
        expect(page.matches.map((match) => match.row.id)).toEqual(['old2', 'old1']);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
