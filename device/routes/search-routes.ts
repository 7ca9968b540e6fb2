// Text search and media-time search of the device API (device-api.md §3 "Listing and search").
import type { FastifyInstance } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { parseFields, pickFields, toFileObject } from '../files/file-object.ts';
import { parseTime } from '../files/times.ts';
import { authenticate, requireScope } from '../http/auth.ts';
import { badRequest } from '../http/errors.ts';
import { integerParam, queryParam, requiredParam } from '../http/query.ts';
import { MEDIA_GROUPS, MediaSearch, type MediaGroup } from '../search/media-search.ts';
import {
  decodeMediaToken,
  decodeTextToken,
  encodeMediaToken,
  encodeTextToken,
  queryKey,
} from '../search/page-tokens.ts';
import { MAX_QUERY_LENGTH, MAX_TERMS, searchTerms } from '../search/query.ts';
import { TextSearch } from '../search/text-search.ts';
import type { MediaTimeResponse, TextSearchResponse } from '../search/types.ts';

const MAX_LIMIT = 1000;
const MAX_DIMENSION = 1_000_000;

export function registerSearchRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  const indexer = ctx.searchIndexer;
  const textSearch = new TextSearch(ctx, indexer);
  const mediaSearch = new MediaSearch(ctx);
  // Index in the background what a migration or another process queued while the device was down, and
  // what each write queues, so a search rarely finds work left to do before it can answer.
  app.addHook('onReady', async () => indexer.kick());
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') indexer.schedule();
    done();
  });

  app.get('/v2/filesSearch/text', async (request) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'read');
    const q = requiredParam(request, 'q');
    if (q.length > MAX_QUERY_LENGTH) {
      throw badRequest('INVALID_PARAMETER', `q is longer than ${MAX_QUERY_LENGTH} characters.`);
    }
    if (!q.isWellFormed()) throw badRequest('INVALID_PARAMETER', 'q is not valid Unicode.');
    const terms = searchTerms(q);
    if (terms.length === 0) throw badRequest('INVALID_PARAMETER', 'q has no term to search for.');
    if (terms.length > MAX_TERMS)
      throw badRequest('INVALID_PARAMETER', `q has more than ${MAX_TERMS} terms.`);
    // device-api.md §3: default limit 20 (observed), at most 1000 (decided).
    const limit = integerParam(request, 'limit', { min: 1, max: MAX_LIMIT, fallback: 20 }) ?? 20;
    const fields = parseFields(queryParam(request, 'fields'));
    const key = queryKey(['text', terms]);
    const pageToken = queryParam(request, 'pageToken') ?? '';
    const after = pageToken === '' ? undefined : decodeTextToken(pageToken, key);

    const page = await textSearch.search(principal, terms, limit, after);
    const body: TextSearchResponse = {
      pageToken: page.next ? encodeTextToken(page.next, key) : '',
      matches: page.matches.map(({ row, fragments }) => ({
        file: pickFields(toFileObject(row), fields),
        fragments,
      })),
    };
    return body;
  });

  app.get('/v2/filesSearch/mediaTime', async (request) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'read');
    const startTime = parseTime(requiredParam(request, 'startTime'), 'startTime');
    const endTime = parseTime(requiredParam(request, 'endTime'), 'endTime');
    if (startTime > endTime) throw badRequest('INVALID_PARAMETER', 'startTime is after endTime.');
    const groups = parseMediaGroups(queryParam(request, 'mimeGroups'));
    const minWidth = integerParam(request, 'minWidth', { min: 0, max: MAX_DIMENSION });
    const minHeight = integerParam(request, 'minHeight', { min: 0, max: MAX_DIMENSION });
    const limit = integerParam(request, 'limit', { min: 1, max: MAX_LIMIT, fallback: 100 }) ?? 100;
    const fields = parseFields(queryParam(request, 'fields'));
    const key = queryKey([
      'media',
      startTime,
      endTime,
      [...groups].sort(),
      minWidth ?? null,
      minHeight ?? null,
    ]);
    const pageToken = queryParam(request, 'pageToken') ?? '';
    const after = pageToken === '' ? undefined : decodeMediaToken(pageToken, key);

    const query = { startTime, endTime, groups, minWidth, minHeight };
    const page = mediaSearch.page(principal, query, limit, after);
    const body: MediaTimeResponse = {
      files: page.rows.map((row) => pickFields(toFileObject(row), fields)),
      pageToken: page.next ? encodeMediaToken(page.next, key) : '',
    };
    return body;
  });
}

/** `image,video` (default both); an empty or unknown group is a 400. */
function parseMediaGroups(value: string | undefined): ReadonlySet<MediaGroup> {
  if (value === undefined) return new Set(MEDIA_GROUPS);
  const groups = value.split(',').map((group) => group.trim());
  const unknown = groups.filter((group) => !(MEDIA_GROUPS as readonly string[]).includes(group));
  if (unknown.length > 0 || groups.length === 0) {
    throw badRequest('INVALID_PARAMETER', `mimeGroups takes ${MEDIA_GROUPS.join(', ')}, comma-separated.`);
  }
  return new Set(groups as MediaGroup[]);
}
