// The resumable upload of device-api.md §3: create with done=false, append or resend chunks, commit
// with done=true; the file stays invisible until then.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse, ResumableStatus } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, folderMaker, idFromLocation, postMultipart } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

const freshFolder = folderMaker('resumable');

/** Starts an upload; returns its id. */
async function startUpload(
  device: TestDevice,
  metadata: Record<string, unknown>,
  content?: Buffer | string,
  query = 'done=false',
): Promise<string> {
  const response = await postMultipart(device, metadata, content, { path: '/sdk/v2/files/resumable', query });
  expect(response.status).toBe(201);
  return idFromLocation(response);
}

function putChunk(device: TestDevice, id: string, chunk: Buffer | string, query = ''): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content${query ? `?${query}` : ''}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: chunk,
  });
}

async function receivedSize(device: TestDevice, id: string): Promise<number> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as ResumableStatus;
  expect(body.id).toBe(id);
  return body.size;
}

async function contentOf(device: TestDevice, id: string): Promise<Buffer> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function listingIds(device: TestDevice, folderId: string): Promise<string[]> {
  const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folderId}`);
  return ((await response.json()) as ListingResponse).files.map((file) => file.id ?? '');
}

describe('resumable upload', () => {
  it('answers 201 with a relative Location for POST .../resumable?done=false', async ({ device }) => {
    const folder = await freshFolder(device);
    const response = await postMultipart(device, { name: 'big.bin', parentID: folder.id }, undefined, {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/sdk\/v2\/files\/[^/]+$/);
  });

  it('keeps an unfinished upload out of GET, the listing and parentAndName', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(
      device,
      { name: 'hidden-until-done.bin', parentID: folder.id },
      'first bytes',
    );
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}`)).status).toBe(404);
    expect(await listingIds(device, folder.id)).toEqual([]);
    const lookup = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=hidden-until-done.bin`,
    );
    expect(lookup.status).toBe(404);
  });

  it('counts the content sent with the POST in GET .../resumable', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'counted.bin', parentID: folder.id }, '12345');
    expect(await receivedSize(device, id)).toBe(5);
  });

  it('reports size 0 for an upload started without content', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'nothing-yet.bin', parentID: folder.id });
    expect(await receivedSize(device, id)).toBe(0);
  });

  it('appends after the received bytes when PUT has no offset', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'append.bin', parentID: folder.id }, 'abc');
    expect((await putChunk(device, id, 'def')).status).toBe(204);
    expect((await putChunk(device, id, 'ghi')).status).toBe(204);
    expect(await receivedSize(device, id)).toBe(9);
    expect((await putChunk(device, id, '', 'done=true')).status).toBe(204);
    expect((await contentOf(device, id)).toString()).toBe('abcdefghi');
  });

  it('writes at the given offset when it equals the bytes received', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'offset.bin', parentID: folder.id });
    expect((await putChunk(device, id, 'hello ', 'offset=0')).status).toBe(204);
    expect((await putChunk(device, id, 'world', 'offset=6')).status).toBe(204);
    expect((await putChunk(device, id, '', 'done=true')).status).toBe(204);
    expect((await contentOf(device, id)).toString()).toBe('hello world');
  });

  it('answers 400 for an offset past the bytes received, and keeps what was received', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'gap.bin', parentID: folder.id }, 'abc');
    const response = await putChunk(device, id, 'xyz', 'offset=10');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
    expect(await receivedSize(device, id)).toBe(3);
  });

  it('replaces what followed an earlier offset when a chunk is resent', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'resend.bin', parentID: folder.id });
    await putChunk(device, id, 'aaaa');
    await putChunk(device, id, 'XXXX');
    expect((await putChunk(device, id, 'bbbb', 'offset=4')).status).toBe(204);
    expect(await receivedSize(device, id)).toBe(8);
    expect((await putChunk(device, id, 'cc', 'offset=2&done=true')).status).toBe(204);
    expect((await contentOf(device, id)).toString()).toBe('aacc');
  });

  it('commits with done=true and an empty body: 204 with the ETag the file then has', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(
      device,
      { name: 'commit.bin', parentID: folder.id, mTime: '2026-01-01T00:00:00Z' },
      'xyz',
    );
    const response = await putChunk(device, id, '', 'done=true');
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
    expect(await listingIds(device, folder.id)).toEqual([id]);
  });

  it('no longer answers GET .../resumable once committed', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'finished.bin', parentID: folder.id }, 'x');
    await putChunk(device, id, '', 'done=true');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`)).status).toBe(404);
  });

  it('commits at once for POST .../resumable with done=true', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(
      device,
      { name: 'one-shot.bin', parentID: folder.id },
      'all at once',
      'done=true',
    );
    expect((await contentOf(device, id)).toString()).toBe('all at once');
  });

  it('treats POST .../resumable without done as unfinished', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'default-done.bin', parentID: folder.id }, 'x', '');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}`)).status).toBe(404);
    expect(await receivedSize(device, id)).toBe(1);
  });

  it('cancels with DELETE .../resumable: 204, then the upload is gone', async ({ device }) => {
    const folder = await freshFolder(device);
    const id = await startUpload(device, { name: 'cancelled.bin', parentID: folder.id }, 'abc');
    const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect((await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`)).status).toBe(404);
    expect((await putChunk(device, id, 'more')).status).toBe(404);
    expect((await putChunk(device, id, '', 'done=true')).status).toBe(404);
    expect(await listingIds(device, folder.id)).toEqual([]);
  });

  it('answers 409 at POST for a name taken in the folder', async ({ device }) => {
    const folder = await freshFolder(device);
    await createFile(device, 'taken.bin', 'x', folder.id);
    const response = await postMultipart(device, { name: 'taken.bin', parentID: folder.id }, undefined, {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    expect(response.status).toBe(409);
  });

  it('answers 404 for GET, PUT and DELETE of an unknown upload id', async ({ device }) => {
    expect((await device.fetchAs('alice', '/sdk/v2/files/no-such-upload/resumable')).status).toBe(404);
    expect((await putChunk(device, 'no-such-upload', 'x')).status).toBe(404);
    const deleted = await device.fetchAs('alice', '/sdk/v2/files/no-such-upload/resumable', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(404);
  });

  it('answers 404 for GET .../resumable of a finished file', async ({ device }) => {
    const file = await createFile(device, 'plain-file.bin', 'x');
    expect((await device.fetchAs('alice', `/sdk/v2/files/${file.id}/resumable`)).status).toBe(404);
  });

  it('stores a ~20 MiB upload sent in several chunks byte for byte', async ({ device }) => {
    const folder = await freshFolder(device);
    const content = randomBytes(20 * 1024 * 1024 + 12_345);
    const chunkSize = 3 * 1024 * 1024 + 17;
    const id = await startUpload(
      device,
      { name: 'large.bin', parentID: folder.id },
      content.subarray(0, chunkSize),
    );
    for (let offset = chunkSize; offset < content.length; offset += chunkSize) {
      const response = await putChunk(
        device,
        id,
        content.subarray(offset, offset + chunkSize),
        `offset=${offset}`,
      );
      expect(response.status).toBe(204);
      expect(await receivedSize(device, id)).toBe(Math.min(offset + chunkSize, content.length));
    }
    expect((await putChunk(device, id, '', 'done=true')).status).toBe(204);
    const file = (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
    expect(file.size).toBe(content.length);
    const stored = await contentOf(device, id);
    expect(stored.length).toBe(content.length);
    expect(stored.equals(content)).toBe(true);
  });
});
