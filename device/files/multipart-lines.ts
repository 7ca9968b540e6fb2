// The byte scanning of a multipart body: which line is a header, a blank or a delimiter, and where content surely ends.

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const DASH = 0x2d;

// Longer padding after `--boundary` makes the line content rather than a delimiter.
const MAX_TRANSPORT_PADDING = 1024;
const MAX_HEADER_NAME_BYTES = 256;
// RFC 9110 token characters; a part's first line is a header only if it starts with `token:`.
const HEADER_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
const HEADER_NAME_PREFIX = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/;

export type DelimiterTail =
  { kind: 'delimiter'; after: number; close: boolean } | { kind: 'no' } | { kind: 'more' };
export type DelimiterSearch =
  | { kind: 'delimiter'; contentEnd: number; after: number; close: boolean }
  | { kind: 'more'; safeEnd: number };

export type LineKind =
  | { kind: 'body' }
  | { kind: 'blank'; length: number }
  | { kind: 'header'; length: number }
  | { kind: 'more' };

/** Classifies the line at the start of `buffer`, inside a part's header block. */
export function classifyLine(buffer: Buffer, dashBoundary: Buffer, firstLine: boolean): LineKind {
  const tail = delimiterAtLineStart(buffer, dashBoundary);
  if (tail.kind === 'more') return tail;
  // A part that ends before its body starts has an empty body; readBody sees the delimiter again.
  if (tail.kind === 'delimiter') return { kind: 'body' };
  if (buffer.length === 0) return { kind: 'more' };
  if (buffer[0] === LF) return { kind: 'blank', length: 1 };
  if (buffer[0] === CR) {
    if (buffer.length < 2) return { kind: 'more' };
    if (buffer[1] === LF) return { kind: 'blank', length: 2 };
  }
  if (firstLine) {
    const prefix = buffer.toString('latin1', 0, Math.min(buffer.length, MAX_HEADER_NAME_BYTES + 1));
    if (!HEADER_START.test(prefix)) {
      const couldStillBeHeader = HEADER_NAME_PREFIX.test(prefix) && prefix.length <= MAX_HEADER_NAME_BYTES;
      return couldStillBeHeader ? { kind: 'more' } : { kind: 'body' };
    }
  }
  const lineEnd = buffer.indexOf(LF);
  return lineEnd === -1 ? { kind: 'more' } : { kind: 'header', length: lineEnd + 1 };
}

/** Whether `buffer`, which starts at a line start, begins with a delimiter line. */
export function delimiterAtLineStart(buffer: Buffer, dashBoundary: Buffer): DelimiterTail {
  const compared = Math.min(buffer.length, dashBoundary.length);
  if (buffer.compare(dashBoundary, 0, compared, 0, compared) !== 0) return { kind: 'no' };
  if (buffer.length < dashBoundary.length) return { kind: 'more' };
  return delimiterTail(buffer, dashBoundary.length);
}

/** Classifies what follows `--boundary` at `start`: `--`, or padding and a line break, or neither. */
function delimiterTail(buffer: Buffer, start: number): DelimiterTail {
  if (start >= buffer.length) return { kind: 'more' };
  if (buffer[start] === DASH) {
    if (start + 1 >= buffer.length) return { kind: 'more' };
    return buffer[start + 1] === DASH ? { kind: 'delimiter', after: start + 2, close: true } : { kind: 'no' };
  }
  let index = start;
  while (index < buffer.length && (buffer[index] === SPACE || buffer[index] === TAB)) index++;
  if (index - start > MAX_TRANSPORT_PADDING) return { kind: 'no' };
  if (index >= buffer.length) return { kind: 'more' };
  if (buffer[index] === LF) return { kind: 'delimiter', after: index + 1, close: false };
  if (buffer[index] !== CR) return { kind: 'no' };
  if (index + 1 >= buffer.length) return { kind: 'more' };
  return buffer[index + 1] === LF ? { kind: 'delimiter', after: index + 2, close: false } : { kind: 'no' };
}

/**
 * Finds the first delimiter in `buffer`, or says how many leading bytes are content for sure: all but
 * a trailing partial `\r\n--boundary`, or everything before a full one whose tail has not arrived yet.
 */
export function findDelimiter(buffer: Buffer, needle: Buffer): DelimiterSearch {
  let from = 0;
  for (;;) {
    const index = buffer.indexOf(needle, from);
    if (index === -1) return { kind: 'more', safeEnd: heldBackFrom(buffer, needle, from) };
    const contentEnd = index > 0 && buffer[index - 1] === CR ? index - 1 : index;
    const tail = delimiterTail(buffer, index + needle.length);
    if (tail.kind === 'more') return { kind: 'more', safeEnd: contentEnd };
    if (tail.kind === 'delimiter')
      return { kind: 'delimiter', contentEnd, after: tail.after, close: tail.close };
    from = index + 1;
  }
}

/** Where a possible delimiter begins in the last bytes of `buffer` (its length when none can). */
function heldBackFrom(buffer: Buffer, needle: Buffer, from: number): number {
  const length = buffer.length;
  let candidate = buffer.indexOf(LF, Math.max(from, length - needle.length + 1));
  while (candidate !== -1) {
    const partial = length - candidate;
    if (buffer.compare(needle, 0, partial, candidate, length) === 0) {
      return candidate > 0 && buffer[candidate - 1] === CR ? candidate - 1 : candidate;
    }
    candidate = buffer.indexOf(LF, candidate + 1);
  }
  // A final CR may be the start of the next chunk's `\r\n--boundary`.
  return length > 0 && buffer[length - 1] === CR ? length - 1 : length;
}
