// File content over HTTP: downloads with ranges and preconditions, and replacing content with PUT
// (device-api.md §3 "Files").
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

const CONTENT = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
const SIZE = CONTENT.length;

let file: Created;
let folder: Created;
let empty: Created;

test.beforeAll(async ({ device }) => {
  file = await createFile(device, 'alphabet.txt', CONTENT);
  folder = await createFolder(device, 'folder');
  empty = await createFile(device, 'empty.bin', '');
});

function download(
  device: TestDevice,
  id: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/content${query}`, { headers });
}

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

async function currentEtag(device: TestDevice, id: string): Promise<string> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}`);
  return ((await response.json()) as FileObject).eTag;
}

describe('GET /sdk/v2/files/{id}/content', () => {
  it('answers 200 with the bytes, ETag, Content-Length and Accept-Ranges', async ({ device }) => {
    const response = await download(device, file.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(file.etag);
    expect(response.headers.get('content-length')).toBe(String(SIZE));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(await bytes(response)).toEqual(CONTENT);
  });

  it('serves the same bytes under /sdk/v3', async ({ device }) => {
    const response = await device.fetchAs('alice', `/sdk/v3/files/${file.id}/content`);
    expect(response.status).toBe(200);
    expect(await bytes(response)).toEqual(CONTENT);
  });

  it('answers 206 with Content-Range for a closed range', async ({ device }) => {
    const response = await download(device, file.id, { range: 'bytes=2-5' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 2-5/${SIZE}`);
    expect(response.headers.get('content-length')).toBe('4');
    expect(await bytes(response)).toEqual(CONTENT.subarray(2, 6));
  });

  it('answers 206 with the rest of the file for an open-ended range', async ({ device }) => {
    const response = await download(device, file.id, { range: 'bytes=30-' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 30-${SIZE - 1}/${SIZE}`);
    expect(await bytes(response)).toEqual(CONTENT.subarray(30));
  });

  it('answers 206 with the last bytes for a suffix range', async ({ device }) => {
    const response = await download(device, file.id, { range: 'bytes=-4' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${SIZE - 4}-${SIZE - 1}/${SIZE}`);
    expect(await bytes(response)).toEqual(CONTENT.subarray(SIZE - 4));
  });

  it('clamps a range that ends past the last byte', async ({ device }) => {
    const response = await download(device, file.id, { range: `bytes=${SIZE - 2}-${SIZE + 100}` });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${SIZE - 2}-${SIZE - 1}/${SIZE}`);
    expect(await bytes(response)).toEqual(CONTENT.subarray(SIZE - 2));
  });

  it('answers 416 with Content-Range bytes */size for a range past the end', async ({ device }) => {
    const response = await download(device, file.id, { range: `bytes=${SIZE}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it.for(['bytes=abc', 'bytes=5-2', 'items=0-3', 'bytes=0-1,4-5', 'bytes='] as const)(
    'ignores the malformed or unsupported range %j and sends the whole file',
    async (range, { device }) => {
      const response = await download(device, file.id, { range });
      expect(response.status).toBe(200);
      expect(await bytes(response)).toEqual(CONTENT);
    },
  );

  it('honours Range when If-Range names the current eTag', async ({ device }) => {
    const response = await download(device, file.id, { range: 'bytes=0-3', 'if-range': file.etag });
    expect(response.status).toBe(206);
    expect(await bytes(response)).toEqual(CONTENT.subarray(0, 4));
  });

  it('sends the whole file when If-Range names an old eTag', async ({ device }) => {
    const response = await download(device, file.id, { range: 'bytes=0-3', 'if-range': '"an-old-etag"' });
    expect(response.status).toBe(200);
    expect(await bytes(response)).toEqual(CONTENT);
  });

  it('answers 304 when If-None-Match names the current eTag', async ({ device }) => {
    const response = await download(device, file.id, { 'if-none-match': file.etag });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
  });

  it('answers 412 when If-Match names another eTag', async ({ device }) => {
    const response = await download(device, file.id, { 'if-match': '"an-old-etag"' });
    expect(response.status).toBe(412);
  });

  it('adds Content-Disposition: attachment with the exact unicode name for download=true', async ({
    device,
  }) => {
    const name = 'résumé ☃ 日本.txt';
    const unicode = await createFile(device, name, 'snow');
    const response = await download(device, unicode.id, {}, '?download=true');
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment\s*;/);
    // A header value must be plain ASCII; the exact name travels RFC 8187-encoded in filename*.
    expect(disposition).toMatch(/^[\x20-\x7e]*$/);
    const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe(name);
    expect(await bytes(response)).toEqual(Buffer.from('snow'));
  });

  it('encodes filename* with RFC 8187 attr-chars only, so a name with ( ) and quote survives strict parsers', async ({
    device,
  }) => {
    const name = "it's (1) *draft*.txt";
    const created = await createFile(device, name, 'x');
    const response = await download(device, created.id, {}, '?download=true');
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1] ?? '';
    // RFC 8187 §3.2.1: value-chars are attr-chars (ALPHA DIGIT ! # $ & + - . ^ _ ` | ~) or %XX.
    expect(encoded).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(encoded)).toBe(name);
  });

  it('sends no Content-Disposition without download=true', async ({ device }) => {
    const response = await download(device, file.id);
    expect(response.headers.get('content-disposition')).toBeNull();
  });

  it('answers 200 with no bytes for an empty file', async ({ device }) => {
    const response = await download(device, empty.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('0');
    expect((await bytes(response)).length).toBe(0);
  });

  it('answers 400 for a folder', async ({ device }) => {
    const response = await download(device, folder.id);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING });
  });

  it('answers 404 for an unknown id', async ({ device }) => {
    const response = await download(device, 'no-such-id');
    expect(response.status).toBe(404);
  });
});

describe('PUT /sdk/v2/files/{id}/content', () => {
  function upload(
    device: TestDevice,
    id: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return device.fetchAs('alice', `/sdk/v2/files/${id}/content`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...headers },
      body,
    });
  }

  it('answers 204 with a new ETag and stores the new bytes', async ({ device }) => {
    const target = await createFile(device, 'replace-me.txt', 'old');
    const response = await upload(device, target.id, 'brand new content');
    expect(response.status).toBe(204);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^".*"$/);
    expect(etag).not.toBe(target.etag);
    expect(await bytes(await download(device, target.id))).toEqual(Buffer.from('brand new content'));
  });

  it('changes the File’s size and eTag to the new ones', async ({ device }) => {
    const target = await createFile(device, 'grow.txt', 'abc');
    const response = await upload(device, target.id, 'abcdefgh');
    const after = (await (await device.fetchAs('alice', `/sdk/v2/files/${target.id}`)).json()) as FileObject;
    expect(after.size).toBe(8);
    expect(after.eTag).toBe(response.headers.get('etag'));
    expect(after.eTag).not.toBe(target.etag);
  });

  it('accepts an empty body, leaving an empty file', async ({ device }) => {
    const target = await createFile(device, 'shrink.txt', 'something');
    const response = await upload(device, target.id, '');
    expect(response.status).toBe(204);
    const after = (await (await device.fetchAs('alice', `/sdk/v2/files/${target.id}`)).json()) as FileObject;
    expect(after.size).toBe(0);
    expect((await bytes(await download(device, target.id))).length).toBe(0);
  });

  it('accepts any Content-Type, JSON included, as raw bytes', async ({ device }) => {
    const target = await createFile(device, 'data.json', '{}');
    const response = await upload(device, target.id, '{"a": 1}', { 'content-type': 'application/json' });
    expect(response.status).toBe(204);
    expect((await bytes(await download(device, target.id))).toString()).toBe('{"a": 1}');
  });

  it('answers 204 when If-Match names the current eTag', async ({ device }) => {
    const target = await createFile(device, 'if-match-ok.txt', 'v1');
    const response = await upload(device, target.id, 'v2', { 'if-match': target.etag });
    expect(response.status).toBe(204);
  });

  it('answers 412 and keeps the old bytes when If-Match names an old eTag', async ({ device }) => {
    const target = await createFile(device, 'if-match-stale.txt', 'v1');
    await upload(device, target.id, 'v2');
    const response = await upload(device, target.id, 'v3', { 'if-match': target.etag });
    expect(response.status).toBe(412);
    expect((await bytes(await download(device, target.id))).toString()).toBe('v2');
  });

  it('answers 412 when If-None-Match is *', async ({ device }) => {
    const target = await createFile(device, 'if-none-match.txt', 'v1');
    const response = await upload(device, target.id, 'v2', { 'if-none-match': '*' });
    expect(response.status).toBe(412);
  });

  it('answers 400 for a folder', async ({ device }) => {
    const response = await upload(device, folder.id, 'nope');
    expect(response.status).toBe(400);
  });

  it('answers 404 for an unknown id', async ({ device }) => {
    const response = await upload(device, 'no-such-id', 'nope');
    expect(response.status).toBe(404);
  });

  it('changes the ETag seen by a later download', async ({ device }) => {
    const target = await createFile(device, 'download-etag.txt', 'one');
    const response = await upload(device, target.id, 'two');
    const downloaded = await download(device, target.id);
    expect(downloaded.headers.get('etag')).toBe(response.headers.get('etag'));
    expect(await currentEtag(device, target.id)).toBe(response.headers.get('etag'));
  });
});
