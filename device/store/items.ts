// The item repository: every read and write of the `items` table goes through here.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.ts';
import { conflict } from '../http/errors.ts';
import { newEtag } from './tags.ts';

export type ItemState = 'live' | 'uploading' | 'deleting';

export interface ItemRow {
  id: string;
  owner_id: string;
  parent_id: string | null;
  name: string;
  is_dir: 0 | 1;
  mime_type: string;
  size: number;
  m_time: number;
  c_time: number;
  hidden: string;
  etag: string;
  list_tag: string;
  blob: string | null;
  image: string | null;
  state: ItemState;
  updated_at: number;
}

export type ListOrder = 'name' | 'mTime' | 'size';

/** Where the previous page of a listing ended: the sort value and id of its last row. */
export interface ListCursor {
  value: string | number;
  id: string;
}

const orderColumn: Record<ListOrder, string> = { name: 'name', mTime: 'm_time', size: 'size' };

export interface ItemChanges {
  name?: string;
  parent_id?: string;
  m_time?: number;
  c_time?: number;
  hidden?: string;
  mime_type?: string;
  size?: number;
  blob?: string | null;
  image?: string | null;
  state?: ItemState;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class ItemStore {
  readonly #db: Db;
  readonly #get;
  readonly #childByName;
  readonly #touchParent;
  readonly #touchParentList;
  readonly #touchGrandparentList;
  readonly #insert;
  readonly #update;
  readonly #markFileDeleting;
  readonly #markTreeDeleting;
  readonly #hasLiveChildren;
  readonly #ancestry;
  readonly #listStatements = new Map<string, Statement<(string | number)[], ItemRow>>();

  constructor(db: Db) {
    this.#db = db;
    this.#get = db.prepare<[string], ItemRow>('SELECT * FROM items WHERE id = ?');
    this.#childByName = db.prepare<[string, string], ItemRow>(
      "SELECT * FROM items WHERE parent_id = ? AND name = ? AND state = 'live'",
    );
    this.#touchParent = db.prepare<[string, string, number, string]>(
      'UPDATE items SET etag = ?, list_tag = ?, updated_at = ? WHERE id = ?',
    );
    this.#touchParentList = db.prepare<[string, number, string]>(
      'UPDATE items SET list_tag = ?, updated_at = ? WHERE id = ?',
    );
    this.#touchGrandparentList = db.prepare<[string, number, string]>(
      'UPDATE items SET list_tag = ?, updated_at = ? WHERE id = (SELECT parent_id FROM items WHERE id = ?)',
    );
    // Every statement a request runs is prepared once: preparing costs more than most of them take.
    this.#insert = db.prepare<[ItemRow]>(
      `INSERT INTO items (id, owner_id, parent_id, name, is_dir, mime_type, size, m_time, c_time, hidden,
         etag, list_tag, blob, image, state, updated_at)
       VALUES (@id, @owner_id, @parent_id, @name, @is_dir, @mime_type, @size, @m_time, @c_time, @hidden,
         @etag, @list_tag, @blob, @image, @state, @updated_at)`,
    );
    this.#update = db.prepare<[ItemRow]>(
      `UPDATE items SET name = @name, parent_id = @parent_id, m_time = @m_time, c_time = @c_time,
         hidden = @hidden, mime_type = @mime_type, size = @size, blob = @blob, image = @image,
         state = @state, etag = @etag, updated_at = @updated_at
       WHERE id = @id`,
    );
    this.#markFileDeleting = db.prepare<[number, string]>(
      "UPDATE items SET state = 'deleting', updated_at = ? WHERE id = ?",
    );
    this.#markTreeDeleting = db.prepare<[string, number]>(
      `WITH RECURSIVE tree(id) AS (
         SELECT ?
         UNION ALL
         SELECT i.id FROM items i JOIN tree t ON i.parent_id = t.id
       ) UPDATE items SET state = 'deleting', updated_at = ? WHERE id IN (SELECT id FROM tree)`,
    );
    this.#hasLiveChildren = db
      .prepare<[string], number>("SELECT 1 FROM items WHERE parent_id = ? AND state = 'live' LIMIT 1")
      .pluck();
    this.#ancestry = db
      .prepare<[string], string>(
        `WITH RECURSIVE chain(id, parent_id, depth) AS (
           SELECT id, parent_id, 0 FROM items WHERE id = ?
           UNION ALL
           SELECT i.id, i.parent_id, c.depth + 1 FROM items i JOIN chain c ON i.id = c.parent_id
         ) SELECT id FROM chain ORDER BY depth`,
      )
      .pluck();
  }

  get(id: string): ItemRow | undefined {
    return this.#get.get(id);
  }

  getLive(id: string): ItemRow | undefined {
    const row = this.#get.get(id);
    return row?.state === 'live' ? row : undefined;
  }

  childByName(parentId: string, name: string): ItemRow | undefined {
    return this.#childByName.get(parentId, name);
  }

  /** One page of a folder's live children, in a stable order (the id breaks ties). */
  listChildren(
    parentId: string,
    order: ListOrder,
    direction: 'asc' | 'desc',
    limit: number,
    after: ListCursor | undefined,
  ): ItemRow[] {
    const column = orderColumn[order];
    const comparison = direction === 'asc' ? '>' : '<';
    const where = after ? `AND (${column}, id) ${comparison} (?, ?)` : '';
    const sql = `SELECT * FROM items WHERE parent_id = ? AND state = 'live' ${where}
      ORDER BY ${column} ${direction}, id ${direction} LIMIT ?`;
    const params: (string | number)[] = after ? [parentId, after.value, after.id, limit] : [parentId, limit];
    let statement = this.#listStatements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#listStatements.set(sql, statement);
    }
    return statement.all(...params);
  }

  /** Ids from `id` up to its root, `id` first. */
  ancestry(id: string): string[] {
    return this.#ancestry.all(id);
  }

  /** Inserts a new item; a live sibling with the same name is a 409. Bumps the parent's tags. */
  insert(row: Omit<ItemRow, 'etag' | 'list_tag' | 'updated_at'>, now: number): ItemRow {
    const full: ItemRow = { ...row, etag: newEtag(), list_tag: newEtag(), updated_at: now };
    try {
      this.#db.transaction(() => {
        this.#insert.run(full);
        if (full.parent_id !== null && full.state === 'live') this.#bumpParent(full.parent_id, true, now);
      })();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(row.name);
      throw error;
    }
    return full;
  }

  /**
   * Applies changes to one item and gives it a new eTag. The folders that hold it (before and after a
   * move) get a new listing tag; their own eTag changes too when a child arrives, leaves or is renamed.
   */
  update(before: ItemRow, changes: ItemChanges, now: number): ItemRow {
    const after: ItemRow = { ...before, ...changes, etag: newEtag(), updated_at: now };
    const moved = after.parent_id !== before.parent_id;
    const renamed = after.name !== before.name;
    const appeared = before.state !== 'live' && after.state === 'live';
    try {
      this.#db.transaction(() => {
        this.#update.run(after);
        if (after.state !== 'live') return;
        if (before.parent_id !== null && moved) this.#bumpParent(before.parent_id, true, now);
        if (after.parent_id !== null) this.#bumpParent(after.parent_id, moved || renamed || appeared, now);
      })();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(after.name);
      throw error;
    }
    return after;
  }

  /**
   * Hides an item and, for a folder, everything below it, in one transaction: from now on none of it is
   * visible. Rows and content are removed later by the deleter. Returns how many rows were marked.
   */
  markDeleting(item: ItemRow, now: number): number {
    return this.#db.transaction(() => {
      // A file has nothing below it: the walk down the tree is for folders only.
      const result = item.is_dir
        ? this.#markTreeDeleting.run(item.id, now)
        : this.#markFileDeleting.run(now, item.id);
      if (item.parent_id !== null) this.#bumpParent(item.parent_id, true, now);
      return result.changes;
    })();
  }

  hasLiveChildren(id: string): boolean {
    return this.#hasLiveChildren.get(id) !== undefined;
  }

  #bumpParent(parentId: string, membershipChanged: boolean, now: number): void {
    if (membershipChanged) {
      this.#touchParent.run(newEtag(), newEtag(), now, parentId);
      // The parent's new eTag shows in its own parent's listing, so that listing changed too.
      this.#touchGrandparentList.run(newEtag(), now, parentId);
    } else {
      this.#touchParentList.run(newEtag(), now, parentId);
    }
  }
}

export function nameTaken(name: string): ReturnType<typeof conflict> {
  return conflict('NAME_CONFLICT', `An item named "${name}" already exists in that folder.`);
}
