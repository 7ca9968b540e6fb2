// The typed repository over the sync index: items by remote id, inode or path, subtree moves, and intents.
import type Database from 'better-sqlite3';
import { BugError } from '../../common/errors.ts';
import type { IndexEntry, IndexRow, ItemKind, RelativePath } from '../model/items.ts';
import type { IndexDb } from './index-db.ts';
import { DigestStore } from './digest-store.ts';
import { FolderNames } from './folder-names.ts';
import { ListingStore } from './listing-store.ts';
import { VersionRows } from './version-rows.ts';

/**
 * What kind of change an intent announces: a remote change, or a download about to be put in place
 * (a crash between the file landing and its index row would read as a new local file).
 */
export type IntentAction = 'create-folder' | 'upload' | 'edit' | 'patch' | 'delete' | 'download';

/** A change recorded before it is made (style.md §5): sent to the device, or put in the folder. */
export interface Intent {
  id: number;
  action: IntentAction;
  /** The local path the change is about. */
  path: RelativePath;
  /** The item changed; null for a create, whose id the device has not given yet. */
  remoteId: string | null;
  /** The folder a create goes into, or a move's target folder. */
  parentRemoteId: string | null;
  /** What the executor needs to recognise its own effect after a crash (name, size, hash...). */
  detail: Record<string, unknown>;
  createdAtMs: number;
}

export type NewIntent = Omit<Intent, 'id' | 'createdAtMs'>;

/** A subtree move or rename: the item keeps its id, its path and every descendant's path change. */
export interface SubtreeMove {
  remoteId: string;
  toPath: RelativePath;
  toName: string;
  toParentRemoteId: string;
  /** The eTag the device gave for the moved item, when the move was a remote change. */
  eTag?: string;
}

interface ItemRow {
  remote_id: string;
  parent_remote_id: string;
  path: string;
  name: string;
  kind: string;
  etag: string;
  size: bigint;
  m_time_ms: bigint;
  inode: string | null;
  local_size: bigint | null;
  local_mtime_ns: bigint | null;
  content_hash: string | null;
}

interface IntentRow {
  id: bigint;
  action: string;
  path: string;
  remote_id: string | null;
  parent_remote_id: string | null;
  detail: string;
  created_at_ms: bigint;
}

const ROW_COLUMNS = `remote_id, parent_remote_id, path, name, kind, etag, size, m_time_ms, inode, local_size,
  local_mtime_ns`;
const ITEM_COLUMNS = `${ROW_COLUMNS}, content_hash`;
// '0' is the character after '/', so [p + '/', p + '0') is exactly "below p", and it uses the path index
// (LIKE would need escaping of '%' and '_' in names and could not).
const IN_SUBTREE = `(path = :path OR (path >= :path || '/' AND path < :path || '0'))`;

function toKind(kind: string): ItemKind {
  // The literals, not the row's own copies: 100,000 rows need not hold 100,000 strings "file".
  if (kind === 'file') return 'file';
  if (kind === 'folder') return 'folder';
  throw new BugError(`Index row with kind ${JSON.stringify(kind)}`);
}

function toEntry(row: ItemRow): IndexEntry {
  return { ...toRow(row, row.parent_remote_id), contentHash: row.content_hash };
}

function toRow(row: Omit<ItemRow, 'content_hash'>, parentRemoteId: string): IndexRow {
  return {
    remoteId: row.remote_id,
    parentRemoteId,
    path: row.path,
    name: row.name,
    kind: toKind(row.kind),
    eTag: row.etag,
    size: Number(row.size),
    mTimeMs: Number(row.m_time_ms),
    inode: row.inode,
    localSize: row.local_size === null ? null : Number(row.local_size),
    localMtimeNs: row.local_mtime_ns,
  };
}

function toIntent(row: IntentRow): Intent {
  return {
    id: Number(row.id),
    action: row.action as IntentAction,
    path: row.path,
    remoteId: row.remote_id,
    parentRemoteId: row.parent_remote_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    createdAtMs: Number(row.created_at_ms),
  };
}

/**
 * Reads and writes the index. One writer: the engine that owns the folder holds the only IndexStore
 * that writes; every multi-row change runs in one transaction.
 */
export class IndexStore {
  readonly #db: IndexDb;
  readonly #statements: ReturnType<typeof prepare>;
  /** The remote walk's listings, kept in the same database. */
  readonly listings: ListingStore;
  /** What each synced folder holds on disk, as one digest (kept true by triggers on the items table). */
  readonly digests: DigestStore;
  /** Content kept before this client replaced or removed it, and the conflicts settled by keeping both. */
  readonly versions: VersionRows;
  /** A folder's names and kinds alone (what the state service's `children` reads). */
  readonly folderNames: FolderNames;

  constructor(db: IndexDb) {
    this.#db = db;
    this.#statements = prepare(db);
    this.listings = new ListingStore(db);
    this.digests = new DigestStore(db);
    this.versions = new VersionRows(db);
    this.folderNames = new FolderNames(db);
  }

  /** Runs `work` in one IMMEDIATE transaction (nested calls join it): all of it is written, or none. */
  transaction<T>(work: () => T): T {
    if (this.#db.inTransaction) return work();
    return this.#db.transaction(work).immediate();
  }

  get(remoteId: string): IndexEntry | undefined {
    const row = this.#statements.byId.get({ remoteId }) as ItemRow | undefined;
    return row && toEntry(row);
  }

  byPath(path: RelativePath): IndexEntry | undefined {
    const row = this.#statements.byPath.get({ path }) as ItemRow | undefined;
    return row && toEntry(row);
  }

  /** Usually one entry; hard links share an inode, so the caller checks kind, size and mtime. */
  byInode(inode: string): IndexEntry[] {
    return (this.#statements.byInode.all({ inode }) as ItemRow[]).map((row) => toEntry(row));
  }

  /** The rows below `path` (not its own), ordered by path: parents before their children. */
  below(path: RelativePath): IndexEntry[] {
    return (this.#statements.below.all({ path }) as ItemRow[]).map((row) => toEntry(row));
  }

  children(parentRemoteId: string): IndexEntry[] {
    return (this.#statements.children.all({ parentRemoteId }) as ItemRow[]).map((row) => toEntry(row));
  }

  /**
   * Every row without its content hash (what a pass reads of every item), ordered by path, one at a
   * time (100,000 rows need not be in memory at once). The connection is busy until the loop ends:
   * write after it, not inside it.
   */
  *entries(): Generator<IndexRow> {
    // Siblings share their parent's id string (a read makes a new string per row).
    const parents = new Map<string, string>();
    for (const row of this.#statements.all.iterate() as IterableIterator<Omit<ItemRow, 'content_hash'>>) {
      let parent = parents.get(row.parent_remote_id);
      if (parent === undefined) {
        parent = row.parent_remote_id;
        parents.set(parent, parent);
      }
      yield toRow(row, parent);
    }
  }

  /**
   * Rows at `path` or below it, by their stored path (a path stored in another Unicode form than
   * `path` is not found: `nonAsciiRows` holds every such row). What a scoped round reads of the index.
   */
  rowsWithin(path: RelativePath): IndexRow[] {
    return this.#rows(this.#statements.within.all({ path }));
  }

  /** The rows whose stored path's folder is `path` (`''`: the top level), as `rowsWithin` compares them. */
  rowsInFolder(path: RelativePath): IndexRow[] {
    return this.#rows(
      path === '' ? this.#statements.topLevel.all() : this.#statements.inFolder.all({ path }),
    );
  }

  /** The rows whose stored path is not all ASCII: their NFC form may differ from it. */
  nonAsciiRows(): IndexRow[] {
    return this.#rows(this.#statements.nonAscii.all());
  }

  #rows(found: unknown[]): IndexRow[] {
    return (found as Omit<ItemRow, 'content_hash'>[]).map((row) => toRow(row, row.parent_remote_id));
  }

  count(): number {
    return Number(this.#statements.count.pluck().get());
  }

  upsert(entry: IndexEntry): void {
    this.#statements.upsert.run(toParams(entry));
  }

  upsertMany(entries: Iterable<IndexEntry>): void {
    this.transaction(() => {
      for (const entry of entries) this.upsert(entry);
    });
  }

  /** Deletes one row by id; true when it existed. */
  delete(remoteId: string): boolean {
    return this.#statements.deleteOne.run({ remoteId }).changes > 0;
  }

  /** Gives every child of `fromParentId` the parent `toParentId` (a folder replaced by a new one); returns how many. */
  reparent(fromParentId: string, toParentId: string): number {
    return this.#statements.reparent.run({ fromParentId, toParentId }).changes;
  }

  /** Deletes the item at `path` and everything below it, in one statement; returns how many rows went. */
  deleteSubtree(path: RelativePath): number {
    if (path === '') throw new BugError('deleteSubtree of the sync root');
    return this.#statements.deleteSubtree.run({ path }).changes;
  }

  /**
   * Renames or moves an item and rewrites every descendant's path in one statement, all in one
   * transaction. Returns how many rows' paths changed (the item itself included).
   */
  moveSubtree(move: SubtreeMove): number {
    return this.transaction(() => {
      const item = this.get(move.remoteId);
      if (!item) throw new BugError(`moveSubtree of ${move.remoteId}, which is not in the index`);
      if (move.toPath.startsWith(`${item.path}/`)) throw new BugError(`Moving ${item.path} into itself`);
      const changed = this.#statements.movePaths.run({ path: item.path, toPath: move.toPath }).changes;
      this.#statements.moveItem.run({
        remoteId: move.remoteId,
        name: move.toName,
        parentRemoteId: move.toParentRemoteId,
        eTag: move.eTag ?? null,
      });
      return changed;
    });
  }

  /**
   * Forgets every item, intent and folder digest in one transaction: the pair starts again as if new
   * (its remote folder and settings in the meta table stay), merging both sides with nothing deleted.
   */
  forgetItems(): void {
    this.transaction(() => {
      for (const statement of this.#statements.forget) statement.run();
    });
  }

  /** Records a change before it is made; returns the intent's id. */
  recordIntent(intent: NewIntent, nowMs: number = Date.now()): number {
    const result = this.#statements.insertIntent.run({
      action: intent.action,
      path: intent.path,
      remoteId: intent.remoteId,
      parentRemoteId: intent.parentRemoteId,
      detail: JSON.stringify(intent.detail),
      createdAtMs: nowMs,
    });
    return Number(result.lastInsertRowid);
  }

  /**
   * The change took effect: `updateIndex` writes what the device answered and the intent is dropped,
   * in one transaction, so a crash leaves either the intent or its result, never neither.
   */
  completeIntent(id: number, updateIndex: (store: IndexStore) => void = () => {}): void {
    this.transaction(() => {
      updateIndex(this);
      this.#statements.deleteIntent.run({ id });
    });
  }

  /** Intents of changes whose outcome is not known (a crash, or an OUTCOME_UNKNOWN answer). */
  pendingIntents(): Intent[] {
    return (this.#statements.intents.all() as IntentRow[]).map(toIntent);
  }

  getMeta(key: string): string | undefined {
    return this.#statements.getMeta.pluck().get({ key }) as string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.#statements.setMeta.run({ key, value });
  }

  /** True when the key was there. */
  deleteMeta(key: string): boolean {
    return this.#statements.deleteMeta.run({ key }).changes > 0;
  }

  /** Rows this connection inserted, changed or deleted since it opened (SQLite's `total_changes()`). */
  writeCount(): number {
    return Number(this.#statements.totalChanges.pluck().get());
  }
}

function toParams(entry: IndexEntry): Record<string, unknown> {
  return {
    remoteId: entry.remoteId,
    parentRemoteId: entry.parentRemoteId,
    path: entry.path,
    name: entry.name,
    kind: entry.kind,
    eTag: entry.eTag,
    size: entry.size,
    mTimeMs: entry.mTimeMs,
    inode: entry.inode,
    localSize: entry.localSize,
    localMtimeNs: entry.localMtimeNs,
    contentHash: entry.contentHash,
  };
}

function prepare(db: IndexDb) {
  // Reads return 64-bit integers as BigInt so local_mtime_ns comes back exactly; toEntry narrows the rest.
  const read = (sql: string): Database.Statement => db.prepare(sql).safeIntegers(true);
  return {
    byId: read(`SELECT ${ITEM_COLUMNS} FROM items WHERE remote_id = :remoteId`),
    byPath: read(`SELECT ${ITEM_COLUMNS} FROM items WHERE path = :path`),
    byInode: read(`SELECT ${ITEM_COLUMNS} FROM items WHERE inode = :inode ORDER BY path`),
    children: read(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE parent_remote_id = :parentRemoteId ORDER BY path`,
    ),
    all: read(`SELECT ${ROW_COLUMNS} FROM items ORDER BY path`),
    below: read(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE path >= :path || '/' AND path < :path || '0' ORDER BY path`,
    ),
    count: read(`SELECT count(*) FROM items`),
    within: read(`SELECT ${ROW_COLUMNS} FROM items WHERE ${IN_SUBTREE}`),
    topLevel: read(`SELECT ${ROW_COLUMNS} FROM items WHERE instr(path, '/') = 0`),
    // substr and length count characters, so what follows `path/` is cut exactly.
    inFolder: read(
      `SELECT ${ROW_COLUMNS} FROM items WHERE path >= :path || '/' AND path < :path || '0'
         AND instr(substr(path, length(:path) + 2), '/') = 0`,
    ),
    // More bytes than characters: a character above U+007F. A scan of the path index (40 ms for a
    // million rows; a GLOB for such a character took 200 ms).
    nonAscii: read(`SELECT ${ROW_COLUMNS} FROM items WHERE octet_length(path) != length(path)`),

    upsert: db.prepare(
      `INSERT INTO items (${ITEM_COLUMNS})
       VALUES (:remoteId, :parentRemoteId, :path, :name, :kind, :eTag, :size, :mTimeMs, :inode, :localSize,
         :localMtimeNs, :contentHash)
       ON CONFLICT (remote_id) DO UPDATE SET parent_remote_id = excluded.parent_remote_id, path = excluded.path,
         name = excluded.name, kind = excluded.kind, etag = excluded.etag, size = excluded.size,
         m_time_ms = excluded.m_time_ms, inode = excluded.inode, local_size = excluded.local_size,
         local_mtime_ns = excluded.local_mtime_ns, content_hash = excluded.content_hash`,
    ),
    deleteOne: db.prepare(`DELETE FROM items WHERE remote_id = :remoteId`),
    reparent: db.prepare(
      `UPDATE items SET parent_remote_id = :toParentId WHERE parent_remote_id = :fromParentId`,
    ),
    deleteSubtree: db.prepare(`DELETE FROM items WHERE ${IN_SUBTREE}`),
    // substr and length both count characters, so the prefix is cut exactly.
    movePaths: db.prepare(
      `UPDATE items SET path = :toPath || substr(path, length(:path) + 1) WHERE ${IN_SUBTREE}`,
    ),
    moveItem: db.prepare(
      `UPDATE items SET name = :name, parent_remote_id = :parentRemoteId, etag = coalesce(:eTag, etag)
       WHERE remote_id = :remoteId`,
    ),
    insertIntent: db.prepare(
      `INSERT INTO intents (action, path, remote_id, parent_remote_id, detail, created_at_ms)
       VALUES (:action, :path, :remoteId, :parentRemoteId, :detail, :createdAtMs)`,
    ),
    deleteIntent: db.prepare(`DELETE FROM intents WHERE id = :id`),
    // Digests first: the items' delete trigger would otherwise delete them one row at a time.
    forget: ['folder_digests', 'items', 'intents'].map((table) => db.prepare(`DELETE FROM ${table}`)),
    intents: read(`SELECT * FROM intents ORDER BY id`),
    getMeta: db.prepare(`SELECT value FROM meta WHERE key = :key`),
    totalChanges: db.prepare(`SELECT total_changes()`),
    deleteMeta: db.prepare(`DELETE FROM meta WHERE key = :key`),
    setMeta: db.prepare(
      `INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
  };
}
