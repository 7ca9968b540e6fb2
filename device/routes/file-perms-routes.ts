// Granting, finding and revoking file permissions (device-api.md §3 "File permissions").
import type { FastifyInstance } from 'fastify';
import { decodePageToken, encodePageToken } from '../http/page-token.ts';
import {
  ENTITY_TYPES,
  FILE_PERM_VALUES,
  type EntityType,
  type FilePermInput,
  type FilePermRecord,
  type FilePermsSearchResponse,
} from '../../common/wire/sharing.ts';
import type { DeviceContext } from '../context.ts';
import { loadItem } from '../files/access.ts';
import { authenticate, requireScope } from '../http/auth.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { integerParam, queryParam, requiredParam } from '../http/query.ts';
import { toFilePermRecord } from '../store/file-perms.ts';

type IdParams = { id: string };

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

function requiredString(body: Record<string, unknown>, name: string, where = ''): string {
  const value = body[name];
  if (value === undefined || value === '') {
    throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', `${where}${name} is required.`);
  }
  if (typeof value !== 'string') throw badRequest('INVALID_PARAMETER', `${where}${name} must be a string.`);
  return value;
}

/** The body of a grant; every mistake is a 400 that names the field. */
function parseGrant(body: unknown): FilePermInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('INVALID_BODY', 'The body must be a JSON object {fileID, entity: {id, type}, value}.');
  }
  const fields = body as Record<string, unknown>;
  const fileID = requiredString(fields, 'fileID');
  const entity = fields['entity'];
  if (entity === undefined) throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', 'entity is required.');
  if (typeof entity !== 'object' || entity === null || Array.isArray(entity)) {
    throw badRequest('INVALID_PARAMETER', 'entity must be an object {id, type}.');
  }
  const entityId = requiredString(entity as Record<string, unknown>, 'id', 'entity.');
  const entityType = requiredString(entity as Record<string, unknown>, 'type', 'entity.');
  if (!isOneOf(ENTITY_TYPES, entityType)) {
    throw badRequest('INVALID_ENTITY_TYPE', `entity.type must be one of ${ENTITY_TYPES.join(', ')}.`);
  }
  const value = requiredString(fields, 'value');
  if (!isOneOf(FILE_PERM_VALUES, value)) {
    throw badRequest('INVALID_PERMISSION_VALUE', `value must be one of ${FILE_PERM_VALUES.join(', ')}.`);
  }
  if (value === 'FileOwner') {
    throw badRequest('INVALID_PERMISSION_VALUE', 'FileOwner is the owner’s alone and cannot be granted.');
  }
  // A link is read-only (interface.md "Authentication" 4), so its entity may hold nothing else (decided).
  if (entityType === 'cloudShare' && value !== 'ReadFile') {
    throw badRequest('INVALID_PERMISSION_VALUE', 'A link share is read-only: grant it ReadFile.');
  }
  return { fileID, entity: { id: entityId, type: entityType }, value };
}

/** A grant to nobody would silently do nothing; most likely the caller sent the shareId for the authId. */
function ensureEntityExists(ctx: DeviceContext, type: EntityType, id: string): void {
  const known = type === 'user' ? ctx.users.byId(id) !== undefined : ctx.shares.byAuthId(id) !== undefined;
  if (!known) {
    throw badRequest(
      'UNKNOWN_ENTITY',
      type === 'user'
        ? `No user ${id} on this device.`
        : `No share has the authId ${id} (grant to the share's authId, not its shareId).`,
    );
  }
}

function encodePermToken(lastId: string): string {
  return encodePageToken(['perm', lastId]);
}

function decodePermToken(raw: string): string {
  const parts = decodePageToken(raw);
  if (!parts || parts.length !== 2 || parts[0] !== 'perm' || typeof parts[1] !== 'string') {
    throw badRequest('INVALID_PAGE_TOKEN', 'pageToken is not one this search gave out.');
  }
  return parts[1];
}

export function registerFilePermRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  app.post('/v1/filePerms', async (request, reply) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'writePerms');
    const grant = parseGrant(request.body);
    // device-api.md §3: only the owner (FileOwner) or a holder of WriteFilePerms may grant.
    const item = loadItem(ctx, principal, grant.fileID, 'writePerms');
    ensureEntityExists(ctx, grant.entity.type, grant.entity.id);
    const row = ctx.filePerms.insert(
      { file_id: item.id, entity_id: grant.entity.id, entity_type: grant.entity.type, value: grant.value },
      ctx.now(),
    );
    const record: FilePermRecord = toFilePermRecord(row);
    return reply.code(201).header('location', `/sdk/v1/filePerms/${row.id}`).send(record);
  });

  app.get('/v1/filePermsSearch/granting', async (request): Promise<FilePermsSearchResponse> => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'readPerms');
    const fileId = requiredParam(request, 'fileID');
    const entityId = queryParam(request, 'entityID');
    const entityTypeParam = queryParam(request, 'entityType');
    if (entityTypeParam !== undefined && !isOneOf(ENTITY_TYPES, entityTypeParam)) {
      throw badRequest('INVALID_ENTITY_TYPE', `entityType must be one of ${ENTITY_TYPES.join(', ')}.`);
    }
    const limit = integerParam(request, 'limit', { min: 1, max: 1000, fallback: 100 }) ?? 100;
    const pageToken = queryParam(request, 'pageToken') ?? '';
    const after = pageToken === '' ? undefined : decodePermToken(pageToken);
    const item = loadItem(ctx, principal, fileId, 'readPerms');
    // A permission on any ancestor reaches the item too (device-api.md §3).
    const rows = ctx.filePerms.granting(
      ctx.items.ancestry(item.id),
      {
        ...(entityId === undefined || entityId === '' ? {} : { entityId }),
        ...(entityTypeParam === undefined ? {} : { entityType: entityTypeParam }),
      },
      limit + 1,
      after,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      filePerms: page.map(toFilePermRecord),
      pageToken: rows.length > limit && last ? encodePermToken(last.id) : '',
    };
  });

  app.delete<{ Params: IdParams }>('/v1/filePerms/:id', async (request, reply) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'writePerms');
    const row = ctx.filePerms.get(request.params.id);
    const item = row && ctx.items.getLive(row.file_id);
    // A permission is revealed only to whoever may read the item's permissions (decided).
    if (!row || !item || !ctx.permissions.allows(principal, item.id, 'readPerms')) {
      throw notFound('PERMISSION_NOT_FOUND', `No file permission ${request.params.id}.`);
    }
    if (!ctx.permissions.allows(principal, item.id, 'writePerms')) {
      throw forbidden('PERMISSION_DENIED', 'You may see the permissions of this item but not change them.');
    }
    if (row.value === 'FileOwner') {
      throw forbidden(
        'OWNER_PERMISSION',
        'The owner’s FileOwner permission on their root cannot be removed.',
      );
    }
    ctx.filePerms.delete(row.id);
    return reply.code(204).send();
  });
}
