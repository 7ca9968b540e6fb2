// The share repository: every read and write of the `shares` and `share_files` tables (device-api.md §4).
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.ts';

export interface ShareRow {
  id: string;
  auth_id: string;
  owner_id: string;
  device_id: string;
  metadata: string | null;
  date_created: number;
  last_modified: number;
}

/** A share with its items, in the order the owner gave them. */
export interface ShareWithFiles extends ShareRow {
  fileIds: string[];
  /** Its place in the order of creation, in listings only. */
  seq?: number;
}

/** Where the previous page of a listing ended: the insertion sequence (rowid) of its last share. */
export type ShareCursor = number;

/** 128 random bits, base64url: a share id is the link's only credential (device-api.md §4, decided). */
export function newShareSecret(): string {
  return randomBytes(16).toString('base64url');
}

export class ShareStore {
  readonly #db: Db;
  readonly #get: Statement<[string], ShareRow>;
  readonly #byAuthId: Statement<[string], ShareRow>;
  readonly #files: Statement<[string], { file_id: string }>;

  constructor(db: Db) {
    this.#db = db;
    this.#get = db.prepare('SELECT * FROM shares WHERE id = ?');
    // Looked up on every request that carries a share token, so prepared once.
    this.#byAuthId = db.prepare('SELECT * FROM shares WHERE auth_id = ?');
    this.#files = db.prepare('SELECT file_id FROM share_files WHERE share_id = ? ORDER BY position');
  }

  create(ownerId: string, deviceId: string, fileIds: readonly string[], now: number): ShareWithFiles {
    const row: ShareRow = {
      id: newShareSecret(),
      auth_id: newShareSecret(),
      owner_id: ownerId,
      device_id: deviceId,
      metadata: null,
      date_created: now,
      last_modified: now,
    };
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO shares (id, auth_id, owner_id, device_id, metadata, date_created, last_modified)
           VALUES (@id, @auth_id, @owner_id, @device_id, @metadata, @date_created, @last_modified)`,
        )
        .run(row);
      const insertFile = this.#db.prepare<[string, number, string]>(
        'INSERT INTO share_files (share_id, position, file_id) VALUES (?, ?, ?)',
      );
      fileIds.forEach((fileId, position) => insertFile.run(row.id, position, fileId));
    })();
    return { ...row, fileIds: [...fileIds] };
  }

  get(shareId: string): ShareWithFiles | undefined {
    const row = this.#get.get(shareId);
    return row && this.#withFiles(row);
  }

  byAuthId(authId: string): ShareRow | undefined {
    return this.#byAuthId.get(authId);
  }

  /**
   * One page of an owner's shares, newest first; with `fileId`, only the shares that hold it. The rowid
   * orders them, since several shares may be made within one millisecond.
   */
  listByOwner(
    ownerId: string,
    options: { fileId?: string; limit: number; after?: ShareCursor },
  ): ShareWithFiles[] {
    const where = ['owner_id = @ownerId'];
    if (options.fileId !== undefined) {
      where.push('id IN (SELECT share_id FROM share_files WHERE file_id = @fileId)');
    }
    if (options.after !== undefined) where.push('rowid < @after');
    const rows = this.#db
      .prepare<Record<string, string | number>, ShareRow & { seq: number }>(
        `SELECT rowid AS seq, * FROM shares WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT @limit`,
      )
      .all({
        ownerId,
        limit: options.limit,
        ...(options.fileId === undefined ? {} : { fileId: options.fileId }),
        ...(options.after === undefined ? {} : { after: options.after }),
      });
    return rows.map(({ seq, ...row }) => ({ ...this.#withFiles(row), seq }));
  }

  /**
   * Removes a share and every permission granted to its entity, in one transaction: the link and any
   * token issued for it stop working at once (device-api.md §4, decided). Returns whether it existed.
   */
  delete(shareId: string): boolean {
    return this.#db.transaction(() => {
      const row = this.#get.get(shareId);
      if (!row) return false;
      this.#db
        .prepare("DELETE FROM file_perms WHERE entity_id = ? AND entity_type = 'cloudShare'")
        .run(row.auth_id);
      this.#db.prepare('DELETE FROM shares WHERE id = ?').run(shareId);
      return true;
    })();
  }

  #withFiles(row: ShareRow): ShareWithFiles {
    return { ...row, fileIds: this.#files.all(row.id).map((file) => file.file_id) };
  }
}
