// Who is calling: the bearer token (or `access_token` on GET) turned into a principal (device-api.md §2).
import type { FastifyRequest } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { verifyAccessToken } from '../identity/tokens.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { Access, CloudSharePrincipal, Principal, UserPrincipal } from '../principals.ts';

export type { Access, CloudSharePrincipal, Principal, UserPrincipal } from '../principals.ts';

/** The `sub` of a share token is `cloudShare|<authId>`, beside the users' `auth0|<hex>` (decided). */
export const SHARE_SUBJECT_PREFIX = 'cloudShare|';

/** A link is read-only whatever a token claims: its principal only ever has nas_read_only. */
const SHARE_SCOPES: ReadonlySet<string> = new Set(['nas_read_only']);

export function sharePrincipal(authId: string): CloudSharePrincipal {
  return { kind: 'cloudShare', authId, scopes: SHARE_SCOPES };
}

/** The token of a request: the Authorization header, or on GET/HEAD the `access_token` query parameter. */
export function requestToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  if (request.method === 'GET' || request.method === 'HEAD') {
    const query = request.query as Record<string, unknown> | undefined;
    const token = query?.['access_token'];
    if (typeof token === 'string' && token !== '') return token;
  }
  return undefined;
}

/** The user or link share behind a request, or a 401. Device routes accept both. */
export function authenticate(ctx: DeviceContext, request: FastifyRequest): Principal {
  const token = requestToken(request);
  if (token === undefined)
    throw unauthorized('A bearer token is required: sign in and send it as "Authorization: Bearer <token>".');
  const claims = verifyAccessToken(ctx.signer, token, Math.floor(ctx.now() / 1000));
  if (!claims) throw unauthorized('The access token is invalid or has expired: refresh it or sign in again.');
  if (claims.sub.startsWith(SHARE_SUBJECT_PREFIX)) {
    const authId = claims.sub.slice(SHARE_SUBJECT_PREFIX.length);
    // Checked on every request, so deleting the share ends its tokens at once (device-api.md §4).
    if (!ctx.shares.byAuthId(authId)) throw unauthorized('The share of this token no longer exists.');
    return sharePrincipal(authId);
  }
  const user = ctx.users.byId(claims.sub);
  if (!user) throw unauthorized('The user of this token no longer exists.');
  return { kind: 'user', userId: user.id, rootId: user.root_id, scopes: new Set(claims.scope.split(' ')) };
}

/** Like authenticate, for services only users may call (device lookup, sharing): a share token is a 403. */
export function authenticateUser(ctx: DeviceContext, request: FastifyRequest): UserPrincipal {
  const principal = authenticate(ctx, request);
  if (principal.kind !== 'user') {
    throw forbidden('FORBIDDEN', 'A link-share token only reads shared files on the device.');
  }
  return principal;
}

/** Device reads need nas_read_only or nas_read_write; writes need nas_read_write (device-api.md §2). */
export function requireScope(principal: Principal, access: Access): void {
  const { scopes } = principal;
  const writes = access === 'write' || access === 'writePerms';
  if (writes && !scopes.has('nas_read_write')) {
    throw forbidden(
      'INSUFFICIENT_SCOPE',
      'This token may only read: sign in with the nas_read_write scope to change files.',
    );
  }
  if (!writes && !scopes.has('nas_read_write') && !scopes.has('nas_read_only')) {
    throw forbidden(
      'INSUFFICIENT_SCOPE',
      'This token has no device scope: sign in with nas_read_only or nas_read_write.',
    );
  }
}
