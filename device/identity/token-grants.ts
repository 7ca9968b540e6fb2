// The token and revocation endpoints' logic: code + PKCE, refresh, password and password-realm grants.
import { PASSWORD_REALM_GRANT, type Scope, type TokenResponse } from '../../common/wire/identity.ts';
import type { DeviceContext } from '../context.ts';
import type { UserRow } from '../store/users.ts';
import type { AuthCodeStore } from './auth-codes.ts';
import { isKnownClient } from './clients.ts';
import type { CredentialCheck } from './credentials.ts';
import { invalidClient, invalidGrant, invalidRequest, oauthError } from './oauth-errors.ts';
import { bodyParams, optionalParam, requiredParam, type OAuthParams } from './oauth-params.ts';
import { isWellFormedVerifier, verifierMatches } from './pkce.ts';
import type { RefreshTokenStore } from './refresh-tokens.ts';
import { grantScopes, narrowScopes, scopesOf } from './scopes.ts';
import { issueAccessToken, issueIdToken } from './tokens.ts';

/** What the identity routes share, built once per server. */
export interface IdentityServices {
  ctx: DeviceContext;
  codes: AuthCodeStore;
  refreshTokens: RefreshTokenStore;
  checkCredentials: CredentialCheck;
}

/** The client id of a token or revocation request; public clients identify themselves this way. */
function requireClient(params: OAuthParams): string {
  const clientId = optionalParam(params, 'client_id');
  // RFC 6749 §5.2: a request without client authentication is invalid_client too.
  if (clientId === undefined) throw invalidClient('The parameter client_id is required.');
  if (!isKnownClient(clientId)) throw invalidClient('The client is not known to this device.');
  return clientId;
}

/** Answers `POST /oauth/token`; throws an OAuth error for anything it refuses. */
export function exchangeToken(services: IdentityServices, body: unknown): TokenResponse {
  const params = bodyParams(body);
  const grantType = requiredParam(params, 'grant_type');
  const clientId = requireClient(params);
  switch (grantType) {
    case 'authorization_code':
      return codeGrant(services, params, clientId);
    case 'refresh_token':
      return refreshGrant(services, params, clientId);
    case 'password':
    case PASSWORD_REALM_GRANT:
      return passwordGrant(services, params, clientId);
    default:
      throw oauthError(400, 'unsupported_grant_type', 'This grant type is not supported.');
  }
}

/** Answers `POST /oauth/revoke`: unknown tokens are no error, so the answer tells nothing (RFC 7009 §2.2). */
export function revokeToken(services: IdentityServices, body: unknown): void {
  const params = bodyParams(body);
  const clientId = requireClient(params);
  const token = requiredParam(params, 'token');
  // Only refresh tokens can be revoked: access tokens are self-contained and short-lived.
  optionalParam(params, 'token_type_hint');
  services.refreshTokens.revoke(token, clientId);
}

function codeGrant(services: IdentityServices, params: OAuthParams, clientId: string): TokenResponse {
  const code = requiredParam(params, 'code');
  const verifier = requiredParam(params, 'code_verifier');
  const redirectUri = requiredParam(params, 'redirect_uri');
  if (!isWellFormedVerifier(verifier)) {
    throw invalidRequest(
      'The code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".',
    );
  }
  const grant = services.codes.consume(code);
  if (!grant)
    throw invalidGrant('The authorization code is invalid, expired or already used: sign in again.');
  if (grant.clientId !== clientId) throw invalidGrant('The authorization code was issued to another client.');
  // RFC 6749 §4.1.3: the same redirect_uri as in the authorization request, compared exactly.
  if (grant.redirectUri !== redirectUri) {
    throw invalidGrant('The redirect_uri differs from the one of the authorization request.');
  }
  if (!verifierMatches(verifier, grant.codeChallenge)) {
    throw invalidGrant('The code_verifier does not match the code_challenge of the authorization request.');
  }
  const user = services.ctx.users.byId(grant.userId);
  if (!user) throw invalidGrant('The user of this authorization code no longer exists.');
  return answer(services, user, clientId, scopesOf(grant.scope), { withRefreshToken: true });
}

function refreshGrant(services: IdentityServices, params: OAuthParams, clientId: string): TokenResponse {
  const token = requiredParam(params, 'refresh_token');
  const grant = services.refreshTokens.find(token);
  if (!grant || grant.clientId !== clientId) {
    throw invalidGrant('The refresh token is invalid or has been revoked: sign in again.');
  }
  const user = services.ctx.users.byId(grant.userId);
  if (!user) throw invalidGrant('The user of this refresh token no longer exists.');
  const scopes = narrowScopes(grant.scope, optionalParam(params, 'scope'));
  // No rotation: the client keeps its refresh token, and device-api.md §2 lets the answer leave it out.
  return answer(services, user, clientId, scopes, { withRefreshToken: false });
}

function passwordGrant(services: IdentityServices, params: OAuthParams, clientId: string): TokenResponse {
  const username = requiredParam(params, 'username');
  const password = requiredParam(params, 'password');
  // The realm names an Auth0 connection; the device has one user database, so any realm means it.
  optionalParam(params, 'realm');
  const scopes = grantScopes(optionalParam(params, 'scope'));
  const user = services.checkCredentials(username, password);
  // Auth0 answers a wrong password with 403 and this very description (device-api.md §2).
  if (!user) throw oauthError(403, 'invalid_grant', 'Wrong email or password.');
  return answer(services, user, clientId, scopes, { withRefreshToken: true });
}

/**
 * The token answer for `user`. As with Auth0, a refresh token comes only with `offline_access` and
 * an id token only with `openid`.
 */
function answer(
  services: IdentityServices,
  user: UserRow,
  clientId: string,
  scopes: Scope[],
  { withRefreshToken }: { withRefreshToken: boolean },
): TokenResponse {
  const { ctx } = services;
  const scope = scopes.join(' ');
  const options = {
    issuer: ctx.urls().identity,
    clientId,
    userId: user.id,
    scope,
    ttlSeconds: ctx.tokenTtlSeconds,
    nowSeconds: Math.floor(ctx.now() / 1000),
  };
  const refreshToken =
    withRefreshToken && scopes.includes('offline_access')
      ? services.refreshTokens.issue({ userId: user.id, clientId, scope })
      : undefined;
  return {
    access_token: issueAccessToken(ctx.signer, options),
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    ...(scopes.includes('openid')
      ? { id_token: issueIdToken(ctx.signer, { ...options, email: user.email, name: user.name }) }
      : {}),
    token_type: 'Bearer',
    expires_in: ctx.tokenTtlSeconds,
    scope,
  };
}
