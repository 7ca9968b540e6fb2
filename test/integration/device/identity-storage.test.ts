// The token endpoint under bad input, and what the identity provider keeps on disk across a restart.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import { DESKTOP_CLIENT_ID, type OAuthErrorBody, type TokenResponse } from '../../../common/wire/identity.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';

const PASSWORD_GRANT = {
  grant_type: 'password',
  client_id: DESKTOP_CLIENT_ID,
  username: 'alice',
  password: 'alice-password',
};

function postToken(device: TestDevice, body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${device.base}/identity/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
}

async function passwordTokens(device: TestDevice): Promise<TokenResponse> {
  const answer = await postToken(device, JSON.stringify(PASSWORD_GRANT));
  expect(answer.status).toBe(200);
  return (await answer.json()) as TokenResponse;
}

/** The names of the database's files (main, WAL, shared memory) that contain `secret` anywhere. */
function databaseFilesHolding(dataDir: string, secret: string): string[] {
  return readdirSync(dataDir).filter(
    (file) => file.startsWith('device.db') && readFileSync(join(dataDir, file)).includes(secret),
  );
}

function readRows(dataDir: string, sql: string): unknown[] {
  const db = new Database(join(dataDir, 'device.db'), { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('identity provider: bad input', () => {
  it.for([
    ['bad JSON', '{"grant_type": "password",', 'application/json', 400],
    ['a JSON array', '[1, 2]', 'application/json', 400],
    ['a JSON string', '"password"', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['an empty JSON body', '', 'application/json', 400],
    ['a number as grant_type', JSON.stringify({ ...PASSWORD_GRANT, grant_type: 7 }), 'application/json', 400],
    [
      'an array as grant_type',
      JSON.stringify({ ...PASSWORD_GRANT, grant_type: ['password'] }),
      'application/json',
      400,
    ],
    [
      'an object as password',
      JSON.stringify({ ...PASSWORD_GRANT, password: { $ne: '' } }),
      'application/json',
      400,
    ],
    ['a number as client_id', JSON.stringify({ ...PASSWORD_GRANT, client_id: 1 }), 'application/json', 400],
    ['no grant_type', JSON.stringify({ ...PASSWORD_GRANT, grant_type: undefined }), 'application/json', 400],
    [
      'an unknown grant_type',
      JSON.stringify({ ...PASSWORD_GRANT, grant_type: 'magic' }),
      'application/json',
      400,
    ],
    ['no client_id', JSON.stringify({ ...PASSWORD_GRANT, client_id: undefined }), 'application/json', 401],
    ['no password', JSON.stringify({ ...PASSWORD_GRANT, password: undefined }), 'application/json', 400],
    [
      'a code grant without a verifier',
      JSON.stringify({
        ...PASSWORD_GRANT,
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'http://127.0.0.1/',
      }),
      'application/json',
      400,
    ],
    [
      'a refresh grant without a token',
      JSON.stringify({ ...PASSWORD_GRANT, grant_type: 'refresh_token' }),
      'application/json',
      400,
    ],
    ['a plain text body', 'grant_type=password', 'text/plain', 400],
    ['an unknown media type', 'grant_type=password', 'application/xml', 415],
  ] as const)(
    'answers %s with an OAuth error, never a 500',
    async ([_case, body, contentType, status], { device }) => {
      const answer = await postToken(device, body, contentType);
      expect(answer.status).toBe(status);
      const error = (await answer.json()) as OAuthErrorBody;
      expect(Object.keys(error).sort()).toEqual(['error', 'error_description']);
      expect(error.error).toMatch(/^[a-z_]+$/);
    },
  );

  it('answers a JSON body over 1 MiB with 413 and an OAuth error', async ({ device }) => {
    const answer = await postToken(
      device,
      JSON.stringify({ ...PASSWORD_GRANT, padding: 'x'.repeat(1024 * 1024) }),
    );
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as OAuthErrorBody).error).toBe('invalid_request');
  });

  it('answers an unknown identity path with an OAuth error', async ({ device }) => {
    const answer = await fetch(`${device.base}/identity/nothing-here`);
    expect(answer.status).toBe(404);
    expect(Object.keys((await answer.json()) as object).sort()).toEqual(['error', 'error_description']);
  });
});

describe('identity provider: storage', () => {
  it('stores refresh tokens only as SHA-256 hashes', async () => {
    const device = await startTestDevice();
    try {
      const tokens = await passwordTokens(device);
      const refreshToken = tokens.refresh_token ?? '';
      await device.stop({ keepData: true });

      expect(databaseFilesHolding(device.dataDir, refreshToken)).toEqual([]);
      const rows = readRows(device.dataDir, 'SELECT token_hash AS hash FROM refresh_tokens');
      expect(rows).toEqual([{ hash: createHash('sha256').update(refreshToken).digest('hex') }]);
    } finally {
      await device.stop();
    }
  });

  it('stores authorization codes only as SHA-256 hashes', async () => {
    const device = await startTestDevice();
    try {
      const form = new URLSearchParams({
        response_type: 'code',
        client_id: DESKTOP_CLIENT_ID,
        redirect_uri: 'http://127.0.0.1:53682/callback',
        code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
        username: 'alice',
        password: 'alice-password',
      });
      const answer = await fetch(`${device.base}/identity/authorize`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
      });
      const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      await device.stop({ keepData: true });

      expect(databaseFilesHolding(device.dataDir, code)).toEqual([]);
      const rows = readRows(device.dataDir, 'SELECT code_hash AS hash FROM auth_codes');
      expect(rows).toEqual([{ hash: createHash('sha256').update(code).digest('hex') }]);
    } finally {
      await device.stop();
    }
  });

  it('keeps access and refresh tokens valid across a restart', async () => {
    const first = await startTestDevice();
    let second: TestDevice | undefined;
    try {
      const tokens = await passwordTokens(first);
      await first.stop({ keepData: true });
      second = await startTestDevice({ dataDir: first.dataDir });

      const info = await fetch(`${second.base}/identity/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(info.status).toBe(200);
      const refreshed = await postToken(
        second,
        JSON.stringify({
          grant_type: 'refresh_token',
          client_id: DESKTOP_CLIENT_ID,
          refresh_token: tokens.refresh_token,
        }),
      );
      expect(refreshed.status).toBe(200);
    } finally {
      await (second ?? first).stop();
    }
  });
});
