// If-Match / If-None-Match evaluation for device routes (device-api.md §3 "Preconditions").
import type { FastifyRequest } from 'fastify';
import { preconditionFailed } from './errors.ts';

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Whether an If-Match / If-None-Match list (`*` or quoted tags, comma separated) names `etag`. */
export function tagListMatches(list: string, etag: string): boolean {
  const trimmed = list.trim();
  if (trimmed === '*') return true;
  // Strong comparison (RFC 9110 §13.1.1): a weak tag never matches.
  return (trimmed.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag === etag);
}

/**
 * Applies the request's preconditions to an item with `etag`. A failed If-Match, or a matching
 * If-None-Match on a write, is a 412; a matching If-None-Match on a read means "not modified".
 */
export function evaluatePreconditions(
  request: FastifyRequest,
  etag: string,
  kind: 'read' | 'write',
): 'proceed' | 'not-modified' {
  const ifMatch = headerValue(request, 'if-match');
  if (ifMatch !== undefined && !tagListMatches(ifMatch, etag)) throw preconditionFailed();
  const ifNoneMatch = headerValue(request, 'if-none-match');
  if (ifNoneMatch !== undefined && tagListMatches(ifNoneMatch, etag)) {
    if (kind === 'write') throw preconditionFailed('The item matches If-None-Match.');
    return 'not-modified';
  }
  return 'proceed';
}

/** If-Range (RFC 9110 §13.1.5): a Range is honoured only while the representation is unchanged. */
export function ifRangeAllows(request: FastifyRequest, etag: string): boolean {
  const ifRange = headerValue(request, 'if-range');
  return ifRange === undefined || ifRange.trim() === etag;
}
