// The resumable upload of device-api.md §3: create with done=false, append or resend chunks, commit
// with done=true; the file stays invisible until then.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileObject, ListingResponse, ResumableStatus } from '../../../common/wire/device-api.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { createFile, folderFactory, idFromLocation, postMultipart } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

let device: TestDevice;

beforeAll(async () => {
  device = await startTestDevice();
});

afterAll(async () => {
  await device?.stop();
});

const freshFolder = folderFactory(() => device, 'resumable');

/** Starts an upload; returns its id. */
async function startUpload(
  metadata: Record<string, unknown>,
  content?: Buffer | string,
  query = 'done=false',
): Promise<string> {
  const response = await postMultipart(device, metadata, content, { path: '/sdk/v2/files/resumable', query });
  expect(response.status).toBe(201);
  return idFromLocation(response);
}

function putChunk(id: string, chunk: Buffer | string, query = ''): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content${query ? `?${query}` : ''}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: chunk,
  });
}

async function receivedSize(id: string): Promise<number> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as ResumableStatus;
  expect(body.id).toBe(id);
  return body.size;
}

async function contentOf(id: string): Promise<Buffer> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function listingIds(folderId: string): Promise<string[]> {
  const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folderId}`);
  return ((await response.json()) as ListingResponse).files.map((file) => file.id ?? '');
}

describe('resumable upload', () => {
  it('answers 201 with a relative Location for POST .../resumable?done=false', async () => {
    const folder = await freshFolder();
    const response = await postMultipart(device, { name: 'big.bin', parentID: folder.id }, undefined, {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/sdk\/v2\/files\/[^/]+$/);
  });

  it('keeps an unfinished upload out of GET, the listing and parentAndName', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'hidden-until-done.bin', parentID: folder.id }, 'first bytes');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}`)).status).toBe(404);
    expect(await listingIds(folder.id)).toEqual([]);
    const lookup = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=hidden-until-done.bin`,
    );
    expect(lookup.status).toBe(404);
  });

  it('counts the content sent with the POST in GET .../resumable', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'counted.bin', parentID: folder.id }, '12345');
    expect(await receivedSize(id)).toBe(5);
  });

  it('reports size 0 for an upload started without content', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'nothing-yet.bin', parentID: folder.id });
    expect(await receivedSize(id)).toBe(0);
  });

  it('appends after the received bytes when PUT has no offset', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'append.bin', parentID: folder.id }, 'abc');
    expect((await putChunk(id, 'def')).status).toBe(204);
    expect((await putChunk(id, 'ghi')).status).toBe(204);
    expect(await receivedSize(id)).toBe(9);
    expect((await putChunk(id, '', 'done=true')).status).toBe(204);
    expect((await contentOf(id)).toString()).toBe('abcdefghi');
  });

  it('writes at the given offset when it equals the bytes received', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'offset.bin', parentID: folder.id });
    expect((await putChunk(id, 'hello ', 'offset=0')).status).toBe(204);
    expect((await putChunk(id, 'world', 'offset=6')).status).toBe(204);
    expect((await putChunk(id, '', 'done=true')).status).toBe(204);
    expect((await contentOf(id)).toString()).toBe('hello world');
  });

  it('answers 400 for an offset past the bytes received, and keeps what was received', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'gap.bin', parentID: folder.id }, 'abc');
    const response = await putChunk(id, 'xyz', 'offset=10');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
    expect(await receivedSize(id)).toBe(3);
  });

  it('replaces what followed an earlier offset when a chunk is resent', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'resend.bin', parentID: folder.id });
    await putChunk(id, 'aaaa');
    await putChunk(id, 'XXXX');
    expect((await putChunk(id, 'bbbb', 'offset=4')).status).toBe(204);
    expect(await receivedSize(id)).toBe(8);
    expect((await putChunk(id, 'cc', 'offset=2&done=true')).status).toBe(204);
    expect((await contentOf(id)).toString()).toBe('aacc');
  });

  it('commits with done=true and an empty body: 204 with the ETag the file then has', async () => {
    const folder = await freshFolder();
    const id = await startUpload(
      { name: 'commit.bin', parentID: folder.id, mTime: '2026-01-01T00:00:00Z' },
      'xyz',
    );
    const response = await putChunk(id, '', 'done=true');
    expect(response.status).toBe(204);
    const file = (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
    expect(file).toMatchObject({
      id,
      name: 'commit.bin',
      size: 3,
      parentID: folder.id,
      mTime: '2026-01-01T00:00:00.000Z',
    });
    expect(response.headers.get('etag')).toBe(file.eTag);
    expect(await listingIds(folder.id)).toEqual([id]);
  });

  it('no longer answers GET .../resumable once committed', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'finished.bin', parentID: folder.id }, 'x');
    await putChunk(id, '', 'done=true');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`)).status).toBe(404);
  });

  it('commits at once for POST .../resumable with done=true', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'one-shot.bin', parentID: folder.id }, 'all at once', 'done=true');
    expect((await contentOf(id)).toString()).toBe('all at once');
  });

  it('treats POST .../resumable without done as unfinished', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'default-done.bin', parentID: folder.id }, 'x', '');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}`)).status).toBe(404);
    expect(await receivedSize(id)).toBe(1);
  });

  it('cancels with DELETE .../resumable: 204, then the upload is gone', async () => {
    const folder = await freshFolder();
    const id = await startUpload({ name: 'cancelled.bin', parentID: folder.id }, 'abc');
    const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`)).status).toBe(404);
    expect((await putChunk(id, 'more')).status).toBe(404);
    expect((await putChunk(id, '', 'done=true')).status).toBe(404);
    expect(await listingIds(folder.id)).toEqual([]);
  });

  it('answers 409 at POST for a name taken in the folder', async () => {
    const folder = await freshFolder();
    await createFile(device, 'taken.bin', 'x', folder.id);
    const response = await postMultipart(device, { name: 'taken.bin', parentID: folder.id }, undefined, {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    expect(response.status).toBe(409);
  });

  it('answers 404 for GET, PUT and DELETE of an unknown upload id', async () => {
    expect((await device.fetchAs('alice', '/sdk/v2/files/no-such-upload/resumable')).status).toBe(404);
    expect((await putChunk('no-such-upload', 'x')).status).toBe(404);
    const deleted = await device.fetchAs('alice', '/sdk/v2/files/no-such-upload/resumable', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(404);
  });

  it('answers 404 for GET .../resumable of a finished file', async () => {
    const file = await createFile(device, 'plain-file.bin', 'x');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${file.id}/resumable`)).status).toBe(404);
  });

  it('stores a ~20 MiB upload sent in several chunks byte for byte', async () => {
    const folder = await freshFolder();
    const content = randomBytes(20 * 1024 * 1024 + 12_345);
    const chunkSize = 3 * 1024 * 1024 + 17;
    const id = await startUpload({ name: 'large.bin', parentID: folder.id }, content.subarray(0, chunkSize));
    for (let offset = chunkSize; offset < content.length; offset += chunkSize) {
      const response = await putChunk(id, content.subarray(offset, offset + chunkSize), `offset=${offset}`);
      expect(response.status).toBe(204);
      expect(await receivedSize(id)).toBe(Math.min(offset + chunkSize, content.length));
    }
    expect((await putChunk(id, '', 'done=true')).status).toBe(204);
    const file = (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
    expect(file.size).toBe(content.length);
    const stored = await contentOf(id);
    expect(stored.length).toBe(content.length);
    expect(stored.equals(content)).toBe(true);
  });
});
