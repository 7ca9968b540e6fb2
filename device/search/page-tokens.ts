// Page tokens of the search routes: opaque to clients, bound to the query they page through.
import { createHash } from 'node:crypto';
import { badRequest, type HttpError } from '../http/errors.ts';
import { decodePageToken, encodePageToken } from '../http/page-token.ts';
import type { MediaCursor } from './media-search.ts';
import type { TextCursor } from './text-search.ts';

/** A short digest of what a token is valid for, so a token of another query is refused, not misread. */
export function queryKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

function invalidToken(): HttpError {
  return badRequest(
    'INVALID_PAGE_TOKEN',
    'pageToken is not one this search gave out (same query and parameters).',
  );
}

export function encodeTextToken(cursor: TextCursor, key: string): string {
  return encodePageToken(['t', key, cursor.rank, cursor.doc]);
}

export function decodeTextToken(raw: string, key: string): TextCursor {
  const parts = decodePageToken(raw);
  if (!parts || parts.length !== 4 || parts[0] !== 't' || parts[1] !== key) throw invalidToken();
  const [, , rank, doc] = parts;
  if ((rank !== 0 && rank !== 1) || !Number.isSafeInteger(doc) || (doc as number) < 1) throw invalidToken();
  return { rank, doc: doc as number };
}

export function encodeMediaToken(cursor: MediaCursor, key: string): string {
  return encodePageToken(['m', key, cursor.time, cursor.id]);
}

export function decodeMediaToken(raw: string, key: string): MediaCursor {
  const parts = decodePageToken(raw);
  if (!parts || parts.length !== 4 || parts[0] !== 'm' || parts[1] !== key) throw invalidToken();
  const [, , time, id] = parts;
  if (!Number.isSafeInteger(time) || typeof id !== 'string' || id === '') throw invalidToken();
  return { time: time as number, id };
}
