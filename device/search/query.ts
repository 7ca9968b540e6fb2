// The `q` of a text search turned into terms: white space separates them, "quoted phrases" stay whole.
import { foldTerm } from './fold.ts';

/** Longer texts and more terms are refused (400): they only make a search slower, never better. */
export const MAX_QUERY_LENGTH = 1000;
export const MAX_TERMS = 32;

const WHITE_SPACE = /\s/u;

/**
 * Splits a search text into its raw terms, like a shell without escapes: outside quotes, white space
 * (Unicode White_Space) ends a term; `"` opens or closes a phrase, inside which white space is kept
 * verbatim; quotes are never part of a term, so `ab"c d"e` is the one term `abc de`. A quote left
 * open runs to the end of the text (decided: a search box should not fail on a missing quote). Empty
 * terms (`""`) are dropped.
 */
export function splitTerms(q: string): string[] {
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  for (const character of q) {
    if (character === '"') {
      quoted = !quoted;
    } else if (!quoted && WHITE_SPACE.test(character)) {
      if (current !== '') terms.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  if (current !== '') terms.push(current);
  return terms;
}

/** The distinct folded terms of a search text (see fold.ts), in the order they were first given. */
export function searchTerms(q: string): string[] {
  return [...new Set(splitTerms(q).map(foldTerm))];
}
