// The file permission repository: grants, lookups and the granting search (device-api.md §3).
import type { Statement } from 'better-sqlite3';
import type { EntityType, FilePermRecord, FilePermValue } from '../../common/wire/sharing.ts';
import type { Db } from '../db/database.ts';
import { conflict } from '../http/errors.ts';
import { newId } from './tags.ts';

export interface FilePermRow {
  id: string;
  file_id: string;
  entity_id: string;
  entity_type: EntityType;
  value: FilePermValue;
  created_on: number;
}

export interface GrantingFilter {
  entityId?: string;
  entityType?: EntityType;
}

export function toFilePermRecord(row: FilePermRow): FilePermRecord {
  return {
    id: row.id,
    fileID: row.file_id,
    entity: { id: row.entity_id, type: row.entity_type },
    value: row.value,
  };
}

export class FilePermStore {
  readonly #db: Db;
  readonly #get: Statement<[string], FilePermRow>;

  constructor(db: Db) {
    this.#db = db;
    this.#get = db.prepare('SELECT * FROM file_perms WHERE id = ?');
  }

  get(id: string): FilePermRow | undefined {
    return this.#get.get(id);
  }

  /** Stores a new permission; the same file, entity and value twice is a 409 (device-api.md §3, observed). */
  insert(grant: Omit<FilePermRow, 'id' | 'created_on'>, now: number): FilePermRow {
    const row: FilePermRow = { ...grant, id: newId(), created_on: now };
    try {
      this.#db
        .prepare(
          `INSERT INTO file_perms (id, file_id, entity_id, entity_type, value, created_on)
           VALUES (@id, @file_id, @entity_id, @entity_type, @value, @created_on)`,
        )
        .run(row);
    } catch (error) {
      if ((error as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw conflict('PERMISSION_EXISTS', 'This entity already holds this permission on this item.');
      }
      throw error;
    }
    return row;
  }

  /**
   * One page of the permissions set on any of `fileIds` (an item and its ancestors), ordered by id so
   * that a page token stays valid while permissions come and go.
   */
  granting(
    fileIds: readonly string[],
    filter: GrantingFilter,
    limit: number,
    afterId?: string,
  ): FilePermRow[] {
    const where = [`file_id IN (${fileIds.map(() => '?').join(', ')})`];
    const params: (string | number)[] = [...fileIds];
    if (filter.entityId !== undefined) {
      where.push('entity_id = ?');
      params.push(filter.entityId);
    }
    if (filter.entityType !== undefined) {
      where.push('entity_type = ?');
      params.push(filter.entityType);
    }
    if (afterId !== undefined) {
      where.push('id > ?');
      params.push(afterId);
    }
    params.push(limit);
    return this.#db
      .prepare<(string | number)[], FilePermRow>(
        `SELECT * FROM file_perms WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`,
      )
      .all(...params);
  }

  delete(id: string): void {
    this.#db.prepare('DELETE FROM file_perms WHERE id = ?').run(id);
  }
}
