// Exact matching of search terms against an item's searched strings: rank and fragments (device-api.md §3).
import { extensionOf } from '../files/names.ts';
import type { ItemRow } from '../store/items.ts';
import { foldText, type FoldedText } from './fold.ts';
import type { SearchFragment, SearchLocation } from './types.ts';

export { SEARCHED_FIELDS, type SearchedField } from '../../common/wire/device-api.ts';
import { SEARCHED_FIELDS, type SearchedField } from '../../common/wire/device-api.ts';

const IMAGE_FIELDS = ['cameraMake', 'cameraModel', 'date'] as const;

/** 0: every term occurs in the name; 1: every term occurs in some searched string. */
export type Rank = 0 | 1;

export type ItemStrings = Partial<Record<SearchedField, string>>;

/** The searched strings of an item; image strings only when the stored value is a string. */
export function searchedStrings(row: Pick<ItemRow, 'name' | 'mime_type' | 'is_dir' | 'image'>): ItemStrings {
  const strings: ItemStrings = { name: row.name, mimeType: row.mime_type };
  const extension = row.is_dir ? undefined : extensionOf(row.name);
  if (extension !== undefined) strings.extension = extension;
  if (row.image !== null) {
    let image: unknown;
    try {
      image = JSON.parse(row.image);
    } catch {
      image = undefined;
    }
    if (typeof image === 'object' && image !== null) {
      for (const field of IMAGE_FIELDS) {
        const value = (image as Record<string, unknown>)[field];
        if (typeof value === 'string') strings[field] = value;
      }
    }
  }
  return strings;
}

/**
 * Every occurrence of `term` (already folded) in `text`, overlapping ones included: each start where
 * the folded text holds the term and both ends fall on cluster boundaries.
 */
export function occurrences(text: FoldedText, term: string, firstOnly = false): SearchLocation[] {
  const found: SearchLocation[] = [];
  const { folded, offsets } = text;
  for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
    const start = offsets ? (offsets[at] ?? -1) : at;
    const end = offsets ? (offsets[at + term.length] ?? -1) : at + term.length;
    if (start < 0 || end < 0) continue;
    found.push({ index: start, length: end - start });
    if (firstOnly) break;
  }
  return found;
}

function contains(text: FoldedText, term: string): boolean {
  return occurrences(text, term, true).length > 0;
}

/** The columns of an item that its searched strings come from. */
export type SearchableRow = Pick<ItemRow, 'name' | 'mime_type' | 'is_dir' | 'image'>;

/**
 * The rank of an item for `terms` (folded, non-empty), or undefined when some term occurs nowhere.
 * The name is looked at first and the other strings (parsing the image JSON) only when it is needed:
 * most candidates are decided by their name alone.
 */
export function rankOf(row: SearchableRow, terms: readonly string[]): Rank | undefined {
  const name = foldText(row.name);
  const inName = terms.map((term) => contains(name, term));
  if (inName.every(Boolean)) return 0;
  const strings = searchedStrings(row);
  const others = SEARCHED_FIELDS.filter((field) => field !== 'name');
  const folded = new Map<SearchedField, FoldedText>();
  const holds = (field: SearchedField, term: string): boolean => {
    const text = strings[field];
    if (text === undefined) return false;
    let foldedText = folded.get(field);
    if (!foldedText) {
      foldedText = foldText(text);
      folded.set(field, foldedText);
    }
    return contains(foldedText, term);
  };
  const everywhere = terms.every(
    (term, index) => inName[index] || others.some((field) => holds(field, term)),
  );
  return everywhere ? 1 : undefined;
}

/**
 * One fragment per searched string that holds a term, with the location of every occurrence of every
 * term: overlapping occurrences are listed separately (never merged), an occurrence two terms share is
 * listed once, sorted by index, then by length.
 */
export function fragmentsOf(strings: ItemStrings, terms: readonly string[]): SearchFragment[] {
  const fragments: SearchFragment[] = [];
  for (const field of SEARCHED_FIELDS) {
    const text = strings[field];
    if (text === undefined) continue;
    const folded = foldText(text);
    const byKey = new Map<string, SearchLocation>();
    for (const term of terms) {
      for (const location of occurrences(folded, term))
        byKey.set(`${location.index}:${location.length}`, location);
    }
    if (byKey.size === 0) continue;
    const locations = [...byKey.values()].sort((a, b) => a.index - b.index || a.length - b.length);
    fragments.push({ text, locations });
  }
  return fragments;
}
