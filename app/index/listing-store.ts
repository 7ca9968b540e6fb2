// Keeps each remote folder's last listing (ETag and children) in the index, for the next process's walk.
import type { IndexDb } from './index-db.ts';

/** One folder's listing as stored: the children are text the sync engine encodes and decodes. */
export interface StoredListing {
  folderId: string;
  eTag: string;
  /** The page size the listing was read with; 0 for the device's default. */
  pageSize: number;
  /** The subfolders alone, for a walk that only needs to know where to go next. */
  folders: string;
  children: string;
}

export class ListingStore {
  readonly #db: IndexDb;
  readonly #statements: ReturnType<typeof prepare>;

  constructor(db: IndexDb) {
    this.#db = db;
    this.#statements = prepare(db);
  }

  /** The folder and ETag of every stored listing made with `pageSize`, without the children. */
  *eTags(pageSize: number): Generator<{ folderId: string; eTag: string }> {
    yield* this.#statements.eTags.iterate({ pageSize }) as IterableIterator<{
      folderId: string;
      eTag: string;
    }>;
  }

  /** One folder's stored children, or undefined when none are stored for that page size. */
  children(folderId: string, pageSize: number): string | undefined {
    return this.#statements.children.pluck().get({ folderId, pageSize }) as string | undefined;
  }

  /** One folder's stored subfolders (without reading the other children), or undefined. */
  folders(folderId: string, pageSize: number): string | undefined {
    return this.#statements.folders.pluck().get({ folderId, pageSize }) as string | undefined;
  }

  /** Writes new listings and forgets others, all in one transaction. */
  save(listings: Iterable<StoredListing>, forget: Iterable<string>): void {
    const write = (): void => {
      for (const folderId of forget) this.#statements.remove.run({ folderId });
      for (const listing of listings) this.#statements.upsert.run(listing);
    };
    if (this.#db.inTransaction) write();
    else this.#db.transaction(write).immediate();
  }

  clear(): void {
    this.#statements.clear.run();
  }
}

function prepare(db: IndexDb) {
  return {
    eTags: db.prepare(`SELECT folder_id AS folderId, etag AS eTag FROM listings WHERE page_size = :pageSize`),
    children: db.prepare(
      `SELECT children FROM listings WHERE folder_id = :folderId AND page_size = :pageSize`,
    ),
    folders: db.prepare(`SELECT folders FROM listings WHERE folder_id = :folderId AND page_size = :pageSize`),
    upsert: db.prepare(
      `INSERT INTO listings (folder_id, etag, page_size, folders, children)
       VALUES (:folderId, :eTag, :pageSize, :folders, :children)
       ON CONFLICT (folder_id) DO UPDATE SET etag = excluded.etag, page_size = excluded.page_size,
         folders = excluded.folders, children = excluded.children`,
    ),
    remove: db.prepare(`DELETE FROM listings WHERE folder_id = :folderId`),
    clear: db.prepare(`DELETE FROM listings`),
  };
}
