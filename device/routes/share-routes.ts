// The sharing service under B/cloud: creating, reading, listing and deleting link shares (device-api.md §4).
import type { FastifyInstance } from 'fastify';
import { decodePageToken, encodePageToken } from '../http/page-token.ts';
import type { Wrapped } from '../../common/wire/cloud.ts';
import type { Share } from '../../common/wire/sharing.ts';
import type { DeviceContext } from '../context.ts';
import { resolveId } from '../files/access.ts';
import { authenticateUser, type UserPrincipal } from '../http/auth.ts';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors.ts';
import { integerParam, queryParam } from '../http/query.ts';
import type { ShareCursor, ShareWithFiles } from '../store/shares.ts';

type ShareParams = { shareId: string };

/** A share lists at most this many items (decided). */
const MAX_SHARE_FILES = 1000;

/** A list of shares: the wrapped envelope plus the token of the next page, "" on the last (decided). */
export type ShareList = Wrapped<Share[]> & { pageToken: string };

export function toShare(ctx: DeviceContext, row: ShareWithFiles): Share {
  return {
    shareId: row.id,
    deviceId: row.device_id,
    ownerId: row.owner_id,
    authId: row.auth_id,
    fileIds: row.fileIds,
    dateCreated: row.date_created,
    lastModified: row.last_modified,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    url: ctx.urls().shareLink(row.id),
  };
}

/** The sharing service reports every bad parameter under its one observed label. */
function sharingParam<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) {
      throw badRequest('GENERAL_INVALID_PARAMETERS', error.message);
    }
    throw error;
  }
}

function requiredString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', `${name} is required.`);
  }
  if (typeof value !== 'string') throw badRequest('GENERAL_INVALID_PARAMETERS', `${name} must be a string.`);
  return value;
}

/** Checks a create body against the caller; returns the ids of the items to share. */
function checkCreate(ctx: DeviceContext, principal: UserPrincipal, body: unknown): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(
      'GENERAL_INVALID_PARAMETERS',
      'The body must be a JSON object {ownerId, deviceId, fileIds}.',
    );
  }
  const fields = body as Record<string, unknown>;
  const ownerId = requiredString(fields, 'ownerId');
  const deviceId = requiredString(fields, 'deviceId');
  const fileIds = fields['fileIds'];
  if (fileIds === undefined || (Array.isArray(fileIds) && fileIds.length === 0)) {
    throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', 'fileIds must name at least one file or folder.');
  }
  if (!Array.isArray(fileIds) || !fileIds.every((id) => typeof id === 'string' && id !== '')) {
    throw badRequest('GENERAL_INVALID_PARAMETERS', 'fileIds must be an array of item ids.');
  }
  const ids = fileIds as string[];
  if (ids.length > MAX_SHARE_FILES) {
    throw badRequest('GENERAL_INVALID_PARAMETERS', `A share holds at most ${MAX_SHARE_FILES} items.`);
  }
  if (new Set(ids).size !== ids.length) {
    throw badRequest('GENERAL_INVALID_PARAMETERS', 'fileIds names an item twice.');
  }
  // device-api.md §4: ownerId must be the token's user.
  if (ownerId !== principal.userId) throw forbidden('FORBIDDEN', 'ownerId must be your own user id.');
  if (deviceId !== ctx.device.id) {
    throw forbidden('FORBIDDEN', `You are not a member of device ${deviceId}; share from ${ctx.device.id}.`);
  }
  return ids.map((id) => {
    const item = ctx.items.getLive(resolveId(principal, id));
    // Sharing leads to granting ReadFile (step 2 of the flow), so it takes the right to grant; an item
    // the caller may not see is refused the same way, so its existence is not revealed.
    if (!item || !ctx.permissions.allows(principal, item.id, 'writePerms')) {
      throw forbidden('FORBIDDEN', `${id} is not a file or folder you may share.`);
    }
    if (item.parent_id === null) {
      throw badRequest('GENERAL_INVALID_PARAMETERS', 'A root folder cannot be shared; share what is in it.');
    }
    return item.id;
  });
}

function encodeShareToken(cursor: ShareCursor): string {
  return encodePageToken(['share', cursor]);
}

function decodeShareToken(raw: string): ShareCursor {
  const parts = decodePageToken(raw);
  if (!parts || parts.length !== 2 || parts[0] !== 'share' || !Number.isSafeInteger(parts[1])) {
    throw badRequest('GENERAL_INVALID_PARAMETERS', 'pageToken is not one this listing gave out.');
  }
  return parts[1] as number;
}

/** The caller's own share, or a 404 for anyone else's: a share's existence is not revealed (decided). */
function ownShare(ctx: DeviceContext, principal: UserPrincipal, shareId: string): ShareWithFiles {
  const share = ctx.shares.get(shareId);
  if (!share || share.owner_id !== principal.userId) {
    throw notFound('SHARE_NOT_FOUND', `No share ${shareId}.`);
  }
  return share;
}

export function registerShareRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  app.post('/v1/shares', async (request, reply) => {
    const principal = authenticateUser(ctx, request);
    const fileIds = checkCreate(ctx, principal, request.body);
    const share = ctx.shares.create(principal.userId, ctx.device.id, fileIds, ctx.now());
    const body: Wrapped<Share> = { data: toShare(ctx, share), error: null };
    return reply.code(201).send(body);
  });

  app.get<{ Params: ShareParams }>('/v1/shares/:shareId', async (request): Promise<Wrapped<Share>> => {
    const principal = authenticateUser(ctx, request);
    return { data: toShare(ctx, ownShare(ctx, principal, request.params.shareId)), error: null };
  });

  app.get('/v1/shares', async (request): Promise<ShareList> => {
    const principal = authenticateUser(ctx, request);
    const fileId = sharingParam(() => queryParam(request, 'fileId'));
    const limit =
      sharingParam(() => integerParam(request, 'limit', { min: 1, max: 1000, fallback: 100 })) ?? 100;
    const pageToken = sharingParam(() => queryParam(request, 'pageToken')) ?? '';
    const after = pageToken === '' ? undefined : decodeShareToken(pageToken);
    const rows = ctx.shares.listByOwner(principal.userId, {
      ...(fileId === undefined || fileId === '' ? {} : { fileId: resolveId(principal, fileId) }),
      limit: limit + 1,
      ...(after === undefined ? {} : { after }),
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map((row) => toShare(ctx, row)),
      error: null,
      pageToken: rows.length > limit && last?.seq !== undefined ? encodeShareToken(last.seq) : '',
    };
  });

  app.delete<{ Params: ShareParams }>('/v1/shares/:shareId', async (request, reply) => {
    const principal = authenticateUser(ctx, request);
    const share = ownShare(ctx, principal, request.params.shareId);
    ctx.shares.delete(share.id);
    return reply.code(204).send();
  });
}
