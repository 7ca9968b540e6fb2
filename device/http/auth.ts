// Who is calling: the bearer token (or `access_token` on GET) turned into a principal (device-api.md §2).
import type { FastifyRequest } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { verifyAccessToken } from '../identity/tokens.ts';
import { forbidden, unauthorized } from './errors.ts';

/** A signed-in user of the device. Link-share entities join this union with the sharing service. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  rootId: string;
  scopes: ReadonlySet<string>;
}

export type Principal = UserPrincipal;

export type Access = 'read' | 'write';

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

/** The signed-in user behind a request, or a 401. */
export function authenticate(ctx: DeviceContext, request: FastifyRequest): UserPrincipal {
  const token = requestToken(request);
  if (token === undefined)
    throw unauthorized('A bearer token is required: sign in and send it as "Authorization: Bearer <token>".');
  const claims = verifyAccessToken(ctx.signer, token, Math.floor(ctx.now() / 1000));
  if (!claims) throw unauthorized('The access token is invalid or has expired: refresh it or sign in again.');
  const user = ctx.users.byId(claims.sub);
  if (!user) throw unauthorized('The user of this token no longer exists.');
  return { kind: 'user', userId: user.id, rootId: user.root_id, scopes: new Set(claims.scope.split(' ')) };
}

/** Device reads need nas_read_only or nas_read_write; writes need nas_read_write (device-api.md §2). */
export function requireScope(principal: Principal, access: Access): void {
  const { scopes } = principal;
  if (access === 'write' && !scopes.has('nas_read_write')) {
    throw forbidden(
      'INSUFFICIENT_SCOPE',
      'This token may only read: sign in with the nas_read_write scope to change files.',
    );
  }
  if (access === 'read' && !scopes.has('nas_read_write') && !scopes.has('nas_read_only')) {
    throw forbidden(
      'INSUFFICIENT_SCOPE',
      'This token has no device scope: sign in with nas_read_only or nas_read_write.',
    );
  }
}
