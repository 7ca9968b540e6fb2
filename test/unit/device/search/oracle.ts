// The search oracle: a plain full scan of every item with a naive matcher, no index and no fast paths.
//
// It restates the rules of device-api.md §3 and device/search/fold.ts as simply as possible (every
// string segmented into grapheme clusters, every start tried), so the index, its tokens and the
// matcher's shortcuts are checked against something that shares none of them.
import type { Db } from '../../../../device/db/database.ts';
import type { Principal } from '../../../../device/http/auth.ts';
import type { Permissions } from '../../../../device/permissions.ts';
import type { ItemRow } from '../../../../device/store/items.ts';

export interface OracleLocation {
  index: number;
  length: number;
}

export interface OracleFragment {
  text: string;
  locations: OracleLocation[];
}

export interface OracleMatch {
  id: string;
  rank: 0 | 1;
  fragments: OracleFragment[];
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export interface Cluster {
  folded: string;
  start: number;
  end: number;
}

/** NFC, lower case code point by code point (ς as σ), NFC again: the fold of one cluster. */
function foldCluster(cluster: string): string {
  return Array.from(cluster.normalize('NFC'), (codePoint) =>
    codePoint === 'ς' ? 'σ' : codePoint.toLowerCase(),
  )
    .join('')
    .normalize('NFC');
}

/** Segmented strings, remembered across calls when a caller passes one (tests scan the same rows often). */
export type OracleMemo = Map<string, Cluster[]>;

function clustersOf(text: string, memo?: OracleMemo): Cluster[] {
  let clusters = memo?.get(text);
  if (!clusters) {
    clusters = Array.from(segmenter.segment(text), ({ segment, index }) => ({
      folded: foldCluster(segment),
      start: index,
      end: index + segment.length,
    }));
    memo?.set(text, clusters);
  }
  return clusters;
}

export function oracleFold(text: string): string {
  return clustersOf(text)
    .map((cluster) => cluster.folded)
    .join('');
}

/** Every run of whole clusters whose folded form is exactly `term`. */
function locate(clusters: readonly Cluster[], term: string): OracleLocation[] {
  const found: OracleLocation[] = [];
  for (let first = 0; first < clusters.length; first += 1) {
    let folded = '';
    for (let last = first; last < clusters.length && folded.length < term.length; last += 1) {
      folded += clusters[last]?.folded ?? '';
      if (folded === term) {
        const start = clusters[first]?.start ?? 0;
        found.push({ index: start, length: (clusters[last]?.end ?? 0) - start });
      }
    }
  }
  return found;
}

function extension(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : undefined;
}

/** The searched strings of an item in fragment order: name, mimeType, extension, camera make, model, date. */
export function oracleStrings(
  row: Pick<ItemRow, 'name' | 'mime_type' | 'is_dir' | 'image'>,
): (string | undefined)[] {
  const image = row.image === null ? {} : (JSON.parse(row.image) as Record<string, unknown>);
  const values: unknown[] = [
    row.name,
    row.mime_type,
    row.is_dir ? undefined : extension(row.name),
    image['cameraMake'],
    image['cameraModel'],
    image['date'],
  ];
  return values.map((value) => (typeof value === 'string' ? value : undefined));
}

/** The match of one item for folded `terms`, or undefined. */
export function oracleMatch(
  row: ItemRow,
  terms: readonly string[],
  memo?: OracleMemo,
): OracleMatch | undefined {
  const fragments: OracleFragment[] = [];
  const termFound = terms.map(() => false);
  const termInName = terms.map(() => false);
  oracleStrings(row).forEach((text, field) => {
    if (text === undefined) return;
    const clusters = clustersOf(text, memo);
    const locations: OracleLocation[] = [];
    terms.forEach((term, index) => {
      const found = locate(clusters, term);
      if (found.length === 0) return;
      termFound[index] = true;
      if (field === 0) termInName[index] = true;
      for (const location of found) {
        if (!locations.some((l) => l.index === location.index && l.length === location.length)) {
          locations.push(location);
        }
      }
    });
    locations.sort((a, b) => a.index - b.index || a.length - b.length);
    if (locations.length > 0) fragments.push({ text, locations });
  });
  if (!termFound.every(Boolean)) return undefined;
  return { id: row.id, rank: termInName.every(Boolean) ? 0 : 1, fragments };
}

/**
 * Every match the caller may see, in the documented order: rank, then doc number descending (the
 * doc numbers are read from search_docs; an item missing there sorts first, so a gap shows).
 */
export function oracleSearch(
  source: { db: Db; permissions: Permissions },
  principal: Principal,
  terms: readonly string[],
  memo?: OracleMemo,
): OracleMatch[] {
  const rows = source.db
    .prepare<[], ItemRow & { doc: number | null }>(
      `SELECT i.*, d.doc AS doc FROM items i LEFT JOIN search_docs d ON d.item_id = i.id
       WHERE i.state = 'live' AND i.parent_id IS NOT NULL`,
    )
    .all();
  const matches: (OracleMatch & { doc: number })[] = [];
  for (const { doc, ...row } of rows) {
    if (!source.permissions.allows(principal, row.id, 'read')) continue;
    const match = oracleMatch(row, terms, memo);
    if (match) matches.push({ ...match, doc: doc ?? Number.MAX_SAFE_INTEGER });
  }
  matches.sort((a, b) => a.rank - b.rank || b.doc - a.doc);
  return matches.map(({ doc: _doc, ...match }) => match);
}
