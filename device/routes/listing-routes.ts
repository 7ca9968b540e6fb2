// Folder listings with paging and a listing ETag, and lookup by parent and name (device-api.md §3).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodePageToken, encodePageToken } from '../http/page-token.ts';
import type { ListingResponse } from '../../common/wire/device-api.ts';
import type { DeviceContext } from '../context.ts';
import { loadFolder } from '../files/access.ts';
import { parseFields, pickFields, toFileObject } from '../files/file-object.ts';
import { authenticate } from '../http/auth.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { evaluatePreconditions } from '../http/preconditions.ts';
import { enumParam, integerParam, queryParam, requiredParam } from '../http/query.ts';
import type { ItemRow, ListCursor, ListOrder } from '../store/items.ts';

const ORDERS: readonly ListOrder[] = ['name', 'mTime', 'size'];
const DIRECTIONS = ['asc', 'desc'] as const;

interface PageToken extends ListCursor {
  order: ListOrder;
  direction: 'asc' | 'desc';
}

function encodeListingToken(token: PageToken): string {
  return encodePageToken([token.order, token.direction, token.value, token.id]);
}

function decodeListingToken(raw: string, order: ListOrder, direction: 'asc' | 'desc'): ListCursor {
  const parts = decodePageToken(raw);
  if (
    !parts ||
    parts.length !== 4 ||
    parts[0] !== order ||
    parts[1] !== direction ||
    (typeof parts[2] !== 'string' && typeof parts[2] !== 'number') ||
    typeof parts[3] !== 'string'
  ) {
    throw badRequest(
      'INVALID_PAGE_TOKEN',
      'pageToken is not one this listing gave out (same orderBy and order).',
    );
  }
  return { value: parts[2], id: parts[3] };
}

function sortValue(row: ItemRow, order: ListOrder): string | number {
  if (order === 'name') return row.name;
  return order === 'mTime' ? row.m_time : row.size;
}

export function registerListingRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  app.get('/v2/filesSearch/parents', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const ids = requiredParam(request, 'ids');
    if (ids.includes(',')) throw badRequest('INVALID_PARAMETER', 'ids takes one folder id.');
    const limit = integerParam(request, 'limit', { min: 1, max: 1000, fallback: 100 }) ?? 100;
    const order = enumParam(request, 'orderBy', ORDERS, 'name');
    const direction = enumParam(request, 'order', DIRECTIONS, 'asc');
    const fieldsParam = queryParam(request, 'fields');
    const fields = parseFields(fieldsParam);
    const pageTokenParam = queryParam(request, 'pageToken') ?? '';
    const after = pageTokenParam === '' ? undefined : decodeListingToken(pageTokenParam, order, direction);
    const folder = loadFolder(ctx, principal, ids, 'read');

    // The listing tag changes whenever anything about a direct child changes (device-api.md §3, decided).
    const etag = `"${createHash('sha256')
      .update([folder.list_tag, limit, order, direction, fieldsParam ?? '', pageTokenParam].join('\n'))
      .digest('base64url')
      .slice(0, 27)}"`;
    void reply.header('etag', etag);
    if (evaluatePreconditions(request, etag, 'read') === 'not-modified') return reply.code(304).send();

    const rows = ctx.items.listChildren(folder.id, order, direction, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const body: ListingResponse = {
      pageToken:
        rows.length > limit && last
          ? encodeListingToken({ order, direction, value: sortValue(last, order), id: last.id })
          : '',
      files: page.map((row) => pickFields(toFileObject(row), fields)),
    };
    return body;
  });

  app.get('/v2/filesSearch/parentAndName', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const parentId = requiredParam(request, 'parentID');
    const name = requiredParam(request, 'name');
    const fields = parseFields(queryParam(request, 'fields'));
    const parent = loadFolder(ctx, principal, parentId, 'read');
    const row = ctx.items.childByName(parent.id, name);
    if (!row) throw notFound('FILE_NOT_FOUND', `No item named "${name}" in that folder.`);
    void reply.header('etag', row.etag);
    return pickFields(toFileObject(row), fields);
  });
}
