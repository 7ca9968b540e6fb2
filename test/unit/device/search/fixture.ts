// A device database in a temporary folder with two users and the search services, for unit tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIR_MIME_TYPE } from '../../../../common/wire/device-api.ts';
import { openDatabase, type Db } from '../../../../device/db/database.ts';
import type { UserPrincipal } from '../../../../device/http/auth.ts';
import { Permissions } from '../../../../device/permissions.ts';
import { SearchIndexer } from '../../../../device/search/indexer.ts';
import { MediaSearch } from '../../../../device/search/media-search.ts';
import { TextSearch } from '../../../../device/search/text-search.ts';
import { ItemStore, type ItemRow } from '../../../../device/store/items.ts';
import { newId } from '../../../../device/store/tags.ts';
import { UserStore } from '../../../../device/store/users.ts';

export interface SearchFixture {
  dir: string;
  db: Db;
  items: ItemStore;
  permissions: Permissions;
  indexer: SearchIndexer;
  textSearch: TextSearch;
  mediaSearch: MediaSearch;
  alice: UserPrincipal;
  bob: UserPrincipal;
  /** Inserts a live item (a file unless `mimeType` is the folder type) and returns its row. */
  add(parentId: string, name: string, fields?: Partial<ItemRow>): ItemRow;
  /** Gives `principal` ReadFile on `itemId`, as a share would. */
  grantRead(principal: UserPrincipal, itemId: string): void;
  close(): void;
}

const SCOPES: ReadonlySet<string> = new Set(['nas_read_write']);
const NOW = Date.parse('2026-01-01T00:00:00.000Z');

export function createSearchFixture(): SearchFixture {
  const dir = mkdtempSync(join(tmpdir(), 'mch-search-unit-'));
  const db = openDatabase(join(dir, 'device.db'));
  const items = new ItemStore(db);
  const users = new UserStore(db, items);
  const permissions = new Permissions(db);
  const indexer = new SearchIndexer(db, (error) => {
    throw error;
  });
  const principal = (name: string): UserPrincipal => {
    const user = users.ensure(name, `${name}-password`, NOW).user;
    return { kind: 'user', userId: user.id, rootId: user.root_id, scopes: SCOPES };
  };
  const alice = principal('alice');
  const bob = principal('bob');
  return {
    dir,
    db,
    items,
    permissions,
    indexer,
    textSearch: new TextSearch({ db, permissions }, indexer),
    mediaSearch: new MediaSearch({ db, permissions }),
    alice,
    bob,
    add: (parentId, name, fields = {}) => {
      const parent = items.get(parentId);
      if (!parent) throw new Error(`no parent ${parentId}`);
      const isDir = fields.mime_type === DIR_MIME_TYPE ? 1 : 0;
      return items.insert(
        {
          id: newId(),
          owner_id: parent.owner_id,
          parent_id: parentId,
          name,
          is_dir: isDir,
          mime_type: 'application/octet-stream',
          size: 0,
          m_time: NOW,
          c_time: NOW,
          hidden: 'none',
          blob: null,
          image: null,
          state: 'live',
          ...fields,
        },
        NOW,
      );
    },
    grantRead: (principal, itemId) => {
      db.prepare(
        `INSERT INTO file_perms (id, file_id, entity_id, entity_type, value, created_on)
         VALUES (?, ?, ?, 'user', 'ReadFile', ?)`,
      ).run(newId(), itemId, principal.userId, NOW);
    },
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
