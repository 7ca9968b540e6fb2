// Device tokens for a share link's visitors: they read on the device API as the link's entity.
import { issueAccessToken } from '../identity/tokens.ts';
import type { DeviceContext } from '../context.ts';
import { SHARE_SUBJECT_PREFIX } from '../http/auth.ts';

/** Short-lived (decided): a token outlives neither the share nor the permission, but may leak from a log. */
export const SHARE_TOKEN_TTL_SECONDS = 900;

/** The `azp` of share tokens: they are issued by the recipient's page, not by a client's sign-in. */
export const SHARE_PAGE_CLIENT_ID = 'mch-share-page';

/** A token with `sub` cloudShare|<authId> and scope nas_read_only; `--token-ttl` shortens it further. */
export function issueShareToken(ctx: DeviceContext, authId: string): { token: string; expiresIn: number } {
  const expiresIn = Math.min(SHARE_TOKEN_TTL_SECONDS, ctx.tokenTtlSeconds);
  const token = issueAccessToken(ctx.signer, {
    issuer: ctx.urls().identity,
    clientId: SHARE_PAGE_CLIENT_ID,
    userId: `${SHARE_SUBJECT_PREFIX}${authId}`,
    scope: 'nas_read_only',
    ttlSeconds: expiresIn,
    nowSeconds: Math.floor(ctx.now() / 1000),
  });
  return { token, expiresIn };
}
