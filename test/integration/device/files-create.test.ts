// Creating files and folders with the multipart POST /sdk/v2/files (device-api.md §3 "Files").
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  createFolder,
  folderFactory,
  createItem,
  FOLDER_MIME_TYPE,
  idFromLocation,
  postMultipart,
  type MultipartOptions,
} from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

let device: TestDevice;

test.beforeAll(async ({ device: started }) => {
  // The helpers and tables of cases below close over this handle, so the file keeps one.
  device = started;
});

async function getFile(id: string): Promise<FileObject> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as FileObject;
}

async function contentOf(id: string): Promise<Buffer> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** A fresh folder per test, so names never collide between tests. */
const freshFolder = folderFactory(() => device, 'create-test');

describe('POST /sdk/v2/files', () => {
  it('creates a folder: 201, a relative Location and an ETag matching GET', async () => {
    const response = await postMultipart(device, {
      name: 'A folder',
      parentID: 'root',
      mimeType: FOLDER_MIME_TYPE,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/sdk\/v2\/files\/[^/]+$/);
    const id = idFromLocation(response);
    const file = await getFile(id);
    expect(file).toMatchObject({ id, name: 'A folder', mimeType: FOLDER_MIME_TYPE, size: 0 });
    expect(response.headers.get('etag')).toBe(file.eTag);
  });

  it('creates a file with content that GET .../content returns exactly', async () => {
    const folder = await freshFolder();
    const content = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
    const created = await createFile(device, 'data.bin', content, folder.id);
    const file = await getFile(created.id);
    expect(file).toMatchObject({ name: 'data.bin', parentID: folder.id, size: 4096, eTag: created.etag });
    expect(await contentOf(created.id)).toEqual(content);
  });

  it('creates a file in root when parentID is left out', async () => {
    const created = await createItem(device, { name: 'no-parent-given.txt' }, 'x');
    const root = await getFile('root');
    expect((await getFile(created.id)).parentID).toBe(root.id);
  });

  it('keeps content bytes that only look like a delimiter, and line breaks at its end', async () => {
    const folder = await freshFolder();
    const content = Buffer.from('line\r\n--mchx\r\n\r\n--mch junk\r\n\n--mc\r\nend\r\n');
    const created = await createFile(device, 'tricky.txt', content, folder.id, { boundary: 'mch' });
    expect(await contentOf(created.id)).toEqual(content);
  });

  it('echoes mTime and cTime given with milliseconds', async () => {
    const created = await createItem(device, {
      name: 'times-ms.txt',
      mTime: '2026-11-22T01:02:03.456Z',
      cTime: '2025-05-06T07:08:09.012Z',
    });
    expect(await getFile(created.id)).toMatchObject({
      mTime: '2026-11-22T01:02:03.456Z',
      cTime: '2025-05-06T07:08:09.012Z',
    });
  });

  it('reads mTime and cTime without fractions and writes them with milliseconds', async () => {
    const created = await createItem(device, {
      name: 'times-s.txt',
      mTime: '2026-11-22T01:02:03Z',
      cTime: '2025-05-06T07:08:09Z',
    });
    expect(await getFile(created.id)).toMatchObject({
      mTime: '2026-11-22T01:02:03.000Z',
      cTime: '2025-05-06T07:08:09.000Z',
    });
  });

  it('cuts fractions finer than milliseconds', async () => {
    const created = await createItem(device, { name: 'fine-time.txt', mTime: '2026-11-22T01:02:03.456789Z' });
    expect((await getFile(created.id)).mTime).toBe('2026-11-22T01:02:03.456Z');
  });

  it('echoes hidden and mimeType', async () => {
    const created = await createItem(
      device,
      { name: 'hidden.dat', hidden: 'mac', mimeType: 'text/x-custom' },
      'x',
    );
    const file = await getFile(created.id);
    expect(file).toMatchObject({ hidden: 'mac', mimeType: 'text/x-custom' });
    expect(file.mimeTypes).toContain('text/x-custom');
  });

  it('stores the name exactly: case and Unicode normalisation are kept apart', async () => {
    const folder = await freshFolder();
    const names = ['Readme.md', 'README.md', 'caf\u00e9.txt', 'cafe\u0301.txt'];
    const ids: string[] = [];
    for (const name of names) ids.push((await createFile(device, name, name, folder.id)).id);
    expect(new Set(ids).size).toBe(names.length);
    for (const [index, id] of ids.entries()) expect((await getFile(id)).name).toBe(names[index]);
  });

  const formats: [string, MultipartOptions][] = [
    ['CRLF line endings', { lineEnding: '\r\n' }],
    ['bare LF line endings', { lineEnding: '\n' }],
    ['a blank line before the first boundary', { preamble: '\r\n' }],
    ['a preamble of text before the first boundary', { preamble: 'This is a multipart message.\r\n' }],
    [
      'parts without headers, a blank line instead',
      { metadataHeaders: 'blank-line', contentHeaders: 'blank-line' },
    ],
    ['a metadata part with no headers and no blank line', { metadataHeaders: 'none' }],
    [
      'LF endings and parts without headers',
      { lineEnding: '\n', metadataHeaders: 'none', contentHeaders: 'blank-line' },
    ],
  ];
  it.each(formats)('accepts a body with %s', async (_label, options) => {
    const folder = await freshFolder();
    const content = Buffer.from('content of the file\nwith two lines');
    const created = await createFile(device, 'format.txt', content, folder.id, options);
    expect((await getFile(created.id)).size).toBe(content.length);
    expect(await contentOf(created.id)).toEqual(content);
  });

  it('accepts an empty content part, making an empty file', async () => {
    const folder = await freshFolder();
    const created = await createFile(device, 'empty.txt', '', folder.id);
    expect((await getFile(created.id)).size).toBe(0);
    expect((await contentOf(created.id)).length).toBe(0);
  });

  it('makes an empty file when there is no content part', async () => {
    const folder = await freshFolder();
    const created = await createItem(device, { name: 'no-content.txt', parentID: folder.id });
    expect((await getFile(created.id)).size).toBe(0);
  });

  it('answers 409 for a name already taken in the folder', async () => {
    const folder = await freshFolder();
    await createFile(device, 'a.txt', 'first', folder.id);
    const response = await postMultipart(device, { name: 'a.txt', parentID: folder.id }, 'second');
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('answers 409 when a folder of that name exists', async () => {
    const folder = await freshFolder();
    await createFolder(device, 'same', folder.id);
    const response = await postMultipart(device, {
      name: 'same',
      parentID: folder.id,
      mimeType: FOLDER_MIME_TYPE,
    });
    expect(response.status).toBe(409);
  });

  it.each(['true', '1'])(
    'appends (1), (2) before the extension with resolveNameConflict=%s',
    async (value) => {
      const folder = await freshFolder();
      await createFile(device, 'a.txt', 'original', folder.id);
      const query = `resolveNameConflict=${value}`;
      const first = await createFile(device, 'a.txt', 'one', folder.id, { query });
      const second = await createFile(device, 'a.txt', 'two', folder.id, { query });
      expect((await getFile(first.id)).name).toBe('a (1).txt');
      expect((await getFile(second.id)).name).toBe('a (2).txt');
      expect((await contentOf(second.id)).toString()).toBe('two');
    },
  );

  it('keeps the plain name with resolveNameConflict=true when it is free', async () => {
    const folder = await freshFolder();
    const created = await createFile(device, 'free.txt', 'x', folder.id, {
      query: 'resolveNameConflict=true',
    });
    expect((await getFile(created.id)).name).toBe('free.txt');
  });

  it('answers 404 for a parent that does not exist', async () => {
    const response = await postMultipart(device, { name: 'orphan.txt', parentID: 'no-such-folder' }, 'x');
    expect(response.status).toBe(404);
  });

  it('answers 400 for a parent that is a file', async () => {
    const parent = await createFile(device, 'not-a-folder.txt', 'x');
    const response = await postMultipart(device, { name: 'child.txt', parentID: parent.id }, 'x');
    expect(response.status).toBe(400);
  });

  it('answers 400 for a folder with content', async () => {
    const response = await postMultipart(
      device,
      { name: 'dir-with-bytes', mimeType: FOLDER_MIME_TYPE },
      'bytes',
    );
    expect(response.status).toBe(400);
  });

  it('changes the parent folder’s eTag', async () => {
    const folder = await freshFolder();
    await createFile(device, 'child.txt', 'x', folder.id);
    expect((await getFile(folder.id)).eTag).not.toBe(folder.etag);
  });

  it('makes the new item visible to the listing and parentAndName at once', async () => {
    const folder = await freshFolder();
    const created = await createFile(device, 'visible.txt', 'x', folder.id);
    const listing = await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folder.id}`);
    const body = (await listing.json()) as { files: FileObject[] };
    expect(body.files.map((file) => file.id)).toEqual([created.id]);
    const lookup = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=visible.txt`,
    );
    expect(lookup.status).toBe(200);
  });
});
