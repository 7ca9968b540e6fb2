// Finishes folder deletes in the background: removes the content and rows of items marked 'deleting'.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import type { BlobStore } from './blobs.ts';

const BATCH = 500;

export class Deleter {
  readonly #db: Db;
  readonly #blobs: BlobStore;
  readonly #onError: (error: unknown) => void;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(db: Db, blobs: BlobStore, onError: (error: unknown) => void) {
    this.#db = db;
    this.#blobs = blobs;
    this.#onError = onError;
  }

  /** Starts a sweep, or asks the running one to look again when it finishes. */
  kick(): void {
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
          this.kick();
        }
      });
  }

  /** Resolves when nothing is left to delete (or the deleter was closed). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.idle();
  }

  async #sweep(): Promise<void> {
    const select = this.#db.prepare<[number], { id: string; blob: string | null }>(
      "SELECT id, blob FROM items WHERE state = 'deleting' LIMIT ?",
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
          await this.#blobs.removePath(this.#blobs.uploadPath(row.id));
        }),
      );
      this.#db.transaction(() => {
        for (const row of rows) remove.run(row.id);
      })();
      await yieldToEventLoop();
    }
  }
}
