// Folding for text search: what "the same text, ignoring case" means, and where a match may start and end.
//
// The unit is the grapheme cluster (UAX #29, what a reader sees as one character: a letter with its
// accents, an emoji with its modifiers, a flag). Each cluster is put in NFC, lower-cased code point by
// code point (locale-independent Unicode lower case; final sigma ς as σ, so "ΟΔΟΣ" and "οδος" meet)
// and put in NFC again. A term occurs where its folded form equals the folded form of a run of whole
// clusters, so a match never splits a cluster, NFC and NFD spellings fold alike, accents still count
// ("e" is not "é"), ß and ẞ meet (but not "ss"), and İ, whose lower case is two code units, folds to
// "i̇" and is covered whole by a location.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Code points that may join a neighbour into one cluster or compose with it under NFC. A string
 * without any of them is one cluster per code point, whose NFC is that of each code point: the unit
 * tests check both against Intl.Segmenter and String.normalize for every code point.
 */
export const CLUSTER_JOINERS = new RegExp(
  [
    '[',
    '\\p{M}', // combining, enclosing and spacing marks (accents, vowel signs, variation selectors)
    '\\p{Regional_Indicator}\\p{Emoji_Modifier}\\u{e0020}-\\u{e007f}', // flags, skin tones, emoji tags
    '\\r', // CR LF is one cluster
    '\\u200c', // zero-width non-joiner (ZWJ is outside the class, below)
    '\\u1100-\\u11ff\\ua960-\\ua97f\\ud7b0-\\ud7ff', // Hangul jamo
    '\\u0e33\\u0eb3\\uff9e\\uff9f', // Thai and Lao SARA AM, halfwidth kana voice marks
    '\\u0600-\\u0605\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u0d4e', // Prepend characters...
    '\\u{110bd}\\u{110cd}\\u{111c2}\\u{111c3}\\u{1193f}\\u{11941}\\u{11a3a}\\u{11a84}-\\u{11a89}\\u{11d46}',
    '\\u{11f02}\\u{113d1}', // ...to here
    '\\u{16d63}\\u{16d67}-\\u{16d6a}', // Kirat Rai vowel signs, which join and compose
    ']|\\u200d', // zero-width joiner
  ].join(''),
  'u',
);

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Folded clusters, memoized: the fold is a pure function and names reuse few distinct characters.
 * Past MEMO_LIMIT entries nothing more is added, so odd input cannot grow it without bound.
 */
const foldedClusters = new Map<string, string>();
const MEMO_LIMIT = 100_000;

/** A string with its folded form and the map back to the original's UTF-16 offsets. */
export interface FoldedText {
  text: string;
  folded: string;
  /**
   * For each offset of `folded` where a cluster starts (and for its end), the offset of that cluster in
   * `text`; -1 inside a cluster. Undefined when every offset maps to itself and no cluster spans more
   * than one code point (so only offsets inside a surrogate pair are inside a cluster, and a
   * well-formed term can neither start nor end there).
   */
  offsets: Int32Array | undefined;
}

/** The folded form of one grapheme cluster. */
export function foldCluster(cluster: string): string {
  let lower = '';
  for (const codePoint of cluster.normalize('NFC')) {
    lower += codePoint === 'ς' ? 'σ' : codePoint.toLowerCase();
  }
  return lower.normalize('NFC');
}

/** Folds `text` cluster by cluster, keeping where each cluster came from. */
export function foldText(text: string): FoldedText {
  // Nearly every file name is printable ASCII, and nearly all others are one cluster per code point:
  // both fast paths give exactly what segmenting would (checked by the unit tests).
  if (PRINTABLE_ASCII.test(text)) return { text, folded: text.toLowerCase(), offsets: undefined };
  const clusters: Iterable<string> = CLUSTER_JOINERS.test(text) ? clusterStrings(text) : text;
  const pieces: string[] = [];
  const starts: number[] = [];
  let identity = true;
  let offset = 0;
  for (const cluster of clusters) {
    const oneCodePoint = isOneCodePoint(cluster);
    const folded = foldMemoized(cluster);
    // Identity only while each code point folds to one code point of the same length.
    if (!oneCodePoint || folded.length !== cluster.length || !isOneCodePoint(folded)) identity = false;
    pieces.push(folded);
    starts.push(offset);
    offset += cluster.length;
  }
  const folded = pieces.join('');
  if (identity) return { text, folded, offsets: undefined };
  const offsets = new Int32Array(folded.length + 1).fill(-1);
  let position = 0;
  pieces.forEach((piece, index) => {
    offsets[position] = starts[index] ?? 0;
    position += piece.length;
  });
  offsets[position] = text.length;
  return { text, folded, offsets };
}

/** The folded form of a search term (the same folding as the searched strings). */
export function foldTerm(term: string): string {
  return foldText(term).folded;
}

function* clusterStrings(text: string): Generator<string> {
  for (const { segment } of segmenter.segment(text)) yield segment;
}

function foldMemoized(cluster: string): string {
  let folded = foldedClusters.get(cluster);
  if (folded === undefined) {
    folded = foldCluster(cluster);
    if (foldedClusters.size < MEMO_LIMIT) foldedClusters.set(cluster, folded);
  }
  return folded;
}

function isOneCodePoint(text: string): boolean {
  return text.length === 1 || (text.length === 2 && (text.codePointAt(0) ?? 0) > 0xffff);
}
