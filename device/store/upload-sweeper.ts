// Drops resumable uploads that have received nothing for too long, at start and then on a timer.
import type { BlobStore } from './blobs.ts';
import type { UploadStore } from './uploads.ts';

/** device-api.md §3 (decided): an upload that has received nothing for a day is dropped. */
export const DEFAULT_UPLOAD_TTL_SECONDS = 86_400;

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;

/** How often to look: a quarter of the age, between a second and an hour. */
export function sweepIntervalFor(ttlSeconds: number): number {
  return Math.min(HOUR_MS, Math.max(SECOND_MS, (ttlSeconds * SECOND_MS) / 4));
}

export interface UploadSweeperOptions {
  uploads: UploadStore;
  blobs: BlobStore;
  /** The device's clock: the age is measured with it, so tests can move time. */
  now: () => number;
  ttlSeconds: number;
  /** Wall-clock period of the timer (only the timer: the age is always read from `now`). */
  intervalMs: number;
  onError: (error: unknown) => void;
}

export class UploadSweeper {
  readonly #options: UploadSweeperOptions;
  readonly #listeners = new Set<(dropped: readonly string[]) => void>();
  #timer: NodeJS.Timeout | undefined;
  #last: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: UploadSweeperOptions) {
    this.#options = options;
  }

  get ttlSeconds(): number {
    return this.#options.ttlSeconds;
  }

  /** Starts the periodic sweep; the timer never keeps the process alive. */
  start(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setInterval(() => {
      this.sweep().catch(this.#options.onError);
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  /**
   * Drops every idle upload now, one sweep at a time; resolves with the ids dropped. Rows go first, in
   * one transaction, then the bytes: a crash in between leaves only unreferenced files under uploads/,
   * which the next start removes (as it removes unreferenced content).
   */
  sweep(): Promise<string[]> {
    const next = this.#last.catch(() => undefined).then(() => this.#sweepOnce());
    this.#last = next;
    return next;
  }

  /** Calls `listener` after each sweep with the ids it dropped (often none); returns the unsubscribe. */
  onDidSweep(listener: (dropped: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops the timer and waits for a sweep under way, so the database can be closed after it. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#last.catch(() => undefined);
  }

  async #sweepOnce(): Promise<string[]> {
    if (this.#closed) return [];
    const { uploads, blobs, now, ttlSeconds } = this.#options;
    const dropped = uploads.dropIdle(now() - ttlSeconds * SECOND_MS);
    await Promise.all(dropped.map((id) => blobs.removePath(blobs.uploadPath(id))));
    for (const listener of this.#listeners) listener(dropped);
    return dropped;
  }
}
