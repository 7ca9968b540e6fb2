// Interprets a content download's `Range` header (device-api.md §3: `Range` gives 206 or 416).
import { BugError } from '../../common/errors.ts';

/**
 * `none`: serve the whole body with 200. That covers no header, another unit, a malformed header and
 * several ranges, all of which RFC 9110 §14.2 lets a server ignore. `end` is inclusive.
 */
export type RangeResult =
  { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const NONE: RangeResult = { kind: 'none' };
const UNSATISFIABLE: RangeResult = { kind: 'unsatisfiable' };
// One range only: a comma (several ranges) fails the match and the header is ignored.
const SINGLE_BYTE_RANGE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/** Resolves `Range` against a resource of `size` bytes. */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!Number.isSafeInteger(size) || size < 0) throw new BugError(`Invalid resource size ${size}`);
  if (header === undefined) return NONE;
  const match = SINGLE_BYTE_RANGE.exec(header);
  const first = match?.[1] ?? '';
  const last = match?.[2] ?? '';
  if (first === '' && last === '') return NONE;

  if (first === '') {
    const suffixLength = Number(last);
    // An empty resource has no last bytes to send; this device answers 416 rather than an empty 206.
    if (suffixLength === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'range', start: Math.max(0, size - suffixLength), end: size - 1 };
  }

  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  // RFC 9110 §14.1.1: last-pos below first-pos makes the range invalid, so the header is ignored.
  if (end < start) return NONE;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'range', start, end: Math.min(end, size - 1) };
}

/** The `Content-Range` value of a 206 answer. */
export function contentRangeHeader(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}

/** The `Content-Range` value of a 416 answer. */
export function unsatisfiedRangeHeader(size: number): string {
  return `bytes */${size}`;
}
