// Index tokens and FTS5 queries of text search: 1-, 2- and 3-code-point grams of folded text.
//
// Each searched string is folded (fold.ts) and every run of 1, 2 and 3 code points of the folded form
// becomes a token, prefixed `n` for the name and `m` for the other strings. A term's folded form is a
// substring of a string's folded form wherever the term occurs, so all the term's grams are tokens of
// that string: asking the index for them finds a superset of the matches, for every script and every
// term length, with no case folding of SQLite's own involved. Matching.ts then decides exactly.

/** Trigrams asked per term; a longer term asks for evenly spread ones, which still gives a superset. */
const MAX_GRAMS_PER_TERM = 12;

export type GramSide = 'n' | 'm';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A code point as token characters the FTS5 `ascii` tokenizer keeps together: two hex digits below
 * 256, else `x` and six. No encoding is a prefix of another, so a gram's token is unambiguous.
 */
function encodeCodePoint(codePoint: number): string {
  return HEX[codePoint] ?? `x${codePoint.toString(16).padStart(6, '0')}`;
}

function encodedCodePoints(folded: string): string[] {
  const encoded: string[] = [];
  for (const codePoint of folded) encoded.push(encodeCodePoint(codePoint.codePointAt(0) ?? 0));
  return encoded;
}

/** Adds the tokens of one folded searched string to `into`. */
export function addStringTokens(side: GramSide, folded: string, into: Set<string>): void {
  const units = encodedCodePoints(folded);
  for (let at = 0; at < units.length; at += 1) {
    const one = side + (units[at] ?? '');
    into.add(one);
    if (at + 1 < units.length) {
      const two = one + (units[at + 1] ?? '');
      into.add(two);
      if (at + 2 < units.length) into.add(two + (units[at + 2] ?? ''));
    }
  }
}

/** The grams of a folded term the index is asked for (without the side prefix). */
export function termGrams(foldedTerm: string): string[] {
  const units = encodedCodePoints(foldedTerm);
  if (units.length <= 3) return [units.join('')];
  const count = units.length - 2;
  const picked = new Set<number>();
  const wanted = Math.min(count, MAX_GRAMS_PER_TERM);
  for (let index = 0; index < wanted; index += 1) {
    picked.add(Math.round((index * (count - 1)) / Math.max(1, wanted - 1)));
  }
  return [...new Set([...picked].map((at) => units.slice(at, at + 3).join('')))];
}

function sideExpression(side: GramSide, grams: readonly string[]): string {
  return `(${grams.map((gram) => `"${side}${gram}"`).join(' AND ')})`;
}

/** FTS5 query for the items whose name holds the grams of every term. */
export function nameExpression(terms: readonly string[]): string {
  return terms.map((term) => sideExpression('n', termGrams(term))).join(' AND ');
}

/** FTS5 query for the items where each term's grams are all in the name or all in the other strings. */
export function anyExpression(terms: readonly string[]): string {
  return terms
    .map((term) => {
      const grams = termGrams(term);
      return `(${sideExpression('n', grams)} OR ${sideExpression('m', grams)})`;
    })
    .join(' AND ');
}
