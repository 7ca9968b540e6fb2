// The sharing service at service.share.url: create, get, list and delete shares, with wrapped answers
// and errors (device-api.md §4).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { Configuration, Wrapped } from '../../../common/wire/cloud.ts';
import type { FilePermsSearchResponse, Share } from '../../../common/wire/sharing.ts';
import type { ShareList } from '../../../device/routes/share-routes.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';
import { createShare, grant, shareToken, shareWithLink, userId } from '../../helpers/shares.ts';

const ANY_STRING: unknown = expect.any(String);

let shareUrl: string;
let folder: Created;
let file: Created;

test.override({
  deviceOptions: {
    users: ['alice', 'bob', 'carol'].map((name) => ({ name, password: `${name}-password` })),
  },
});

test.beforeAll(async ({ device }) => {
  // Clients follow the configuration, never a fixed layout (device-api.md §1).
  const config = (await (await fetch(device.running.urls.config)).json()) as Wrapped<Configuration>;
  shareUrl = config.data?.componentMap['cloud.service.urls']['service.share.url'] ?? '';
  folder = await createFolder(device, 'to share');
  file = await createFile(device, 'report.pdf', 'pdf bytes', folder.id);
});

function send(
  device: TestDevice,
  user: string | undefined,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (user !== undefined) headers.set('authorization', `Bearer ${device.tokenFor(user)}`);
  return fetch(`${shareUrl}${path}`, { ...init, headers });
}

function create(device: TestDevice, user: string, body: unknown): Promise<Response> {
  return send(device, user, '/v1/shares', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function validBody(device: TestDevice, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ownerId: userId(device, 'alice'),
    deviceId: device.running.context.device.id,
    fileIds: [folder.id],
    ...overrides,
  };
}

async function expectWrappedError(response: Response, status: number, label: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ data: null, error: { label, message: ANY_STRING } });
}

describe('POST /v1/shares', () => {
  it('answers 201 {data: Share, error: null} with metadata null', async ({ device }) => {
    const before = Date.now();
    const response = await create(device, 'alice', validBody(device, { fileIds: [folder.id, file.id] }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as Wrapped<Share>;
    expect(body.error).toBeNull();
    const share = body.data as Share;
    expect(share).toEqual({
      shareId: ANY_STRING,
      deviceId: device.running.context.device.id,
      ownerId: userId(device, 'alice'),
      authId: ANY_STRING,
      fileIds: [folder.id, file.id],
      dateCreated: expect.any(Number) as unknown,
      lastModified: share.dateCreated,
      metadata: null,
      url: `${device.base}/s/${share.shareId}`,
    });
    expect(share.dateCreated).toBeGreaterThanOrEqual(before);
  });

  it('makes a shareId of 128 random bits in base64url and a separate authId', async ({ device }) => {
    const first = await createShare(device, 'alice', [file.id]);
    const second = await createShare(device, 'alice', [file.id]);
    expect(first.shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(first.shareId, 'base64url')).toHaveLength(16);
    expect(first.authId).not.toBe(first.shareId);
    expect(second.shareId).not.toBe(first.shareId);
    expect(second.authId).not.toBe(first.authId);
  });

  it.for([
    ['no ownerId', { ownerId: undefined }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    ['no deviceId', { deviceId: undefined }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    ['no fileIds', { fileIds: undefined }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    ['an empty fileIds', { fileIds: [] }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    ['fileIds that is not an array', { fileIds: 'abc' }, 'GENERAL_INVALID_PARAMETERS'],
    ['a fileId that is not a string', { fileIds: [1] }, 'GENERAL_INVALID_PARAMETERS'],
    ['the same fileId twice', { fileIds: ['F', 'F'] }, 'GENERAL_INVALID_PARAMETERS'],
    ['an ownerId that is not a string', { ownerId: 7 }, 'GENERAL_INVALID_PARAMETERS'],
    ['the root folder', { fileIds: ['root'] }, 'GENERAL_INVALID_PARAMETERS'],
  ] as const)('answers 400 for %s', async ([_label, overrides, label], { device }) => {
    const fileIds = (overrides as { fileIds?: unknown }).fileIds;
    const resolved: unknown = Array.isArray(fileIds)
      ? fileIds.map((id: unknown) => (id === 'F' ? file.id : id))
      : fileIds;
    await expectWrappedError(
      await create(
        device,
        'alice',
        validBody(device, { ...overrides, ...('fileIds' in overrides ? { fileIds: resolved } : {}) }),
      ),
      400,
      label,
    );
  });

  it('answers 400 for a body that is not an object', async ({ device }) => {
    await expectWrappedError(await create(device, 'alice', [folder.id]), 400, 'GENERAL_INVALID_PARAMETERS');
  });

  it('answers 403 FORBIDDEN when ownerId is not the caller', async ({ device }) => {
    await expectWrappedError(
      await create(device, 'alice', validBody(device, { ownerId: userId(device, 'bob') })),
      403,
      'FORBIDDEN',
    );
  });

  it('answers 403 FORBIDDEN for another device', async ({ device }) => {
    await expectWrappedError(
      await create(device, 'alice', validBody(device, { deviceId: 'another-device' })),
      403,
      'FORBIDDEN',
    );
  });

  it('answers 403 FORBIDDEN for an item the caller may not share, known or not', async ({ device }) => {
    const asBob = { ownerId: userId(device, 'bob'), fileIds: [file.id] };
    await expectWrappedError(await create(device, 'bob', validBody(device, asBob)), 403, 'FORBIDDEN');
    await expectWrappedError(
      await create(device, 'alice', validBody(device, { fileIds: ['no-such-item'] })),
      403,
      'FORBIDDEN',
    );
  });

  it('lets a holder of WriteFilePerms share another user’s folder', async ({ device }) => {
    await grant(device, 'alice', folder.id, { id: userId(device, 'bob'), type: 'user' }, 'WriteFilePerms');
    const response = await create(
      device,
      'bob',
      validBody(device, { ownerId: userId(device, 'bob'), fileIds: [file.id] }),
    );
    expect(response.status).toBe(201);
  });

  it('answers 401 UNAUTHORIZED with WWW-Authenticate without a token', async ({ device }) => {
    const response = await send(device, undefined, '/v1/shares', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBody(device)),
    });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    await expectWrappedError(response, 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN to a share token', async ({ device }) => {
    const share = await shareWithLink(device, 'alice', [file.id]);
    const response = await fetch(`${shareUrl}/v1/shares`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await shareToken(share)}` },
      body: JSON.stringify(validBody(device)),
    });
    await expectWrappedError(response, 403, 'FORBIDDEN');
  });
});

describe('GET /v1/shares/{shareId}', () => {
  it('answers 200 {data: Share, error: null} to its owner', async ({ device }) => {
    const share = await createShare(device, 'alice', [file.id]);
    const response = await send(device, 'alice', `/v1/shares/${share.shareId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: share, error: null });
  });

  it('answers 404 SHARE_NOT_FOUND to anyone else and for an unknown id', async ({ device }) => {
    const share = await createShare(device, 'alice', [file.id]);
    await expectWrappedError(
      await send(device, 'bob', `/v1/shares/${share.shareId}`),
      404,
      'SHARE_NOT_FOUND',
    );
    await expectWrappedError(
      await send(device, 'alice', '/v1/shares/AAAAAAAAAAAAAAAAAAAAAA'),
      404,
      'SHARE_NOT_FOUND',
    );
  });

  it('answers 401 without a token', async ({ device }) => {
    await expectWrappedError(await send(device, undefined, '/v1/shares/anything'), 401, 'UNAUTHORIZED');
  });
});

describe('GET /v1/shares', () => {
  let carolShares: Share[];
  let other: Created;

  test.beforeAll(async ({ device }) => {
    other = await createFile(device, 'carol.txt', 'x', 'root', { user: 'carol' });
    const firstFile = await createFile(device, 'one.txt', 'x', 'root', { user: 'carol' });
    carolShares = [];
    for (const ids of [[firstFile.id], [other.id], [firstFile.id, other.id]]) {
      carolShares.push(await createShare(device, 'carol', ids));
    }
  });

  async function list(device: TestDevice, user: string, query = ''): Promise<ShareList> {
    const response = await send(device, user, `/v1/shares${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as ShareList;
  }

  it('answers the caller’s shares only, newest first', async ({ device }) => {
    const body = await list(device, 'carol');
    expect(body.error).toBeNull();
    expect(body.pageToken).toBe('');
    expect(body.data?.map((share) => share.shareId)).toEqual(
      carolShares.map((share) => share.shareId).reverse(),
    );
  });

  it('filters by fileId', async ({ device }) => {
    const body = await list(device, 'carol', `?fileId=${other.id}`);
    expect(body.data?.map((share) => share.shareId).sort()).toEqual(
      [carolShares[1]?.shareId, carolShares[2]?.shareId].sort(),
    );
  });

  it('pages with limit and pageToken', async ({ device }) => {
    const first = await list(device, 'carol', '?limit=2');
    expect(first.data).toHaveLength(2);
    expect(first.pageToken).not.toBe('');
    const second = await list(device, 'carol', `?limit=2&pageToken=${first.pageToken}`);
    expect(second.data).toHaveLength(1);
    expect(second.pageToken).toBe('');
    expect([...(first.data ?? []), ...(second.data ?? [])].map((share) => share.shareId)).toEqual(
      carolShares.map((share) => share.shareId).reverse(),
    );
  });

  it.for([
    ['a bad limit', '?limit=0'],
    ['a pageToken it never gave out', '?pageToken=xyz'],
    ['a repeated parameter', '?limit=1&limit=2'],
  ] as const)('answers 400 GENERAL_INVALID_PARAMETERS for %s', async ([_label, query], { device }) => {
    await expectWrappedError(
      await send(device, 'carol', `/v1/shares${query}`),
      400,
      'GENERAL_INVALID_PARAMETERS',
    );
  });

  it('answers 401 without a token', async ({ device }) => {
    await expectWrappedError(await send(device, undefined, '/v1/shares'), 401, 'UNAUTHORIZED');
  });
});

describe('DELETE /v1/shares/{shareId}', () => {
  it('answers 204, and the share, its link, its tokens and its permissions are gone at once', async ({
    device,
  }) => {
    const share = await shareWithLink(device, 'alice', [folder.id]);
    const token = await shareToken(share);
    const asLink = { headers: { authorization: `Bearer ${token}` } };
    expect((await fetch(`${device.sdk}/v2/files/${folder.id}`, asLink)).status).toBe(200);
    expect((await fetch(share.url)).status).toBe(200);

    expect((await send(device, 'alice', `/v1/shares/${share.shareId}`, { method: 'DELETE' })).status).toBe(
      204,
    );

    await expectWrappedError(
      await send(device, 'alice', `/v1/shares/${share.shareId}`),
      404,
      'SHARE_NOT_FOUND',
    );
    expect((await fetch(share.url)).status).toBe(404);
    expect((await fetch(`${device.sdk}/v2/files/${folder.id}`, asLink)).status).toBe(401);
    const perms = await device.fetchAs(
      'alice',
      `/sdk/v1/filePermsSearch/granting?fileID=${folder.id}&entityID=${share.authId}&entityType=cloudShare`,
    );
    expect(((await perms.json()) as FilePermsSearchResponse).filePerms).toEqual([]);
  });

  it('answers 404 to anyone but the owner and leaves the share alone', async ({ device }) => {
    const share = await createShare(device, 'alice', [file.id]);
    await expectWrappedError(
      await send(device, 'bob', `/v1/shares/${share.shareId}`, { method: 'DELETE' }),
      404,
      'SHARE_NOT_FOUND',
    );
    expect((await send(device, 'alice', `/v1/shares/${share.shareId}`)).status).toBe(200);
  });

  it('answers 404 the second time', async ({ device }) => {
    const share = await createShare(device, 'alice', [file.id]);
    expect((await send(device, 'alice', `/v1/shares/${share.shareId}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await expectWrappedError(
      await send(device, 'alice', `/v1/shares/${share.shareId}`, { method: 'DELETE' }),
      404,
      'SHARE_NOT_FOUND',
    );
  });
});

it('answers unknown sharing routes with a wrapped 404', async ({ device }) => {
  await expectWrappedError(await send(device, 'alice', '/v1/sharez'), 404, 'NOT_FOUND');
});
