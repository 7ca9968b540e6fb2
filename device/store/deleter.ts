// Finishes folder deletes in the background: removes the content and rows of items marked 'deleting'.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import type { BlobStore } from './blobs.ts';

const BATCH = 500;
/**
 * How long the deletes of a burst gather before a sweep removes them: each sweep is a transaction
 * and a read of the 'deleting' rows, which for one file at a time cost more than its delete itself.
 */
const GATHER_MS = 50;

export class Deleter {
  readonly #db: Db;
  readonly #blobs: BlobStore;
  readonly #onError: (error: unknown) => void;
  #running: Promise<void> | undefined;
  #again = false;
  #gathering: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Db, blobs: BlobStore, onError: (error: unknown) => void) {
    this.#db = db;
    this.#blobs = blobs;
    this.#onError = onError;
  }

  /** Starts a sweep in GATHER_MS, so that the deletes of a burst go in one. */
  kick(): void {
    if (this.#closed || this.#gathering) return;
    this.#gathering = setTimeout(() => {
      this.#gathering = undefined;
      this.#start();
    }, GATHER_MS);
    // What is marked 'deleting' is on disk: if the process ends first, the next start finishes it.
    this.#gathering.unref();
  }

  /** Starts a sweep now, or asks the running one to look again when it finishes. */
  #start(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#sweep()
      .catch(this.#onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.#start();
        }
      });
  }

  /** Resolves when nothing is left to delete (or the deleter was closed). */
  async idle(): Promise<void> {
    if (this.#gathering) {
      clearTimeout(this.#gathering);
      this.#gathering = undefined;
      this.#start();
    }
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    await this.idle();
  }

  async #sweep(): Promise<void> {
    // Only an unfinished resumable upload has bytes under uploads/ (its row goes with the item's).
    // `state <> 'live'` lets SQLite use the partial index items_state, which `state = 'deleting'` alone
    // does not: without it every sweep read the whole table, however few rows it had to remove.
    const select = this.#db.prepare<[number], { id: string; blob: string | null; upload: 0 | 1 }>(
      `SELECT i.id, i.blob, u.item_id IS NOT NULL AS upload FROM items i
         LEFT JOIN resumable_uploads u ON u.item_id = i.id
       WHERE i.state <> 'live' AND i.state = 'deleting' LIMIT ?`,
    );
    const remove = this.#db.prepare<[string]>('DELETE FROM items WHERE id = ?');
    for (;;) {
      if (this.#closed) return;
      const rows = select.all(BATCH);
      if (rows.length === 0) return;
      // Content first, then rows: a crash in between leaves rows that the next sweep finishes.
      // An unfinished resumable upload inside the folder has its bytes under uploads/ instead.
      await Promise.all(
        rows.map(async (row) => {
          if (row.blob) await this.#blobs.remove(row.blob);
          if (row.upload) await this.#blobs.removePath(this.#blobs.uploadPath(row.id));
        }),
      );
      this.#db.transaction(() => {
        for (const row of rows) remove.run(row.id);
      })();
      await yieldToEventLoop();
    }
  }
}
