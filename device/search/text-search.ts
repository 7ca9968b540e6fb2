// Text search over the index (device-api.md §3 "Listing and search"): candidates, exact check, rank, pages.
//
// Order (decided): items whose name holds every term first (rank 0), then the others (rank 1); within
// a rank the most recently indexed first, that is by doc number, descending. The doc number is given
// when an item first becomes searchable and kept through renames and edits, and it is the index's own
// order, so a page costs about as much as the candidates it looks at, never a sort of every match.
import type { Db } from '../db/database.ts';
import type { Principal } from '../http/auth.ts';
import type { Permissions } from '../permissions.ts';
import type { ItemRow } from '../store/items.ts';
import { anyExpression, nameExpression } from './grams.ts';
import type { SearchIndexer } from './indexer.ts';
import { fragmentsOf, rankOf, searchedStrings, type Rank, type SearchableRow } from './matching.ts';
import { ReadableItems } from './readable.ts';
import type { SearchFragment } from './types.ts';

/** Where a page ended: the rank and doc number of its last match. */
export interface TextCursor {
  rank: Rank;
  doc: number;
}

export interface TextMatchRow {
  row: ItemRow;
  fragments: SearchFragment[];
}

export interface TextSearchPage {
  matches: TextMatchRow[];
  /** The cursor of the next page, or undefined on the last one. */
  next: TextCursor | undefined;
}

export interface TextSearchSource {
  db: Db;
  permissions: Permissions;
}

/** What deciding a candidate needs; the whole row is read only for the matches on the page. */
type Candidate = SearchableRow & Pick<ItemRow, 'id' | 'parent_id'> & { search_doc: number };

interface Found {
  rank: Rank;
  doc: number;
  id: string;
}

/**
 * Candidates are read in growing batches: a page usually needs few, but a stretch the caller may not
 * read, or rank-0 items met again in the rank-1 stream (dropped after a look at the name), needs many.
 */
const FIRST_BATCH = 32;
const MAX_BATCH = 4096;

export class TextSearch {
  readonly #source: TextSearchSource;
  readonly #indexer: SearchIndexer;
  readonly #candidates;
  readonly #row;

  constructor(source: TextSearchSource, indexer: SearchIndexer) {
    this.#source = source;
    this.#indexer = indexer;
    // The FTS table drives the join, in its own rowid order, so LIMIT stops it early. The state and
    // parent tests only matter if another connection changed items since the index caught up.
    this.#candidates = source.db.prepare<[string, number, number], Candidate>(
      `SELECT d.doc AS search_doc, i.id, i.parent_id, i.name, i.mime_type, i.is_dir, i.image FROM search_grams
         JOIN search_docs d ON d.doc = search_grams.rowid
         JOIN items i ON i.id = d.item_id
       WHERE search_grams MATCH ? AND search_grams.rowid < ? AND i.state = 'live' AND i.parent_id IS NOT NULL
       ORDER BY search_grams.rowid DESC LIMIT ?`,
    );
    this.#row = source.db.prepare<[string], ItemRow>('SELECT * FROM items WHERE id = ?');
  }

  /** One page of the items matching every term (folded, non-empty), after `after` when given. */
  async search(
    principal: Principal,
    terms: readonly string[],
    limit: number,
    after?: TextCursor,
  ): Promise<TextSearchPage> {
    await this.#indexer.ready();
    // From here on everything is synchronous, so the page reflects one state of the database.
    const readable = new ReadableItems(this.#source, principal);
    const streams: [Rank, string][] = [
      [0, nameExpression(terms)],
      [1, anyExpression(terms)],
    ];
    const found: Found[] = [];
    for (const [rank, expression] of streams) {
      if (after && rank < after.rank) continue;
      let before = after && after.rank === rank ? after.doc : Number.MAX_SAFE_INTEGER;
      let batch = Math.min(Math.max(FIRST_BATCH, limit + 1), MAX_BATCH);
      for (;;) {
        const rows = this.#candidates.all(expression, before, batch);
        for (const candidate of rows) {
          before = candidate.search_doc;
          if (!readable.allows(candidate.id, candidate.parent_id)) continue;
          // A rank-0 item also matches the rank-1 query; it is listed once, with rank 0.
          if (rankOf(candidate, terms) !== rank) continue;
          found.push({ rank, doc: candidate.search_doc, id: candidate.id });
          if (found.length > limit) return this.#page(found, limit, terms);
        }
        if (rows.length < batch) break;
        batch = Math.min(batch * 4, MAX_BATCH);
      }
    }
    return this.#page(found, limit, terms);
  }

  #page(found: Found[], limit: number, terms: readonly string[]): TextSearchPage {
    const page = found.slice(0, limit);
    const last = page.at(-1);
    const matches: TextMatchRow[] = [];
    for (const { id } of page) {
      // Read in the same synchronous run as the candidates, so the row is the one that matched.
      const row = this.#row.get(id);
      if (row) matches.push({ row, fragments: fragmentsOf(searchedStrings(row), terms) });
    }
    return { matches, next: found.length > limit && last ? { rank: last.rank, doc: last.doc } : undefined };
  }
}
