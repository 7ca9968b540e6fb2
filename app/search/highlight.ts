// A search fragment's matched ranges, checked against its text, and the text printed with them marked.
import { terminalSafe } from './terminal-text.ts';

/** A range of a fragment's text, in UTF-16 code units (device-api.md §3), as the device sends it. */
export interface TextLocation {
  index: number;
  length: number;
}

/** A piece of a fragment's text, matched or not. */
export interface TextSegment {
  text: string;
  match: boolean;
}

/** `ansi`: bold and inverse on a terminal; `brackets`: `[match]` for pipes, files and NO_COLOR. */
export type HighlightStyle = 'ansi' | 'brackets';

export const MATCH_START = '\u001b[1;7m';
// A full reset rather than "bold off, inverse off": nothing else in the line is styled.
export const MATCH_END = '\u001b[0m';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The ranges to mark in `text`, from the device's locations, which are not trusted: ranges that are not
 * integers, empty, negative in length or wholly outside the text are dropped; the rest are clamped to the
 * text, widened to whole characters (a range must not split a surrogate pair, an emoji sequence or a
 * letter from its accent), sorted, and merged when they overlap or touch (`[ab][c]` reads as `[abc]`).
 */
export function matchedRanges(text: string, locations: readonly TextLocation[]): TextLocation[] {
  const clamped: Array<{ start: number; end: number }> = [];
  for (const { index, length } of locations) {
    if (!Number.isInteger(index) || !Number.isInteger(length) || length <= 0) continue;
    const start = Math.max(0, index);
    const end = Math.min(text.length, index + length);
    if (start < end) clamped.push({ start, end });
  }
  if (clamped.length === 0) return [];
  const boundaries = characterBoundaries(text);
  const ranges = clamped
    .map(({ start, end }) => ({
      start: boundaryAtOrBefore(boundaries, start),
      end: boundaryAtOrAfter(boundaries, end),
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Array<{ start: number; end: number }> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged.map(({ start, end }) => ({ index: start, length: end - start }));
}

/** `text` cut into plain and matched pieces by `ranges` (from `matchedRanges`); no piece is empty. */
export function segmentsOf(text: string, ranges: readonly TextLocation[]): TextSegment[] {
  const segments: TextSegment[] = [];
  let at = 0;
  for (const { index, length } of ranges) {
    if (index > at) segments.push({ text: text.slice(at, index), match: false });
    segments.push({ text: text.slice(index, index + length), match: true });
    at = index + length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** The segments as one printable string: unsafe characters escaped in each piece, matches marked. */
export function renderSegments(segments: readonly TextSegment[], style: HighlightStyle): string {
  return segments
    .map(({ text, match }) => {
      // Escaped piece by piece: the escapes change lengths, so the ranges must be applied first.
      const safe = terminalSafe(text);
      if (!match) return safe;
      return style === 'ansi' ? `${MATCH_START}${safe}${MATCH_END}` : `[${safe}]`;
    })
    .join('');
}

/** `matchedRanges`, `segmentsOf` and `renderSegments` in one call. */
export function highlight(text: string, locations: readonly TextLocation[], style: HighlightStyle): string {
  return renderSegments(segmentsOf(text, matchedRanges(text, locations)), style);
}

/** The offsets where a user-perceived character (an extended grapheme cluster) starts, and the end. */
function characterBoundaries(text: string): number[] {
  const boundaries = [...graphemes.segment(text)].map((segment) => segment.index);
  boundaries.push(text.length);
  return boundaries;
}

function boundaryAtOrBefore(boundaries: readonly number[], offset: number): number {
  let found = 0;
  for (const boundary of boundaries) {
    if (boundary > offset) break;
    found = boundary;
  }
  return found;
}

function boundaryAtOrAfter(boundaries: readonly number[], offset: number): number {
  return boundaries.find((boundary) => boundary >= offset) ?? offset;
}
