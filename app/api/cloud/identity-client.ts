// Talks to the identity provider (device-api.md §2): authorize URL, token grants, revocation, userinfo.
import { z } from 'zod';
import { BadResponseError } from '../../../common/errors.ts';
import { DESKTOP_CLIENT_ID, PASSWORD_REALM_GRANT, type UserInfo } from '../../../common/wire/identity.ts';
import { parseJson } from '../answers.ts';
import { Transport } from '../http/transport.ts';
import { assertTokenSafe, joinUrl } from '../http/url-safety.ts';

export type { UserInfo } from '../../../common/wire/identity.ts';

export interface TokenSet {
  accessToken: string;
  /** Undefined when the answer had none (a refresh answer): the caller keeps the one it has. */
  refreshToken?: string;
  idToken?: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  scope: string;
}

export interface IdentityClientOptions {
  identityUrl: string;
  clientId?: string;
  /** Requests carry their own credentials; a token provider on it is not used. */
  transport?: Transport;
  /** Sent as `audience` on /authorize and the password grants when set (Auth0). */
  audience?: string;
  /** The connection (realm) for the password-realm grant; the plain password grant without it. */
  realm?: string;
  now?: () => number;
}

// Lenient: numbers may come as numeric strings, token_type in any case, unknown fields are ignored.
const tokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  id_token: z.string().min(1).optional(),
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer', { message: 'must be Bearer' }),
  expires_in: z.coerce.number().positive(),
  scope: z.string().optional(),
});

const userInfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  name: z.string().optional(),
});

export class IdentityClient {
  readonly identityUrl: URL;
  readonly clientId: string;
  readonly #transport: Transport;
  readonly #audience: string | undefined;
  readonly #realm: string | undefined;
  readonly #now: () => number;

  constructor(options: IdentityClientOptions) {
    this.identityUrl = new URL(options.identityUrl);
    this.clientId = options.clientId ?? DESKTOP_CLIENT_ID;
    this.#transport = (options.transport ?? new Transport()).withTokens(undefined);
    this.#audience = options.audience;
    this.#realm = options.realm;
    this.#now = options.now ?? Date.now;
  }

  /** The page to open in the system browser for the code flow with PKCE (S256). */
  authorizeUrl(p: { redirectUri: string; scope: string; state: string; codeChallenge: string }): string {
    const url = joinUrl(this.identityUrl, '/authorize');
    const query: Record<string, string> = {
      response_type: 'code',
      client_id: this.clientId,
      redirect_uri: p.redirectUri,
      scope: p.scope,
      state: p.state,
      code_challenge: p.codeChallenge,
      code_challenge_method: 'S256',
    };
    if (this.#audience !== undefined) query['audience'] = this.#audience;
    url.search = new URLSearchParams(query).toString();
    return url.href;
  }

  async exchangeCode(
    p: { code: string; codeVerifier: string; redirectUri: string },
    signal?: AbortSignal,
  ): Promise<TokenSet> {
    return this.#token(
      {
        grant_type: 'authorization_code',
        code: p.code,
        code_verifier: p.codeVerifier,
        redirect_uri: p.redirectUri,
      },
      'finish signing in',
      signal,
    );
  }

  /** For headless tools (`mch-sync login --password`); desktop sign-in uses the code flow. */
  async passwordGrant(
    p: { username: string; password: string; scope?: string },
    signal?: AbortSignal,
  ): Promise<TokenSet> {
    const form: Record<string, string> =
      this.#realm === undefined
        ? { grant_type: 'password', username: p.username, password: p.password }
        : {
            grant_type: PASSWORD_REALM_GRANT,
            realm: this.#realm,
            username: p.username,
            password: p.password,
          };
    if (p.scope !== undefined) form['scope'] = p.scope;
    if (this.#audience !== undefined) form['audience'] = this.#audience;
    return this.#token(form, `sign in as ${p.username}`, signal);
  }

  /** Keeps no state: an answer without refresh_token gives `refreshToken: undefined` (keep the old one). */
  async refresh(p: { refreshToken: string; scope?: string }, signal?: AbortSignal): Promise<TokenSet> {
    const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: p.refreshToken };
    if (p.scope !== undefined) form['scope'] = p.scope;
    return this.#token(form, 'renew the sign-in', signal);
  }

  /** RFC 7009: succeeds whether or not the token was known. */
  async revoke(p: { token: string }, signal?: AbortSignal): Promise<void> {
    const url = joinUrl(this.identityUrl, '/oauth/revoke');
    assertTokenSafe(url);
    await this.#transport.request({
      method: 'POST',
      url,
      what: 'sign out',
      auth: 'none',
      form: { client_id: this.clientId, token: p.token },
      // Revoking twice is the same as revoking once.
      idempotent: true,
      signal,
    });
  }

  async userInfo(accessToken: string, signal?: AbortSignal): Promise<UserInfo> {
    const response = await this.#transport.request({
      method: 'GET',
      url: joinUrl(this.identityUrl, '/userinfo'),
      what: 'read the signed-in user',
      auth: { bearer: accessToken },
      signal,
    });
    const info = parseJson(response, userInfoSchema, 'read the signed-in user');
    return { sub: info.sub, email: info.email ?? '', name: info.name ?? info.email ?? info.sub };
  }

  async #token(
    form: Record<string, string>,
    what: string,
    signal: AbortSignal | undefined,
  ): Promise<TokenSet> {
    const url = joinUrl(this.identityUrl, '/oauth/token');
    // A password, code or refresh token is as secret as a bearer token: same TLS rule.
    assertTokenSafe(url);
    const response = await this.#transport.request({
      method: 'POST',
      url,
      what,
      auth: 'none',
      // Form encoding is what RFC 6749 specifies; the provider also takes JSON (device-api.md §2).
      form: { ...form, client_id: this.clientId },
      // Asking again only issues another token, and a used code fails cleanly with invalid_grant.
      idempotent: true,
      signal,
    });
    const body = parseJson(response, tokenSchema, what);
    const expiresAt = this.#now() + Math.floor(body.expires_in * 1000);
    if (!Number.isFinite(expiresAt)) {
      throw new BadResponseError(`The answer to "${what}" has an unusable expires_in.`, {
        correlationId: response.correlationId,
      });
    }
    const tokens: TokenSet = {
      accessToken: body.access_token,
      expiresAt,
      scope: body.scope ?? form['scope'] ?? '',
    };
    if (body.refresh_token !== undefined) tokens.refreshToken = body.refresh_token;
    if (body.id_token !== undefined) tokens.idToken = body.id_token;
    return tokens;
  }
}
