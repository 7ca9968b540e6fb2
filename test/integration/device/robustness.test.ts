// Hostile and broken input never makes the device answer 500 or stop answering, and leaves nothing
// half-written behind (device-api.md §3 "Errors", "Names").
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse, ResumableStatus } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  folderFactory,
  idFromLocation,
  multipartBody,
  postMultipart,
  type Created,
} from '../../helpers/multipart.ts';
import { partialRequest, rawRequest, requestHead } from '../../helpers/raw-http.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);
const ERROR_LABEL: unknown = expect.stringMatching(/^[A-Z_]+$/);

let device: TestDevice;
let file: Created;

test.beforeAll(async ({ device: started }) => {
  // The helpers and tables of cases below close over this handle, so the file keeps one.
  device = started;
  file = await createFile(device, 'target.txt', 'target content');
});

// device-api.md §3: never 500 for bad input; and whatever came before, the device still answers.
afterEach(async () => {
  const response = await device.fetchAs('alice', '/sdk/v2/files/root');
  expect(response.status, 'the device still answers after the test').toBe(200);
});

const freshFolder = folderFactory(() => device, 'robust');

/** Asserts a 4xx with the device's JSON error body. */
async function expectError(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(JSON.parse(text)).toMatchObject({
    label: ERROR_LABEL,
    message: ANY_STRING,
  });
}

function patchRaw(id: string, body: string, contentType = 'application/json'): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': contentType },
    body,
  });
}

async function currentFile(id: string): Promise<FileObject> {
  return (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
}

describe('bad JSON bodies on PATCH', () => {
  it.each([
    ['malformed JSON', '{"name": "x.txt"'],
    // Not empty, so not "no body" (device-api.md §3; empty-json-body.test.ts has the empty body).
    ['only white space', ' \n'],
    ['trailing garbage', '{"name": "x.txt"} junk'],
    ['a JSON array', '["name", "x.txt"]'],
    ['a JSON number', '42'],
    ['a JSON string', '"x.txt"'],
    ['JSON true', 'true'],
    ['JSON null', 'null'],
    ['a __proto__ key', '{"__proto__": {"name": "x.txt"}}'],
    ['a deeply nested array', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ])('answers 400 for %s and changes nothing', async (_label, body) => {
    const before = await currentFile(file.id);
    await expectError(await patchRaw(file.id, body), 400);
    expect(await currentFile(file.id)).toEqual(before);
  });

  it.each(['text/plain', 'application/octet-stream', 'application/xml', 'application/x-www-form-urlencoded'])(
    'answers 400 or 415 for a non-JSON %s body and changes nothing',
    async (contentType) => {
      const before = await currentFile(file.id);
      const response = await patchRaw(file.id, 'name=x.txt', contentType);
      expect([400, 415]).toContain(response.status);
      expect(await currentFile(file.id)).toEqual(before);
    },
  );

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const body = JSON.stringify({ name: 'big.txt', padding: 'x'.repeat(1024 * 1024 + 10) });
    await expectError(await patchRaw(file.id, body), 413);
  });
});

const wrongTypes: [string, Record<string, unknown>][] = [
  ['name: 5', { name: 5 }],
  ['name: null', { name: null }],
  ['parentID: []', { parentID: [] }],
  ['parentID: ""', { parentID: '' }],
  ['mTime: "yesterday"', { mTime: 'yesterday' }],
  ['mTime: 1700000000000', { mTime: 1_700_000_000_000 }],
  ['mTime without a zone', { mTime: '2026-11-22T01:02:03' }],
  ['mTime on a day that does not exist', { mTime: '2026-02-30T00:00:00Z' }],
  ['cTime: {}', { cTime: {} }],
  ['hidden: "sometimes"', { hidden: 'sometimes' }],
  ['hidden: true', { hidden: true }],
  ['mimeType: 5', { mimeType: 5 }],
  ['mimeType: "not a type"', { mimeType: 'not a type' }],
];

describe('wrong field types', () => {
  it.each(wrongTypes)('PATCH answers 400 for %s', async (_label, body) => {
    const before = await currentFile(file.id);
    await expectError(await patchRaw(file.id, JSON.stringify(body)), 400);
    expect(await currentFile(file.id)).toEqual(before);
  });

  it.each(wrongTypes)('create answers 400 for %s', async (_label, fields) => {
    const folder = await freshFolder();
    const response = await postMultipart(device, { name: 'typed.txt', parentID: folder.id, ...fields }, 'x');
    await expectError(response, 400);
    const listing = (await (
      await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folder.id}`)
    ).json()) as ListingResponse;
    expect(listing.files).toEqual([]);
  });

  it('create answers 400 when name is missing', async () => {
    await expectError(await postMultipart(device, { parentID: 'root' }, 'x'), 400);
  });

  it('resumable create answers 400 when name is missing', async () => {
    const response = await postMultipart(device, { parentID: 'root' }, 'x', {
      path: '/sdk/v2/files/resumable',
    });
    await expectError(response, 400);
  });
});

describe('names', () => {
  const badNames: [string, string][] = [
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['"a/b"', 'a/b'],
    ['"../../etc/passwd"', '../../etc/passwd'],
    ['"a\\u0000b"', 'a\u0000b'],
    ['a lone surrogate', 'a\ud800b'],
    ['256 bytes long', 'n'.repeat(256)],
    ['256 bytes of multi-byte characters', `${'é'.repeat(127)}xx`],
  ];

  it.each(badNames)('create answers 400 for a name %s', async (_label, name) => {
    await expectError(await postMultipart(device, { name, parentID: 'root' }, 'x'), 400);
  });

  it.each(badNames)('PATCH answers 400 for a name %s', async (_label, name) => {
    const before = await currentFile(file.id);
    await expectError(await patchRaw(file.id, JSON.stringify({ name })), 400);
    expect(await currentFile(file.id)).toEqual(before);
  });

  it('accepts a 255-byte name of 3-byte characters and keeps it exactly', async () => {
    const name = '€'.repeat(85);
    expect(Buffer.byteLength(name)).toBe(255);
    const created = await createFile(device, name, 'x');
    expect((await currentFile(created.id)).name).toBe(name);
  });

  it('accepts a 255-byte ASCII name', async () => {
    const name = `${'a'.repeat(251)}.txt`;
    const created = await createFile(device, name, 'x');
    expect((await currentFile(created.id)).name).toBe(name);
  });

  it('keeps a resolved conflict name within 255 bytes', async () => {
    const folder = await freshFolder();
    const name = `${'€'.repeat(83)}.txt`;
    await createFile(device, name, 'x', folder.id);
    const second = await createFile(device, name, 'y', folder.id, { query: 'resolveNameConflict=true' });
    const stored = (await currentFile(second.id)).name;
    expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(255);
    expect(stored).toMatch(/ \(1\)\.txt$/);
  });

  it('stores a name that looks like an encoded path as a plain name', async () => {
    const name = '..%2F..%2Fetc';
    const created = await createFile(device, name, 'x');
    expect((await currentFile(created.id)).name).toBe(name);
    const lookup = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=root&name=${encodeURIComponent(name)}`,
    );
    expect(lookup.status).toBe(200);
  });
});

describe('broken multipart bodies', () => {
  function postRaw(
    body: Buffer | string,
    contentType: string | undefined,
    path = '/sdk/v2/files',
  ): Promise<Response> {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    return device.fetchAs('alice', path, { method: 'POST', headers, body });
  }
  const valid = multipartBody({ name: 'never.txt' }, 'content', { boundary: 'b0undary' });

  it.each(['/sdk/v2/files', '/sdk/v2/files/resumable'])(
    '%s answers 400 for multipart without a boundary',
    async (path) => {
      await expectError(await postRaw(valid.body, 'multipart/related', path), 400);
    },
  );

  it.each([
    ['an empty boundary', 'multipart/related; boundary=""'],
    ['a boundary the body does not use', 'multipart/related; boundary=other'],
    ['application/json', 'application/json'],
    ['no Content-Type at all', undefined],
  ])('answers 400 for %s', async (_label, contentType) => {
    await expectError(await postRaw(valid.body, contentType), 400);
  });

  it.each([
    ['a body cut inside the content part', valid.body.subarray(0, valid.body.length - 20)],
    ['a body cut inside the metadata part', valid.body.subarray(0, 30)],
    ['an empty body', Buffer.alloc(0)],
    ['random bytes', randomBytes(4096)],
    ['text without any delimiter', Buffer.from('hello, this is not multipart at all')],
    ['a delimiter and nothing else', Buffer.from('--b0undary\r\n')],
    ['only the closing delimiter', Buffer.from('--b0undary--\r\n')],
  ])('answers 400 for %s', async (_label, body) => {
    await expectError(await postRaw(body, 'multipart/related; boundary=b0undary'), 400);
  });

  it.each([
    ['metadata that is not JSON', '{name: never.txt}'],
    ['metadata that is a JSON array', '[]'],
    ['metadata that is JSON null', 'null'],
    ['empty metadata', ''],
  ])('answers 400 for %s', async (_label, metadata) => {
    await expectError(await postMultipart(device, metadata, 'content'), 400);
  });

  it('answers 400 for a body with three parts', async () => {
    const body = Buffer.concat([
      multipartBody({ name: 'three.txt' }, 'one', { boundary: 'b3', omitClose: true }).body,
      Buffer.from('\r\n--b3\r\n\r\ntwo\r\n--b3--\r\n'),
    ]);
    await expectError(await postRaw(body, 'multipart/related; boundary=b3'), 400);
  });

  it('answers 400 for a metadata part over 64 KiB', async () => {
    const metadata = { name: 'fat.txt', padding: 'x'.repeat(70 * 1024) };
    await expectError(await postMultipart(device, metadata, 'x'), 400);
  });

  it('answers 400 for bad metadata followed by 5 MiB of content, and the next requests still work', async () => {
    const response = await postMultipart(device, '{bad json', randomBytes(5 * 1024 * 1024));
    await expectError(response, 400);
    for (let i = 0; i < 5; i += 1) {
      expect((await device.fetchAs('alice', `/sdk/v2/files/${file.id}`)).status).toBe(200);
    }
  });

  it('leaves no temporary file behind after a refused create', async () => {
    await postRaw(valid.body.subarray(0, valid.body.length - 20), 'multipart/related; boundary=b0undary');
    expect(readdirSync(join(device.dataDir, 'tmp'))).toEqual([]);
  });
});

describe('connections dropped mid-body', () => {
  const tmpFiles = (): string[] => readdirSync(join(device.dataDir, 'tmp'));

  /** Polls `check` every 20 ms for up to 5 s. */
  async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
    for (let attempt = 0; attempt < 250; attempt += 1) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  }

  async function uploadSize(id: string): Promise<number> {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
    return response.status === 200 ? ((await response.json()) as ResumableStatus).size : -1;
  }

  it('survives a create whose client disappears, leaving no temporary file', async () => {
    const { body, contentType } = multipartBody({ name: 'dropped.bin' }, randomBytes(256 * 1024));
    const head = requestHead('POST', '/sdk/v2/files', device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'content-type': contentType,
      'content-length': String(body.length),
    });
    const request = await partialRequest(device.base, head, body.subarray(0, 100 * 1024));
    // The content part has started once its temporary file exists.
    expect(await eventually(() => tmpFiles().length > 0)).toBe(true);
    await request.drop();
    expect(await eventually(() => tmpFiles().length === 0)).toBe(true);
    const lookup = await device.fetchAs(
      'alice',
      '/sdk/v2/filesSearch/parentAndName?parentID=root&name=dropped.bin',
    );
    expect(lookup.status).toBe(404);
  });

  it('survives a content PUT whose client disappears, keeping the old content', async () => {
    const target = await createFile(device, 'put-dropped.txt', 'old content');
    const head = requestHead('PUT', `/sdk/v2/files/${target.id}/content`, device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'content-type': 'application/octet-stream',
      'content-length': String(1024 * 1024),
    });
    const request = await partialRequest(device.base, head, randomBytes(64 * 1024));
    expect(await eventually(() => tmpFiles().length > 0)).toBe(true);
    await request.drop();
    expect(await eventually(() => tmpFiles().length === 0)).toBe(true);
    const content = await device.fetchAs('alice', `/sdk/v2/files/${target.id}/content`);
    expect(await content.text()).toBe('old content');
    expect((await currentFile(target.id)).eTag).toBe(target.etag);
  });

  it('keeps the bytes that arrived of a resumable chunk whose client disappears', async () => {
    const started = await postMultipart(device, { name: 'resume-me.bin' }, undefined, {
      path: '/sdk/v2/files/resumable',
      query: 'done=false',
    });
    const id = idFromLocation(started);
    const head = requestHead('PUT', `/sdk/v2/files/${id}/resumable/content`, device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'content-length': String(1024 * 1024),
    });
    const arrived = 64 * 1024;
    const request = await partialRequest(device.base, head, Buffer.alloc(arrived, 7));
    expect(await eventually(async () => (await uploadSize(id)) === arrived)).toBe(true);
    await request.drop();
    // The failed request ends in the background; the upload must then accept a resume at once.
    expect(
      await eventually(async () => {
        const resumed = await device.fetchAs(
          'alice',
          `/sdk/v2/files/${id}/resumable/content?offset=${arrived}&done=true`,
          {
            method: 'PUT',
            body: 'end',
          },
        );
        return resumed.status === 204;
      }),
    ).toBe(true);
    expect((await currentFile(id)).size).toBe(arrived + 3);
  });
});

describe('unknown ids', () => {
  const unknownId = 'zzzzzzzzzzzzzzzz';
  it.each([
    ['GET', `/sdk/v2/files/${unknownId}`],
    ['GET', `/sdk/v2/files/${unknownId}/content`],
    ['GET', `/sdk/v3/files/${unknownId}/content`],
    ['PUT', `/sdk/v2/files/${unknownId}/content`],
    ['PATCH', `/sdk/v2/files/${unknownId}`],
    ['POST', `/sdk/v2/files/${unknownId}/patch`],
    ['DELETE', `/sdk/v2/files/${unknownId}`],
    ['GET', `/sdk/v2/files/${unknownId}/resumable`],
    ['PUT', `/sdk/v2/files/${unknownId}/resumable/content`],
    ['DELETE', `/sdk/v2/files/${unknownId}/resumable`],
    ['GET', `/sdk/v2/filesSearch/parents?ids=${unknownId}`],
    ['GET', `/sdk/v2/filesSearch/parentAndName?parentID=${unknownId}&name=x`],
  ])('%s %s answers 404', async (method, path) => {
    const init: RequestInit = { method };
    if (method === 'PATCH' || method === 'POST') {
      init.headers = { 'content-type': 'application/json' };
      init.body = '{"name":"x.txt"}';
    } else if (method === 'PUT') {
      init.body = 'bytes';
    }
    await expectError(await device.fetchAs('alice', path, init), 404);
  });

  it('answers 404 for an unknown route under /sdk', async () => {
    await expectError(await device.fetchAs('alice', '/sdk/v2/nothing/here'), 404);
  });

  it('answers 400 or 404 for a 5,000-character id', async () => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${'x'.repeat(5000)}`);
    expect([400, 404]).toContain(response.status);
  });
});

describe('URLs and query strings', () => {
  const token = (): string => device.tokenFor('alice');

  it.each([
    ['a truncated escape in the id', '/sdk/v2/files/%E0%A4%A'],
    ['a lone % in the id', '/sdk/v2/files/%'],
    ['an escape that is not hex', '/sdk/v2/files/%zz/content'],
    ['an escape of invalid UTF-8', '/sdk/v2/files/%C0%AF'],
  ])('answers 400 or 404 for %s, never 500', async (_label, path) => {
    const response = await rawRequest(
      device.base,
      requestHead('GET', path, device.base, { authorization: `Bearer ${token()}` }),
    );
    expect([400, 404]).toContain(response.status);
    expect(JSON.parse(response.body.toString())).toMatchObject({ label: ANY_STRING });
  });

  it('answers 400 for bad percent-encoding in the query', async () => {
    const response = await rawRequest(
      device.base,
      requestHead('GET', '/sdk/v2/filesSearch/parentAndName?parentID=root&name=%E0%A4%A', device.base, {
        authorization: `Bearer ${token()}`,
      }),
    );
    expect([400, 404]).toContain(response.status);
  });

  it.each([
    ['an encoded traversal as the id', '/sdk/v2/files/..%2F..%2Fetc%2Fpasswd'],
    ['an encoded traversal before /content', '/sdk/v2/files/..%2F..%2Fdevice.db/content'],
    ['a dot-dot id', '/sdk/v2/files/../../etc/passwd'],
    ['a backslash traversal', '/sdk/v2/files/..%5C..%5Cdevice.db/content'],
  ])('answers 404 for %s', async (_label, path) => {
    const response = await rawRequest(
      device.base,
      requestHead('GET', path, device.base, { authorization: `Bearer ${token()}` }),
    );
    expect(response.status).toBe(404);
  });

  it.each([
    ['fields', `/sdk/v2/files/root?fields=id&fields=name`],
    ['pretty', `/sdk/v2/files/root?pretty=true&pretty=false`],
    ['ids', `/sdk/v2/filesSearch/parents?ids=root&ids=root`],
    ['limit', `/sdk/v2/filesSearch/parents?ids=root&limit=1&limit=2`],
    ['orderBy', `/sdk/v2/filesSearch/parents?ids=root&orderBy=name&orderBy=size`],
    ['name', `/sdk/v2/filesSearch/parentAndName?parentID=root&name=a&name=b`],
    ['download', `/sdk/v2/files/FILE/content?download=true&download=true`],
  ])('answers 400 for a repeated %s parameter', async (_label, path) => {
    await expectError(await device.fetchAs('alice', path.replace('FILE', file.id)), 400);
  });

  it('answers 400 for a repeated resolveNameConflict', async () => {
    const response = await postMultipart(device, { name: 'repeat.txt' }, 'x', {
      query: 'resolveNameConflict=true&resolveNameConflict=true',
    });
    await expectError(response, 400);
  });

  it('answers 400 for a pretty value other than true or false', async () => {
    await expectError(await device.fetchAs('alice', '/sdk/v2/files/root?pretty=yes'), 400);
  });

  it('answers 401 for a repeated access_token', async () => {
    const response = await fetch(
      `${device.base}/sdk/v2/files/root?access_token=${token()}&access_token=${token()}`,
    );
    expect(response.status).toBe(401);
  });

  it('answers 401 for an Authorization header that only says Bearer', async () => {
    const response = await fetch(`${device.base}/sdk/v2/files/root`, {
      headers: { authorization: 'Bearer' },
    });
    expect(response.status).toBe(401);
  });

  it('answers 431 for request headers over the size limit', async () => {
    const response = await device.fetchAs('alice', '/sdk/v2/files/root', {
      headers: { 'x-padding': 'p'.repeat(64 * 1024) },
    });
    expect(response.status).toBe(431);
  });
});

describe('bad ranges', () => {
  it.each([
    ['bytes=99999999999999999999999-', 416],
    ['bytes=0-99999999999999999999999', 206],
    ['bytes=-99999999999999999999999', 206],
    ['bytes=0-0-0', 200],
    ['bytes=--1', 200],
    ['bytes=1e3-', 200],
    ['bytes=0x10-', 200],
    ['bytes=\u00e9-', 200],
    [' bytes = 2 - 3 ', 206],
    ['bytes=0-1,'.repeat(500), 200],
  ])('Range %j answers %i', async (range, status) => {
    const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`, {
      headers: { range },
    });
    expect(response.status).toBe(status);
    await response.arrayBuffer();
  });
});
