// The token endpoint's password, password-realm and refresh grants, revocation, userinfo and discovery.
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import {
  DESKTOP_CLIENT_ID,
  PASSWORD_REALM_GRANT,
  type TokenResponse,
  type UserInfo,
} from '../../../common/wire/identity.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { expectOAuthError } from '../../helpers/expect-oauth.ts';

function postJson(device: TestDevice, path: string, body: Record<string, string>): Promise<Response> {
  return fetch(`${device.base}/identity${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function postForm(device: TestDevice, path: string, body: Record<string, string>): Promise<Response> {
  return fetch(`${device.base}/identity${path}`, { method: 'POST', body: new URLSearchParams(body) });
}

async function passwordTokens(
  device: TestDevice,
  extra: Record<string, string> = {},
): Promise<TokenResponse> {
  const answer = await postJson(device, '/oauth/token', {
    grant_type: 'password',
    client_id: DESKTOP_CLIENT_ID,
    username: 'alice',
    password: 'alice-password',
    ...extra,
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as TokenResponse;
}

function refresh(
  device: TestDevice,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  return postJson(device, '/oauth/token', {
    grant_type: 'refresh_token',
    client_id: DESKTOP_CLIENT_ID,
    refresh_token: refreshToken,
    ...extra,
  });
}

function userinfo(device: TestDevice, accessToken?: string): Promise<Response> {
  const headers: Record<string, string> = accessToken ? { authorization: `Bearer ${accessToken}` } : {};
  return fetch(`${device.base}/identity/userinfo`, { headers });
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('identity provider: grants', () => {
  it('answers the password grant with every token, not to be cached', async ({ device }) => {
    const answer = await postJson(device, '/oauth/token', {
      grant_type: 'password',
      client_id: DESKTOP_CLIENT_ID,
      username: 'alice',
      password: 'alice-password',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const tokens = (await answer.json()) as TokenResponse;
    expect(Object.keys(tokens).sort()).toEqual(
      ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type'].sort(),
    );
    const info = (await (await userinfo(device, tokens.access_token)).json()) as UserInfo;
    expect(info).toEqual({
      sub: device.running.context.users.byName('alice')?.id,
      email: 'alice',
      name: 'alice',
    });
    expect(claimsOf(tokens.id_token ?? '')).toMatchObject({
      sub: info.sub,
      aud: DESKTOP_CLIENT_ID,
      name: 'alice',
    });
  });

  it('answers the password-realm grant, form-encoded, with a realm', async ({ device }) => {
    const answer = await postForm(device, '/oauth/token', {
      grant_type: PASSWORD_REALM_GRANT,
      client_id: DESKTOP_CLIENT_ID,
      username: 'bob',
      password: 'bob-password',
      realm: 'Username-Password-Authentication',
    });
    expect(answer.status).toBe(200);
    const tokens = (await answer.json()) as TokenResponse;
    expect(((await (await userinfo(device, tokens.access_token)).json()) as UserInfo).name).toBe('bob');
  });

  it.for([
    ['a wrong password', 'alice', 'bob-password'],
    ['an unknown user', 'mallory', 'alice-password'],
  ] as const)(
    'answers 403 invalid_grant as Auth0 does for %s',
    async ([_case, username, password], { device }) => {
      const answer = await postJson(device, '/oauth/token', {
        grant_type: 'password',
        client_id: DESKTOP_CLIENT_ID,
        username,
        password,
      });
      const body = await expectOAuthError(answer, 403, 'invalid_grant');
      expect(body.error_description).toBe('Wrong email or password.');
    },
  );

  it.for([
    [undefined, 'openid profile email offline_access nas_read_write', true, true],
    ['', 'openid profile email offline_access nas_read_write', true, true],
    ['openid nas_read_only', 'openid nas_read_only', false, true],
    ['offline_access nas_read_write', 'offline_access nas_read_write', true, false],
    ['openid unknown nas_read_only openid', 'openid nas_read_only', false, true],
  ] as const)('for scope %j grants %j', async ([requested, granted, withRefresh, withId], { device }) => {
    const tokens = await passwordTokens(device, requested === undefined ? {} : { scope: requested });
    expect(tokens.scope).toBe(granted);
    expect(tokens.refresh_token !== undefined).toBe(withRefresh);
    expect(tokens.id_token !== undefined).toBe(withId);
  });

  it('refuses a scope with no known scope in it', async ({ device }) => {
    const answer = await postJson(device, '/oauth/token', {
      grant_type: 'password',
      client_id: DESKTOP_CLIENT_ID,
      username: 'alice',
      password: 'alice-password',
      scope: 'admin everything',
    });
    await expectOAuthError(answer, 400, 'invalid_scope');
  });

  it('gives a token with openid nas_read_only reads but no writes', async ({ device }) => {
    const upload = await device.fetchAs('alice', '/sdk/v2/files', {
      method: 'POST',
      headers: { 'content-type': 'multipart/related; boundary=b' },
      body: '--b\r\ncontent-type: application/json\r\n\r\n{"name":"a.txt","parentID":"root"}\r\n--b\r\n\r\nhello\r\n--b--\r\n',
    });
    expect(upload.status).toBe(201);
    const location = upload.headers.get('location') ?? '';
    const { access_token } = await passwordTokens(device, { scope: 'openid nas_read_only' });
    const auth = { authorization: `Bearer ${access_token}` };

    expect((await fetch(`${device.base}${location}`, { headers: auth })).status).toBe(200);
    const patch = await fetch(`${device.base}${location}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'b.txt' }),
    });
    expect(patch.status).toBe(403);
    expect(((await patch.json()) as { label: string }).label).toBe('INSUFFICIENT_SCOPE');
  });

  it('narrows the scope on refresh but never widens it', async ({ device }) => {
    const tokens = await passwordTokens(device, { scope: 'openid offline_access nas_read_write' });
    const narrowed = await refresh(device, tokens.refresh_token ?? '', { scope: 'nas_read_write' });
    expect(narrowed.status).toBe(200);
    const body = (await narrowed.json()) as TokenResponse;
    expect(body.scope).toBe('nas_read_write');
    expect(body.id_token).toBeUndefined();
    await expectOAuthError(
      await refresh(device, tokens.refresh_token ?? '', { scope: 'user_read' }),
      400,
      'invalid_scope',
    );
  });

  it('revokes a refresh token, after which the refresh grant refuses it', async ({ device }) => {
    const tokens = await passwordTokens(device);
    const revoked = await postJson(device, '/oauth/revoke', {
      client_id: DESKTOP_CLIENT_ID,
      token: tokens.refresh_token ?? '',
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toBe('');
    await expectOAuthError(await refresh(device, tokens.refresh_token ?? ''), 400, 'invalid_grant');
  });

  it('answers 200 to revoking an unknown token, form-encoded, and 401 to an unknown client', async ({
    device,
  }) => {
    const unknown = await postForm(device, '/oauth/revoke', {
      client_id: DESKTOP_CLIENT_ID,
      token: 'never-issued',
    });
    expect(unknown.status).toBe(200);
    const stranger = await postJson(device, '/oauth/revoke', {
      client_id: 'stranger',
      token: 'never-issued',
    });
    await expectOAuthError(stranger, 401, 'invalid_client');
  });

  it('answers /userinfo without a valid token with 401 and a Bearer challenge', async ({ device }) => {
    for (const token of [undefined, 'not-a-token', device.tokenFor('alice').slice(0, -2)]) {
      const answer = await userinfo(device, token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
  });

  it('publishes a discovery document', async ({ device }) => {
    const answer = await fetch(`${device.base}/identity/.well-known/openid-configuration`);
    const identity = device.running.urls.identity;
    expect(await answer.json()).toMatchObject({
      issuer: identity,
      authorization_endpoint: `${identity}/authorize`,
      token_endpoint: `${identity}/oauth/token`,
      userinfo_endpoint: `${identity}/userinfo`,
      revocation_endpoint: `${identity}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'password', PASSWORD_REALM_GRANT],
    });
  });
});

describe('identity provider: token expiry', () => {
  it('refuses an expired access token and refreshes without a new refresh token', async () => {
    let fakeNow = Date.now();
    const device = await startTestDevice({ now: () => fakeNow, tokenTtlSeconds: 60 });
    try {
      const tokens = await passwordTokens(device);
      expect(tokens.expires_in).toBe(60);
      expect((await userinfo(device, tokens.access_token)).status).toBe(200);
      fakeNow += 61_000;
      expect((await userinfo(device, tokens.access_token)).status).toBe(401);

      const answer = await refresh(device, tokens.refresh_token ?? '');
      expect(answer.status).toBe(200);
      const refreshed = (await answer.json()) as TokenResponse;
      expect(refreshed.refresh_token).toBeUndefined();
      expect(refreshed.scope).toBe(tokens.scope);
      expect((await userinfo(device, refreshed.access_token)).status).toBe(200);
    } finally {
      await device.stop();
    }
  });
});
