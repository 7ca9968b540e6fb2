// The identity provider under /identity, Auth0-style: sign-in page, token endpoint, userinfo (device-api.md §2).
import type { FastifyPluginAsync } from 'fastify';
import { ALL_SCOPES, PASSWORD_REALM_GRANT, type UserInfo } from '../../common/wire/identity.ts';
import type { DeviceContext } from '../context.ts';
import { requestToken } from '../http/auth.ts';
import { installErrorHandling } from '../http/error-handler.ts';
import { AuthCodeStore } from './auth-codes.ts';
import { registerAuthorizeRoutes } from './authorize-routes.ts';
import { credentialChecker } from './credentials.ts';
import { invalidToken, oauthErrorBody } from './oauth-errors.ts';
import { PKCE_METHOD } from './pkce.ts';
import { RefreshTokenStore } from './refresh-tokens.ts';
import { exchangeToken, revokeToken, type IdentityServices } from './token-grants.ts';
import { verifyAccessToken } from './tokens.ts';

export function identityRoutes(ctx: DeviceContext): FastifyPluginAsync {
  return (app) => {
    const now = (): number => ctx.now();
    const services: IdentityServices = {
      ctx,
      codes: new AuthCodeStore(ctx.db, now),
      refreshTokens: new RefreshTokenStore(ctx.db, now),
      checkCredentials: credentialChecker(ctx.users),
    };
    installErrorHandling(app, oauthErrorBody);
    // Every answer here carries a credential, a page with one or a user's details (RFC 6749 §5.1).
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      done();
    });

    registerAuthorizeRoutes(app, services);

    app.post('/oauth/token', (request) => exchangeToken(services, request.body));

    app.post('/oauth/revoke', (request, reply) => {
      revokeToken(services, request.body);
      void reply.code(200).send();
    });

    app.get('/userinfo', (request): UserInfo => {
      const token = requestToken(request);
      if (token === undefined) throw invalidToken('A bearer token is required.', false);
      const claims = verifyAccessToken(ctx.signer, token, Math.floor(ctx.now() / 1000));
      const user = claims && ctx.users.byId(claims.sub);
      if (!user) {
        throw invalidToken('The access token is invalid or has expired: refresh it or sign in again.', true);
      }
      return { sub: user.id, email: user.email, name: user.name };
    });

    app.get('/.well-known/openid-configuration', () => {
      const issuer = ctx.urls().identity;
      return {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'password', PASSWORD_REALM_GRANT],
        scopes_supported: ALL_SCOPES,
        code_challenge_methods_supported: [PKCE_METHOD],
        token_endpoint_auth_methods_supported: ['none'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['HS256'],
      };
    });

    return Promise.resolve();
  };
}
