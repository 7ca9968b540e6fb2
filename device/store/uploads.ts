// Unfinished resumable uploads: their rows, which of them a request is writing, and dropping idle ones.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.ts';
import type { ItemChanges, ItemRow, ItemStore } from './items.ts';

/**
 * An unfinished upload is an item in state 'uploading' (invisible) plus a resumable_uploads row; its
 * bytes are under uploads/<id> (BlobStore.uploadPath), which this class never touches.
 */
export class UploadStore {
  readonly #db: Db;
  readonly #items: ItemStore;
  readonly #insert: Statement<[string, number, number, number]>;
  readonly #resolveConflict: Statement<[string], number>;
  readonly #touch: Statement<[number, string]>;
  readonly #forget: Statement<[string]>;
  readonly #idle: Statement<[number], string>;
  readonly #drop: Statement<[string]>;
  readonly #unfinished: Statement<[], string>;
  /** Uploads a request is writing right now: a second writer would interleave bytes. */
  readonly #writing = new Set<string>();

  constructor(db: Db, items: ItemStore) {
    this.#db = db;
    this.#items = items;
    this.#insert = db.prepare(
      'INSERT INTO resumable_uploads (item_id, resolve_conflict, created_on, active_on) VALUES (?, ?, ?, ?)',
    );
    this.#resolveConflict = db
      .prepare<[string], number>('SELECT resolve_conflict FROM resumable_uploads WHERE item_id = ?')
      .pluck();
    this.#touch = db.prepare('UPDATE resumable_uploads SET active_on = ? WHERE item_id = ?');
    this.#forget = db.prepare('DELETE FROM resumable_uploads WHERE item_id = ?');
    // Only items still 'uploading': a committed file is never an idle upload, even with a leftover row.
    // (`state <> 'live'` lets SQLite use the partial index items_state; `= 'uploading'` alone does not.)
    this.#idle = db
      .prepare<[number], string>(
        `SELECT i.id FROM items i LEFT JOIN resumable_uploads u ON u.item_id = i.id
         WHERE i.state <> 'live' AND i.state = 'uploading' AND coalesce(u.active_on, i.updated_at) <= ?`,
      )
      .pluck();
    // resumable_uploads and file_perms rows go with the item (ON DELETE CASCADE).
    this.#drop = db.prepare("DELETE FROM items WHERE id = ? AND state = 'uploading'");
    this.#unfinished = db
      .prepare<[], string>("SELECT id FROM items WHERE state <> 'live' AND state = 'uploading'")
      .pluck();
  }

  /** Records a new unfinished upload, started (and so active) at `now`. */
  create(
    row: Omit<ItemRow, 'etag' | 'list_tag' | 'updated_at'>,
    resolveConflict: boolean,
    now: number,
  ): void {
    this.#db.transaction(() => {
      this.#items.insert({ ...row, size: 0, state: 'uploading' }, now);
      this.#insert.run(row.id, resolveConflict ? 1 : 0, now, now);
    })();
  }

  /** Whether the upload asked for `resolveNameConflict` when it was started. */
  resolvesConflict(id: string): boolean {
    return this.#resolveConflict.get(id) === 1;
  }

  /** Notes that the upload received a request with bytes (or an empty chunk) at `now`. */
  touch(id: string, now: number): void {
    this.#touch.run(now, id);
  }

  /** Claims the upload for one writing request; false when another request is writing it. */
  beginWrite(id: string): boolean {
    if (this.#writing.has(id)) return false;
    this.#writing.add(id);
    return true;
  }

  endWrite(id: string): void {
    this.#writing.delete(id);
  }

  isWriting(id: string): boolean {
    return this.#writing.has(id);
  }

  /** Turns the upload into a visible file: the item's changes and the end of its upload row together. */
  finish(current: ItemRow, changes: ItemChanges, now: number): ItemRow {
    return this.#db.transaction(() => {
      const committed = this.#items.update(current, changes, now);
      this.#forget.run(current.id);
      return committed;
    })();
  }

  /**
   * Removes, in one transaction, the rows of every upload that has received nothing since `cutoff` and
   * that no request is writing; returns their ids. Their bytes are the caller's to remove afterwards:
   * a crash in between leaves only files no row refers to, which the next start removes.
   */
  dropIdle(cutoff: number): string[] {
    return this.#db.transaction(() => {
      const dropped: string[] = [];
      for (const id of this.#idle.all(cutoff)) {
        if (this.#writing.has(id)) continue;
        if (this.#drop.run(id).changes > 0) dropped.push(id);
      }
      return dropped;
    })();
  }

  /** The ids of every unfinished upload, for the sweep of uploads/ at start. */
  unfinishedIds(): Set<string> {
    return new Set(this.#unfinished.all());
  }
}
