// The sign-in page and the code + PKCE flow of the identity provider, driven over HTTP as a browser would.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import { DESKTOP_CLIENT_ID, type TokenResponse } from '../../../common/wire/identity.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { expectOAuthError } from '../../helpers/expect-oauth.ts';

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';
const STATE = 'state-123';

interface Pkce {
  verifier: string;
  challenge: string;
}

function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request URL; an `undefined` override leaves that parameter out. */
function authorizeUrl(
  device: TestDevice,
  pkce: Pkce,
  overrides: Record<string, string | undefined> = {},
): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: DESKTOP_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email offline_access nas_read_write',
    state: STATE,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `${device.base}/identity/authorize?${query.toString()}`;
}

/** The fields a browser would post from the sign-in page, with the given credentials. */
function formOf(html: string, username: string, password: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const unescape = (text = ''): string =>
      text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
    form.set(unescape(name), unescape(value));
  }
  form.set('username', username);
  form.set('password', password);
  return form;
}

/** Opens the sign-in page and submits it, as the system browser does during the desktop sign-in. */
async function submitLoginPage(
  pageUrl: string,
  credentials: { username?: string; password?: string; edit?: (form: URLSearchParams) => void } = {},
): Promise<Response> {
  const page = await fetch(pageUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  expect(action).toBeDefined();
  const form = formOf(html, credentials.username ?? 'alice', credentials.password ?? 'alice-password');
  credentials.edit?.(form);
  return fetch(new URL(action ?? '', pageUrl), { method: 'POST', body: form, redirect: 'manual' });
}

/** The code of a successful sign-in, after checking that it went back to the client with the state. */
function codeOf(response: Response): string {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe(STATE);
  return location.searchParams.get('code') ?? '';
}

async function exchangeCode(device: TestDevice, body: Record<string, string>): Promise<Response> {
  return fetch(`${device.base}/identity/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      client_id: DESKTOP_CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      ...body,
    }),
  });
}

describe('identity provider: sign-in page and code flow', () => {
  it('signs in through the page, exchanges the code with PKCE, and the token reads the device', async ({
    device,
  }) => {
    const pkce = newPkce();
    const code = codeOf(await submitLoginPage(authorizeUrl(device, pkce)));
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const answer = await exchangeCode(device, { code, code_verifier: pkce.verifier });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const tokens = (await answer.json()) as TokenResponse;
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 86_400,
      scope: 'openid profile email offline_access nas_read_write',
    });
    expect(typeof tokens.refresh_token).toBe('string');
    expect(typeof tokens.id_token).toBe('string');

    const root = await fetch(`${device.sdk}/v2/files/root`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(root.status).toBe(200);
  });

  it('shows an accessible page with labelled fields, no outside resources and a strict policy', async ({
    device,
  }) => {
    const page = await fetch(authorizeUrl(device, newPkce()), { redirect: 'manual' });
    const html = await page.text();
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self' http://127.0.0.1:53682");
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).toContain('autocomplete="current-password"');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toMatch(/\s(src|href)=|<script/);
    expect(html).toContain(`<input type="hidden" name="state" value="${STATE}">`);
  });

  it('shows the page again with 401 and no redirect for a wrong password', async ({ device }) => {
    const answer = await submitLoginPage(authorizeUrl(device, newPkce()), { password: 'wrong' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('location')).toBeNull();
    const html = await answer.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('Wrong username or password.');
    expect(html).toContain('value="alice"');
  });

  it('refuses a code with the wrong verifier', async ({ device }) => {
    const pkce = newPkce();
    const code = codeOf(await submitLoginPage(authorizeUrl(device, pkce)));
    await expectOAuthError(
      await exchangeCode(device, { code, code_verifier: newPkce().verifier }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a code the second time', async ({ device }) => {
    const pkce = newPkce();
    const code = codeOf(await submitLoginPage(authorizeUrl(device, pkce)));
    expect((await exchangeCode(device, { code, code_verifier: pkce.verifier })).status).toBe(200);
    await expectOAuthError(
      await exchangeCode(device, { code, code_verifier: pkce.verifier }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a code presented with another redirect_uri than it was issued for', async ({ device }) => {
    const pkce = newPkce();
    const code = codeOf(await submitLoginPage(authorizeUrl(device, pkce)));
    const answer = await exchangeCode(device, {
      code,
      code_verifier: pkce.verifier,
      redirect_uri: 'http://127.0.0.1:53682/other',
    });
    await expectOAuthError(answer, 400, 'invalid_grant');
  });

  it('carries the scope asked for at sign-in into the token, without unknown scopes', async ({ device }) => {
    const pkce = newPkce();
    const url = authorizeUrl(device, pkce, { scope: 'openid nas_read_only bogus' });
    const code = codeOf(await submitLoginPage(url));
    const tokens = (await (
      await exchangeCode(device, { code, code_verifier: pkce.verifier })
    ).json()) as TokenResponse;
    expect(tokens.scope).toBe('openid nas_read_only');
    expect(tokens.refresh_token).toBeUndefined();
  });

  it.for([
    ['https to a remote host', 'https://evil.example/callback'],
    ['http to a remote host', 'http://evil.example/callback'],
    ['a host that only starts like loopback', 'http://127.0.0.1.evil.example:53682/callback'],
    ['https to loopback', 'https://127.0.0.1:53682/callback'],
    ['a fragment', 'http://127.0.0.1:53682/callback#x'],
    ['no URL at all', 'callback'],
    ['nothing', undefined],
  ] as const)(
    'shows an error page, never a redirect, for a redirect_uri with %s',
    async ([_case, redirectUri], { device }) => {
      const answer = await fetch(authorizeUrl(device, newPkce(), { redirect_uri: redirectUri }), {
        redirect: 'manual',
      });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toContain('This sign-in request is not valid');
    },
  );

  it.for([
    ['http://localhost:1/cb', 'http://localhost:1'],
    ['http://[::1]:65535/cb', 'http:'],
    ['http://127.0.0.1/cb?keep=1', 'http://127.0.0.1'],
  ] as const)(
    'accepts the loopback redirect_uri %s and lets the form lead to %s',
    async ([redirectUri, target], { device }) => {
      const answer = await fetch(authorizeUrl(device, newPkce(), { redirect_uri: redirectUri }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toContain(`form-action 'self' ${target};`);
    },
  );

  it('refuses an unknown client with an error page, never a redirect, and at the token endpoint', async ({
    device,
  }) => {
    const page = await fetch(authorizeUrl(device, newPkce(), { client_id: 'someone-else' }), {
      redirect: 'manual',
    });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    await expectOAuthError(
      await exchangeCode(device, { client_id: 'someone-else', code: 'x', code_verifier: 'y' }),
      401,
      'invalid_client',
    );
  });

  it('shows an error page when the posted form names a redirect_uri that is not allowed', async ({
    device,
  }) => {
    const answer = await submitLoginPage(authorizeUrl(device, newPkce()), {
      edit: (form) => form.set('redirect_uri', 'https://evil.example/callback'),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });

  it.for([
    ['a plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE method', { code_challenge_method: undefined }, 'invalid_request'],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['a malformed code_challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no known scope', { scope: 'bogus' }, 'invalid_scope'],
  ] as const)('sends the client back with an error for %s', async ([_case, overrides, error], { device }) => {
    const answer = await fetch(authorizeUrl(device, newPkce(), overrides), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).not.toBe('');
    expect(location.searchParams.get('state')).toBe(STATE);
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('identity provider: code lifetime', () => {
  it('refuses a code presented more than 60 s after the sign-in', async () => {
    let fakeNow = Date.now();
    const device = await startTestDevice({ now: () => fakeNow });
    try {
      const pkce = newPkce();
      const code = codeOf(await submitLoginPage(authorizeUrl(device, pkce)));
      fakeNow += 61_000;
      await expectOAuthError(
        await exchangeCode(device, { code, code_verifier: pkce.verifier }),
        400,
        'invalid_grant',
      );
    } finally {
      await device.stop();
    }
  });
});
