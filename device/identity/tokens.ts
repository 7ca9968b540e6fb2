// Issues and checks the access and id tokens of the identity provider (device-api.md §2).
import type { JwtSigner } from './jwt.ts';

export interface AccessTokenClaims {
  sub: string;
  scope: string;
  exp: number;
}

export interface IssueOptions {
  issuer: string;
  clientId: string;
  userId: string;
  scope: string;
  ttlSeconds: number;
  nowSeconds: number;
}

/** The device API audience; id tokens carry the client id instead, so one cannot pass for the other. */
export const DEVICE_AUDIENCE = 'mycloud.com';

export function issueAccessToken(signer: JwtSigner, options: IssueOptions): string {
  return signer.sign({
    iss: options.issuer,
    sub: options.userId,
    aud: DEVICE_AUDIENCE,
    azp: options.clientId,
    scope: options.scope,
    iat: options.nowSeconds,
    exp: options.nowSeconds + options.ttlSeconds,
  });
}

export function issueIdToken(
  signer: JwtSigner,
  options: IssueOptions & { email: string; name: string },
): string {
  return signer.sign({
    iss: options.issuer,
    sub: options.userId,
    aud: options.clientId,
    email: options.email,
    name: options.name,
    iat: options.nowSeconds,
    exp: options.nowSeconds + options.ttlSeconds,
  });
}

/** The claims of a valid, unexpired access token, else null. */
export function verifyAccessToken(
  signer: JwtSigner,
  token: string,
  nowSeconds: number,
): AccessTokenClaims | null {
  const claims = signer.verify(token);
  if (!claims) return null;
  const { sub, scope, exp, aud } = claims;
  if (aud !== DEVICE_AUDIENCE) return null;
  if (typeof sub !== 'string' || typeof scope !== 'string' || typeof exp !== 'number') return null;
  if (exp <= nowSeconds) return null;
  return { sub, scope, exp };
}
