// Keeps the search index (migration 002) up to date: applies the item changes its triggers queued.
//
// SQLite cannot fold text the way search.ts matches it (NFC, Unicode lower case, grapheme clusters), so
// the triggers only queue the ids of changed items and this module computes their tokens. Every
// search first applies the whole queue, so it sees every change committed before it; a background
// pass after start-up (and after a migration filled the queue) does the bulk of the work early.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.ts';
import type { ItemRow } from '../store/items.ts';
import { foldText } from './fold.ts';
import { addStringTokens } from './grams.ts';
import { SEARCHED_FIELDS, searchedStrings } from './matching.ts';

/** Queue entries read at a time. */
const CHUNK = 200;
/**
 * How long one transaction may index before it commits and lets other requests in. Each commit writes
 * a new index segment, so a few dozen milliseconds per transaction index several times faster than
 * a small batch each would, and still keep every other request's wait short.
 */
const SLICE_MS = 40;
/** Tokens of strings many items share (mime types, camera names) are kept; past this many, forgotten. */
const TOKEN_CACHE_LIMIT = 5000;
/**
 * After this many items, a background pass also merges the index's segments (each commit adds one),
 * which makes queries after a bulk import several times faster; MERGE_PAGES bounds one merge step.
 */
const MERGE_AFTER = 2000;
const MERGE_PAGES = 256;
/**
 * How long the writes of a burst gather before a background pass indexes them. Each pass is a
 * transaction, and a commit per created file cost more than the file's tokens; searches never wait for
 * it, as each applies the whole queue first.
 */
const GATHER_MS = 100;

type IndexedRow = Pick<ItemRow, 'id' | 'parent_id' | 'name' | 'mime_type' | 'is_dir' | 'image' | 'state'>;

export class SearchIndexer {
  readonly #db: Db;
  readonly #onError: (error: unknown) => void;
  readonly #any: Statement<[], { one: number }>;
  readonly #queued: Statement<[number], { seq: number; item_id: string }>;
  readonly #item: Statement<[string], IndexedRow>;
  readonly #doc: Statement<[string], { doc: number }>;
  readonly #newDoc: Statement<[string]>;
  readonly #dropDoc: Statement<[number]>;
  readonly #insertTokens: Statement<[number, string]>;
  readonly #deleteTokens: Statement<[number]>;
  readonly #dequeue: Statement<[number]>;
  readonly #merge: Statement<[number]>;
  readonly #totalChanges: Statement<[], { n: number }>;
  readonly #tokenCache = new Map<string, readonly string[]>();
  #unmerged = 0;
  #running: Promise<void> | undefined;
  /** A kick asked for while a pass ran: the pass may have read the queue before the write. */
  #again = false;
  #gathering: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Db, onError: (error: unknown) => void) {
    this.#db = db;
    this.#onError = onError;
    this.#any = db.prepare('SELECT 1 AS one FROM search_queue LIMIT 1');
    this.#queued = db.prepare('SELECT seq, item_id FROM search_queue ORDER BY seq LIMIT ?');
    this.#item = db.prepare(
      'SELECT id, parent_id, name, mime_type, is_dir, image, state FROM items WHERE id = ?',
    );
    this.#doc = db.prepare('SELECT doc FROM search_docs WHERE item_id = ?');
    this.#newDoc = db.prepare('INSERT INTO search_docs (item_id) VALUES (?)');
    this.#dropDoc = db.prepare('DELETE FROM search_docs WHERE doc = ?');
    this.#insertTokens = db.prepare('INSERT INTO search_grams (rowid, grams) VALUES (?, ?)');
    this.#deleteTokens = db.prepare('DELETE FROM search_grams WHERE rowid = ?');
    this.#dequeue = db.prepare('DELETE FROM search_queue WHERE seq <= ?');
    // FTS5 'merge' with a negative page count works towards one segment, like 'optimize', in steps.
    this.#merge = db.prepare("INSERT INTO search_grams (search_grams, rank) VALUES ('merge', ?)");
    this.#totalChanges = db.prepare('SELECT total_changes() AS n');
  }

  /**
   * Resolves once the queue is empty; the last slice runs synchronously just before it resolves. It
   * shares the work with a background pass, slice by slice, and never waits for its merging.
   */
  async ready(): Promise<void> {
    while (!this.applySlice()) await yieldToEventLoop();
  }

  /** A background pass after GATHER_MS (for a write), so a burst of writes is indexed in one. */
  schedule(): void {
    if (this.#closed || this.#gathering) return;
    this.#gathering = setTimeout(() => {
      this.#gathering = undefined;
      this.kick();
    }, GATHER_MS);
    // A pending pass never keeps the process alive: the queue is on disk, the next start indexes it.
    this.#gathering.unref();
  }

  /** Starts a background pass over the queue (then merges the index after much work), or another after it. */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      while (!this.#closed && !this.applySlice()) await yieldToEventLoop();
      if (this.#unmerged < MERGE_AFTER) return;
      this.#unmerged = 0;
      while (!this.#closed && this.#mergeSlice()) await yieldToEventLoop();
    })()
      .catch(this.#onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no background pass runs or waits to (tests and benchmarks wait for indexing and merging). */
  async idle(): Promise<void> {
    if (this.#gathering) {
      clearTimeout(this.#gathering);
      this.#gathering = undefined;
      this.kick();
    }
    while (this.#running) await this.#running;
  }

  /** Stops the background pass (the database may close next). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    await this.#running;
  }

  /** Indexes queued items for up to SLICE_MS in one transaction; returns whether the queue is empty. */
  applySlice(): boolean {
    // Most searches find the queue empty: a read answers that without taking the write lock.
    if (this.#any.get() === undefined) return true;
    // IMMEDIATE: another connection (a bulk import) may write too, and a read that turns into a write
    // inside a deferred transaction could not wait for it.
    return this.#db
      .transaction(() => {
        const started = performance.now();
        for (;;) {
          const queued = this.#queued.all(CHUNK);
          for (const entry of queued) this.#reindex(entry.item_id);
          this.#unmerged += queued.length;
          const last = queued.at(-1);
          if (last) this.#dequeue.run(last.seq);
          if (queued.length < CHUNK) return true;
          if (performance.now() - started >= SLICE_MS) return false;
        }
      })
      .immediate();
  }

  /** Merges index segments for up to SLICE_MS; returns whether there may be more to merge. */
  #mergeSlice(): boolean {
    return this.#db
      .transaction(() => {
        const started = performance.now();
        while (performance.now() - started < SLICE_MS) {
          const before = this.#totalChanges.get()?.n ?? 0;
          this.#merge.run(-MERGE_PAGES);
          // FTS5 counts the command itself as one change; a step that merged nothing adds no other.
          if ((this.#totalChanges.get()?.n ?? 0) - before < 2) return false;
        }
        return true;
      })
      .immediate();
  }

  /** Brings one item's entry in line with its row: (re)written while live, gone otherwise. */
  #reindex(itemId: string): void {
    const row = this.#item.get(itemId);
    const doc = this.#doc.get(itemId)?.doc;
    // Roots are never found (device-api.md §3 search answers files and folders below a root).
    const searchable = row !== undefined && row.state === 'live' && row.parent_id !== null;
    if (doc !== undefined) this.#deleteTokens.run(doc);
    if (!searchable) {
      if (doc !== undefined) this.#dropDoc.run(doc);
      return;
    }
    // An item keeps its doc number while it stays searchable: the number is its place in results.
    const number = doc ?? Number(this.#newDoc.run(itemId).lastInsertRowid);
    this.#insertTokens.run(number, this.#documentTokens(row));
  }

  /** The index tokens of an item: grams of its folded name (`n`) and of its other searched strings (`m`). */
  #documentTokens(row: IndexedRow): string {
    const strings = searchedStrings(row);
    const tokens = new Set<string>();
    for (const field of SEARCHED_FIELDS) {
      const text = strings[field];
      // The extension is part of the name, so its grams are among the name's already.
      if (text === undefined || field === 'extension') continue;
      if (field === 'name' || field === 'date') {
        addStringTokens(field === 'name' ? 'n' : 'm', foldText(text).folded, tokens);
        continue;
      }
      for (const token of this.#sharedTokens(text)) tokens.add(token);
    }
    return [...tokens].join(' ');
  }

  #sharedTokens(text: string): readonly string[] {
    let tokens = this.#tokenCache.get(text);
    if (!tokens) {
      const into = new Set<string>();
      addStringTokens('m', foldText(text).folded, into);
      tokens = [...into];
      if (this.#tokenCache.size >= TOKEN_CACHE_LIMIT) this.#tokenCache.clear();
      this.#tokenCache.set(text, tokens);
    }
    return tokens;
  }
}
