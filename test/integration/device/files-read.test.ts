// Reading one item over HTTP: GET /sdk/v2/files/{id}, its query options and preconditions, lookup by
// parent and name, and the relay mount /proxy/{deviceId}/sdk (device-api.md §1, §3).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { TestDevice } from '../../helpers/device.ts';
import type { FileObject } from '../../../common/wire/device-api.ts';
import {
  createFile,
  createFolder,
  createItem,
  FOLDER_MIME_TYPE,
  type Created,
} from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);
const ERROR_LABEL: unknown = expect.stringMatching(/^[A-Z_]+$/);

let folder: Created;
let file: Created;

test.beforeAll(async ({ device }) => {
  folder = await createFolder(device, 'Documents');
  file = await createItem(
    device,
    {
      name: 'notes.TXT',
      parentID: folder.id,
      mTime: '2026-11-22T01:02:03.456Z',
      cTime: '2026-01-02T03:04:05.000Z',
    },
    'hello',
  );
});

async function getFile(
  device: TestDevice,
  path: string,
  init?: RequestInit,
): Promise<{ response: Response; body: FileObject }> {
  const response = await device.fetchAs('alice', path, init);
  return { response, body: (await response.json()) as FileObject };
}

describe('GET /sdk/v2/files/{id}', () => {
  it('answers 200 with the bare File object', async ({ device }) => {
    const { response, body } = await getFile(device, `/sdk/v2/files/${file.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(body).toMatchObject({
      id: file.id,
      parentID: folder.id,
      eTag: file.etag,
      size: 5,
      name: 'notes.TXT',
      extension: '.TXT',
      mTime: '2026-11-22T01:02:03.456Z',
      cTime: '2026-01-02T03:04:05.000Z',
      hidden: 'none',
      trashed: false,
    });
    expect(body.mimeTypes).toContain(body.mimeType);
  });

  it('sends the same eTag in the ETag header and the JSON field', async ({ device }) => {
    const { response, body } = await getFile(device, `/sdk/v2/files/${file.id}`);
    expect(response.headers.get('etag')).toBe(body.eTag);
    expect(body.eTag).toMatch(/^".*"$/);
  });

  it('describes a folder with the vendor folder media type', async ({ device }) => {
    const { body } = await getFile(device, `/sdk/v2/files/${folder.id}`);
    expect(body).toMatchObject({ id: folder.id, name: 'Documents', mimeType: FOLDER_MIME_TYPE, size: 0 });
    expect(body.extension).toBeUndefined();
  });

  it('resolves the alias root to the caller’s root folder', async ({ device }) => {
    const { response, body } = await getFile(device, '/sdk/v2/files/root');
    expect(response.status).toBe(200);
    expect(body.mimeType).toBe(FOLDER_MIME_TYPE);
    expect(body.id).not.toBe('root');
    const { body: viaId } = await getFile(device, `/sdk/v2/files/${body.id}`);
    expect(viaId.id).toBe(body.id);
    const { body: child } = await getFile(device, `/sdk/v2/files/${folder.id}`);
    expect(child.parentID).toBe(body.id);
  });

  it('returns only the requested fields with fields=', async ({ device }) => {
    const { response, body } = await getFile(device, `/sdk/v2/files/${file.id}?fields=id,name,size`);
    expect(response.status).toBe(200);
    expect(body).toEqual({ id: file.id, name: 'notes.TXT', size: 5 });
  });

  it('rejects an unknown field name in fields= with 400', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}?fields=id,nope`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('indents the JSON with pretty=true', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}?pretty=true`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('\n  "id": ');
    expect((JSON.parse(text) as FileObject).id).toBe(file.id);
  });

  it('sends compact JSON with pretty=false', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}?pretty=false`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain('\n');
  });

  it('accepts the token as the access_token query parameter', async ({ device }) => {
    const token = device.tokenFor('alice');
    const response = await fetch(`${device.base}/sdk/v2/files/${file.id}?access_token=${token}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as FileObject).id).toBe(file.id);
  });

  it('answers 304 without a body when If-None-Match names the current eTag', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
      headers: { 'if-none-match': file.etag },
    });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(file.etag);
  });

  it('answers 200 when If-None-Match names another eTag', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(response.status).toBe(200);
  });

  it('answers 412 when If-Match names another eTag', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
      headers: { 'if-match': '"something-else"' },
    });
    expect(response.status).toBe(412);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('answers 200 when If-Match names the current eTag or *', async ({ device }) => {
    for (const ifMatch of [file.etag, '*']) {
      const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
        headers: { 'if-match': ifMatch },
      });
      expect(response.status).toBe(200);
    }
  });

  it('answers 404 with a JSON error for an unknown id', async ({ device }) => {
    const response = await device.fetchAs('alice', '/sdk/v2/files/no-such-id');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      label: ERROR_LABEL,
      message: ANY_STRING,
    });
  });

  it('ignores an x-correlation-id header', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
      headers: { 'x-correlation-id': 'abc-123' },
    });
    expect(response.status).toBe(200);
  });
});

describe('GET /sdk/v2/filesSearch/parentAndName', () => {
  it('answers 200 with the File object of the named child', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=${encodeURIComponent('notes.TXT')}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: file.id, name: 'notes.TXT', parentID: folder.id });
  });

  it('accepts the alias root as parentID', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      '/sdk/v2/filesSearch/parentAndName?parentID=root&name=Documents',
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as FileObject).id).toBe(folder.id);
  });

  it('matches the name exactly, case included', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=notes.txt`,
    );
    expect(response.status).toBe(404);
  });

  it('answers 404 when the folder has no such child', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=missing.txt`,
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ label: ANY_STRING });
  });

  it.for([
    ['parentID', '/sdk/v2/filesSearch/parentAndName?name=Documents'],
    ['name', '/sdk/v2/filesSearch/parentAndName?parentID=root'],
    ['both', '/sdk/v2/filesSearch/parentAndName'],
  ] as const)('answers 400 when %s is missing', async ([_missing, path], { device }) => {
    const response = await device.fetchAs('alice', path);
    expect(response.status).toBe(400);
  });
});

describe('the relay mount /proxy/{deviceId}/sdk', () => {
  it('serves the same device API as /sdk', async ({ device }) => {
    const proxyURL = device.running.urls.network.proxyURL;
    const response = await fetch(`${proxyURL}/sdk/v2/files/${file.id}`, {
      headers: { authorization: `Bearer ${device.tokenFor('alice')}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as FileObject).eTag).toBe(file.etag);
  });

  it('creates items whose Location is relative to the device base', async ({ device }) => {
    const proxyPath = new URL(device.running.urls.network.proxyURL).pathname;
    const created = await createFile(device, 'via-proxy.txt', 'x', 'root', {
      path: `${proxyPath}/sdk/v2/files`,
    });
    const response = await device.fetchAs('alice', `${proxyPath}/sdk/v2/files/${created.id}`);
    expect(response.status).toBe(200);
  });

  it('answers 404 under another device id', async ({ device }) => {
    const response = await device.fetchAs('alice', `/proxy/not-this-device/sdk/v2/files/${file.id}`);
    expect(response.status).toBe(404);
  });
});
