// The index's folder digests (what each synced folder holds on disk, as its rows say), read and written in bulk.
import type { ItemKind, RelativePath } from '../model/items.ts';
import { digestLine, digestOfLines } from '../model/folder-digest.ts';
import { baseName } from '../model/paths.ts';
import type { IndexDb } from './index-db.ts';

interface ChildRow {
  path: string;
  kind: ItemKind;
  inode: string | null;
  local_size: bigint | null;
  local_mtime_ns: bigint | null;
}

export class DigestStore {
  readonly #db: IndexDb;
  readonly #statements: ReturnType<typeof prepare>;

  constructor(db: IndexDb) {
    this.#db = db;
    this.#statements = prepare(db);
  }

  /** Every stored digest by folder id (one row per synced folder, about 1 in 100 items). */
  all(): Map<string, string> {
    const digests = new Map<string, string>();
    for (const row of this.#statements.all.iterate() as IterableIterator<{
      folderId: string;
      digest: string;
    }>) {
      digests.set(row.folderId, row.digest);
    }
    return digests;
  }

  /** The remote id of every synced folder by its path (as on disk). */
  folderIdsByPath(): Map<RelativePath, string> {
    const ids = new Map<RelativePath, string>();
    for (const row of this.#statements.folders.iterate() as IterableIterator<{ path: string; id: string }>) {
      ids.set(row.path, row.id);
    }
    return ids;
  }

  /**
   * Writes the digest of every folder that has none (`rootId`, the synced folder, included), from its
   * rows as they are now; returns how many were written. One transaction.
   */
  fillMissing(rootId: string): number {
    const write = (): number => {
      const missing = this.#statements.missing.pluck().all() as string[];
      if (this.#statements.get.get({ folderId: rootId }) === undefined) missing.push(rootId);
      for (const folderId of missing) {
        const lines: string[] = [];
        for (const row of this.#statements.children.iterate({ folderId }) as IterableIterator<ChildRow>) {
          lines.push(
            digestLine({
              name: baseName(row.path),
              kind: row.kind,
              inode: row.inode,
              size: row.local_size === null ? null : Number(row.local_size),
              mtimeNs: row.local_mtime_ns,
            }),
          );
        }
        this.#statements.put.run({ folderId, digest: digestOfLines(lines) });
      }
      return missing.length;
    };
    return this.#db.inTransaction ? write() : this.#db.transaction(write).immediate();
  }

  clear(): void {
    this.#statements.clear.run();
  }
}

function prepare(db: IndexDb) {
  return {
    all: db.prepare(`SELECT folder_id AS folderId, digest FROM folder_digests`),
    get: db.prepare(`SELECT digest FROM folder_digests WHERE folder_id = :folderId`),
    // The literal 'folder' lets SQLite use the partial index items_folders.
    folders: db.prepare(`SELECT path, remote_id AS id FROM items WHERE kind = 'folder'`),
    missing: db.prepare(
      `SELECT remote_id FROM items WHERE kind = 'folder'
       AND NOT EXISTS (SELECT 1 FROM folder_digests WHERE folder_id = items.remote_id)`,
    ),
    // 64-bit integers as BigInt: nanosecond mtimes come back exactly.
    children: db
      .prepare(
        `SELECT path, kind, inode, local_size, local_mtime_ns FROM items WHERE parent_remote_id = :folderId`,
      )
      .safeIntegers(true),
    put: db.prepare(
      `INSERT INTO folder_digests (folder_id, digest) VALUES (:folderId, :digest)
       ON CONFLICT (folder_id) DO UPDATE SET digest = excluded.digest`,
    ),
    clear: db.prepare(`DELETE FROM folder_digests`),
  };
}
