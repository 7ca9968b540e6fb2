// Who may do what on the device API: bearer tokens, the read-only scope, and one user's items being
// invisible to another (device-api.md §2, §3).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import { DESKTOP_CLIENT_ID } from '../../../common/wire/identity.ts';
import { issueAccessToken } from '../../../device/identity/tokens.ts';
import type { TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  createFolder,
  idFromLocation,
  multipartBody,
  postMultipart,
  type Created,
} from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

let device: TestDevice;
let folder: Created;
let file: Created;
let readOnly: string;

test.beforeAll(async ({ device: started }) => {
  // The helpers and tables of cases below close over this handle, so the file keeps one.
  device = started;
  folder = await createFolder(device, 'alice-private');
  file = await createFile(device, 'secret.txt', 'alice only', folder.id);
  readOnly = device.tokenFor('alice', 'openid nas_read_only');
});

function expiredToken(): string {
  const { running } = device;
  const user = running.context.users.byName('alice');
  return issueAccessToken(running.context.signer, {
    issuer: running.urls.identity,
    clientId: DESKTOP_CLIENT_ID,
    userId: user?.id ?? '',
    scope: 'openid nas_read_write',
    ttlSeconds: 60,
    nowSeconds: Math.floor(Date.now() / 1000) - 3600,
  });
}

interface RouteCase {
  label: string;
  method: string;
  path: () => string;
  body?: () => { body: string | Uint8Array; contentType: string };
}

const json = (value: unknown) => () => ({ body: JSON.stringify(value), contentType: 'application/json' });
const create = (name: string) => () => {
  const { body, contentType } = multipartBody({ name, parentID: folder.id }, 'x');
  return { body: new Uint8Array(body), contentType };
};

const readRoutes: RouteCase[] = [
  { label: 'GET file', method: 'GET', path: () => `/sdk/v2/files/${file.id}` },
  { label: 'GET content', method: 'GET', path: () => `/sdk/v2/files/${file.id}/content` },
  { label: 'GET listing', method: 'GET', path: () => `/sdk/v2/filesSearch/parents?ids=${folder.id}` },
  {
    label: 'GET parentAndName',
    method: 'GET',
    path: () => `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=secret.txt`,
  },
];

const writeRoutes: RouteCase[] = [
  { label: 'POST create', method: 'POST', path: () => '/sdk/v2/files', body: create('new.txt') },
  { label: 'POST resumable', method: 'POST', path: () => '/sdk/v2/files/resumable', body: create('big.bin') },
  {
    label: 'PUT content',
    method: 'PUT',
    path: () => `/sdk/v2/files/${file.id}/content`,
    body: () => ({ body: 'overwritten', contentType: 'application/octet-stream' }),
  },
  {
    label: 'PATCH',
    method: 'PATCH',
    path: () => `/sdk/v2/files/${file.id}`,
    body: json({ name: 'renamed.txt' }),
  },
  {
    label: 'POST .../patch',
    method: 'POST',
    path: () => `/sdk/v2/files/${file.id}/patch`,
    body: json({ name: 'renamed.txt' }),
  },
  { label: 'DELETE', method: 'DELETE', path: () => `/sdk/v2/files/${file.id}` },
];

function send(route: RouteCase, authorization: string | undefined): Promise<Response> {
  const headers = new Headers();
  if (authorization !== undefined) headers.set('authorization', authorization);
  const body = route.body?.();
  if (body) headers.set('content-type', body.contentType);
  return fetch(`${device.base}${route.path()}`, { method: route.method, headers, body: body?.body });
}

async function fileStillUnchanged(): Promise<void> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`);
  expect(response.status).toBe(200);
  expect(((await response.json()) as FileObject).eTag).toBe(file.etag);
}

describe('authentication', () => {
  const credentials: [string, () => string | undefined][] = [
    ['no token', () => undefined],
    ['a garbage token', () => 'Bearer not.a.token'],
    ['an expired token', () => `Bearer ${expiredToken()}`],
    ['a Basic credential', () => `Basic ${Buffer.from('alice:alice-password').toString('base64')}`],
    ['a token signed with another key', () => `Bearer ${tamperedToken()}`],
  ];

  function tamperedToken(): string {
    const [header, payload] = device.tokenFor('alice').split('.');
    return `${header}.${payload}.${Buffer.from('forged signature').toString('base64url')}`;
  }

  describe.each(credentials)('with %s', (_label, authorization) => {
    it.each([...readRoutes, ...writeRoutes].map((route) => [route.label, route] as const))(
      '%s answers 401 with WWW-Authenticate: Bearer',
      async (_route, route) => {
        const response = await send(route, authorization());
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
        expect(await response.json()).toMatchObject({
          label: ANY_STRING,
          message: ANY_STRING,
        });
      },
    );
  });

  it('leaves the file untouched after all the refused writes', async () => {
    await fileStillUnchanged();
  });

  it('accepts access_token in the query of GET routes', async () => {
    for (const route of readRoutes) {
      const path = route.path();
      const separator = path.includes('?') ? '&' : '?';
      const response = await fetch(
        `${device.base}${path}${separator}access_token=${device.tokenFor('alice')}`,
      );
      expect(response.status, route.label).toBe(200);
    }
  });

  it('does not accept access_token in the query of a write', async () => {
    const response = await fetch(
      `${device.base}/sdk/v2/files/${file.id}?access_token=${device.tokenFor('alice')}`,
      { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"via-query.txt"}' },
    );
    expect(response.status).toBe(401);
    await fileStillUnchanged();
  });

  it('answers 403 to a token without any device scope', async () => {
    const token = device.tokenFor('alice', 'openid email profile');
    const response = await fetch(`${device.base}/sdk/v2/files/${file.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
  });
});

describe('a token with scope openid nas_read_only', () => {
  it.each(readRoutes.map((route) => [route.label, route] as const))('may %s', async (_label, route) => {
    const response = await send(route, `Bearer ${readOnly}`);
    expect(response.status).toBe(200);
  });

  it.each(writeRoutes.map((route) => [route.label, route] as const))(
    'gets 403 for %s',
    async (_label, route) => {
      const response = await send(route, `Bearer ${readOnly}`);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
    },
  );

  it('gets 403 for every call of a resumable upload', async () => {
    const started = await postMultipart(device, { name: 'upload.bin', parentID: folder.id }, 'abc', {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    const id = idFromLocation(started);
    const auth = { authorization: `Bearer ${readOnly}` };
    const put = await fetch(`${device.base}/sdk/v2/files/${id}/resumable/content?done=true`, {
      method: 'PUT',
      headers: auth,
      body: 'def',
    });
    expect(put.status).toBe(403);
    const cancel = await fetch(`${device.base}/sdk/v2/files/${id}/resumable`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(cancel.status).toBe(403);
    const status = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
    expect(await status.json()).toMatchObject({ id, size: 3 });
  });

  it('leaves the file untouched after the refused writes', async () => {
    await fileStillUnchanged();
  });
});

describe('another user', () => {
  const asBob = (path: string, init?: RequestInit) => device.fetchAs('bob', path, init);

  it('has a root of his own', async () => {
    const alice = (await (await device.fetchAs('alice', '/sdk/v2/files/root')).json()) as FileObject;
    const bob = (await (await asBob('/sdk/v2/files/root')).json()) as FileObject;
    expect(bob.id).not.toBe(alice.id);
    const listing = (await (await asBob('/sdk/v2/filesSearch/parents?ids=root')).json()) as ListingResponse;
    expect(listing.files).toEqual([]);
  });

  it('gets 404 for GET of alice’s file and folder', async () => {
    expect((await asBob(`/sdk/v2/files/${file.id}`)).status).toBe(404);
    expect((await asBob(`/sdk/v2/files/${folder.id}`)).status).toBe(404);
  });

  it('gets 404 for alice’s root by id', async () => {
    const alice = (await (await device.fetchAs('alice', '/sdk/v2/files/root')).json()) as FileObject;
    expect((await asBob(`/sdk/v2/files/${alice.id}`)).status).toBe(404);
    expect((await asBob(`/sdk/v2/files/${alice.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('gets 404 for the content of alice’s file', async () => {
    expect((await asBob(`/sdk/v2/files/${file.id}/content`)).status).toBe(404);
  });

  it('gets 404 for listing alice’s folder and for parentAndName in it', async () => {
    expect((await asBob(`/sdk/v2/filesSearch/parents?ids=${folder.id}`)).status).toBe(404);
    const lookup = await asBob(`/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=secret.txt`);
    expect(lookup.status).toBe(404);
  });

  it('gets 404 for PATCH, POST .../patch, PUT content and DELETE of alice’s file', async () => {
    const patchInit = {
      headers: { 'content-type': 'application/json' },
      body: '{"name":"bob-was-here.txt"}',
    };
    expect((await asBob(`/sdk/v2/files/${file.id}`, { method: 'PATCH', ...patchInit })).status).toBe(404);
    expect((await asBob(`/sdk/v2/files/${file.id}/patch`, { method: 'POST', ...patchInit })).status).toBe(
      404,
    );
    expect((await asBob(`/sdk/v2/files/${file.id}/content`, { method: 'PUT', body: 'bob' })).status).toBe(
      404,
    );
    expect((await asBob(`/sdk/v2/files/${file.id}`, { method: 'DELETE' })).status).toBe(404);
    await fileStillUnchanged();
  });

  it('gets 404 for creating in alice’s folder or moving his item into it', async () => {
    const response = await postMultipart(device, { name: 'intruder.txt', parentID: folder.id }, 'x', {
      user: 'bob',
    });
    expect(response.status).toBe(404);
    const own = await createFile(device, 'bobs.txt', 'x', 'root', { user: 'bob' });
    const move = await asBob(`/sdk/v2/files/${own.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parentID: folder.id }),
    });
    expect(move.status).toBe(404);
  });

  it('gets 404 for alice’s unfinished resumable upload', async () => {
    const started = await postMultipart(device, { name: 'alice-upload.bin', parentID: folder.id }, 'abc', {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    const id = idFromLocation(started);
    expect((await asBob(`/sdk/v2/files/${id}/resumable`)).status).toBe(404);
    expect(
      (await asBob(`/sdk/v2/files/${id}/resumable/content`, { method: 'PUT', body: 'bob' })).status,
    ).toBe(404);
    expect((await asBob(`/sdk/v2/files/${id}/resumable`, { method: 'DELETE' })).status).toBe(404);
    const status = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
    expect(await status.json()).toMatchObject({ id, size: 3 });
  });
});
