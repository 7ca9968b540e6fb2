// Folder listings with GET /sdk/v2/filesSearch/parents: paging, ordering, fields and the listing ETag
// (device-api.md §3 "Listing and search").
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, createItem, type Created } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

const ITEM_COUNT = 250;
const BASE_TIME = Date.parse('2026-03-01T00:00:00.000Z');

/** A folder of ITEM_COUNT files whose names, mTimes and sizes each sort differently, with ties. */
let big: Created;
let bigIds: Set<string>;
/** A folder with three files whose order differs by each key. */
let small: Created;
let smallIds: { a: string; b: string; c: string };

test.beforeAll(async ({ device }) => {
  big = await createFolder(device, 'big');
  const created: Created[] = [];
  const indexes = Array.from({ length: ITEM_COUNT }, (_, i) => i);
  for (let start = 0; start < ITEM_COUNT; start += 25) {
    const batch = indexes.slice(start, start + 25).map((i) =>
      createItem(
        device,
        {
          // 37 and 250 are coprime, so this visits every number once, in another order than i.
          name: `item-${String((i * 37) % ITEM_COUNT).padStart(3, '0')}.txt`,
          parentID: big.id,
          mTime: new Date(BASE_TIME + (i % 10) * 1000).toISOString(),
        },
        'x'.repeat(i % 3),
      ),
    );
    created.push(...(await Promise.all(batch)));
  }
  bigIds = new Set(created.map((item) => item.id));

  small = await createFolder(device, 'small');
  // name order a < b < c; mTime order c < a < b; size order b < c < a.
  smallIds = {
    a: (
      await createItem(device, { name: 'a.txt', parentID: small.id, mTime: '2026-01-02T00:00:00Z' }, 'aaaaa')
    ).id,
    b: (await createItem(device, { name: 'b.txt', parentID: small.id, mTime: '2026-01-03T00:00:00Z' }, 'b'))
      .id,
    c: (await createItem(device, { name: 'c.txt', parentID: small.id, mTime: '2026-01-01T00:00:00Z' }, 'ccc'))
      .id,
  };
}, 60_000);

function list(device: TestDevice, query: string, headers: Record<string, string> = {}): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/filesSearch/parents?${query}`, { headers });
}

async function listBody(device: TestDevice, query: string): Promise<ListingResponse> {
  const response = await list(device, query);
  expect(response.status).toBe(200);
  return (await response.json()) as ListingResponse;
}

/** Follows pageToken to the end; returns every page. */
async function allPages(device: TestDevice, query: string): Promise<ListingResponse[]> {
  const pages: ListingResponse[] = [];
  let pageToken = '';
  do {
    const page = await listBody(
      device,
      `${query}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
    );
    pages.push(page);
    pageToken = page.pageToken;
    if (pages.length > ITEM_COUNT) throw new Error('the listing never ends');
  } while (pageToken !== '');
  return pages;
}

type OrderBy = 'name' | 'mTime' | 'size';

function sortKey(file: Partial<FileObject>, orderBy: OrderBy): string | number {
  if (orderBy === 'name') return Buffer.from(file.name ?? '').toString('hex');
  if (orderBy === 'mTime') return Date.parse(file.mTime ?? '');
  return file.size ?? -1;
}

describe('GET /sdk/v2/filesSearch/parents', () => {
  it('answers {pageToken, files} with the folder’s children', async ({ device }) => {
    const body = await listBody(device, `ids=${small.id}`);
    expect(body.pageToken).toBe('');
    expect(body.files.map((file) => file.id).sort()).toEqual(Object.values(smallIds).sort());
    expect(body.files[0]).toMatchObject({
      parentID: small.id,
      eTag: ANY_STRING,
      mimeType: 'text/plain',
    });
  });

  it('lists root by its alias', async ({ device }) => {
    const body = await listBody(device, 'ids=root');
    expect(body.files.map((file) => file.name).sort()).toEqual(['big', 'small']);
  });

  it('gives 100 items and a pageToken by default', async ({ device }) => {
    const body = await listBody(device, `ids=${big.id}`);
    expect(body.files).toHaveLength(100);
    expect(body.pageToken).not.toBe('');
  });

  it('gives all items with limit=1000 and an empty pageToken', async ({ device }) => {
    const body = await listBody(device, `ids=${big.id}&limit=1000`);
    expect(body.files).toHaveLength(ITEM_COUNT);
    expect(body.pageToken).toBe('');
  });

  const orders: [OrderBy, 'asc' | 'desc'][] = [
    ['name', 'asc'],
    ['name', 'desc'],
    ['mTime', 'asc'],
    ['mTime', 'desc'],
    ['size', 'asc'],
    ['size', 'desc'],
  ];
  it.for(orders)(
    'pages through 250 items by %s %s with limit=37, without duplicates or gaps, in order',
    async ([orderBy, order], { device }) => {
      const pages = await allPages(device, `ids=${big.id}&limit=37&orderBy=${orderBy}&order=${order}`);
      expect(pages.map((page) => page.files.length)).toEqual([37, 37, 37, 37, 37, 37, 28]);
      const files = pages.flatMap((page) => page.files);
      const ids = files.map((file) => file.id ?? '');
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(bigIds);
      const keys = files.map((file) => sortKey(file, orderBy));
      const sorted = [...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      expect(keys).toEqual(order === 'asc' ? sorted : sorted.reverse());
    },
  );

  it('pages without duplicates or gaps when the page size divides the count', async ({ device }) => {
    const pages = await allPages(device, `ids=${big.id}&limit=50`);
    expect(pages.map((page) => page.files.length)).toEqual([50, 50, 50, 50, 50]);
    expect(new Set(pages.flatMap((page) => page.files.map((file) => file.id)))).toEqual(bigIds);
  });

  it.for<[OrderBy, 'asc' | 'desc', string[]]>([
    ['name', 'asc', ['a', 'b', 'c']],
    ['name', 'desc', ['c', 'b', 'a']],
    ['mTime', 'asc', ['c', 'a', 'b']],
    ['mTime', 'desc', ['b', 'a', 'c']],
    ['size', 'asc', ['b', 'c', 'a']],
    ['size', 'desc', ['a', 'c', 'b']],
  ])('orders by %s %s', async ([orderBy, order, expected], { device }) => {
    const body = await listBody(device, `ids=${small.id}&orderBy=${orderBy}&order=${order}`);
    const byId = Object.fromEntries(Object.entries(smallIds).map(([key, id]) => [id, key]));
    expect(body.files.map((file) => byId[file.id ?? ''])).toEqual(expected);
  });

  it('orders by name ascending when orderBy and order are left out', async ({ device }) => {
    const body = await listBody(device, `ids=${small.id}`);
    expect(body.files.map((file) => file.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('returns only the requested fields, plus pageToken, with fields=', async ({ device }) => {
    const body = await listBody(device, `ids=${big.id}&limit=5&fields=id,name`);
    expect(body.pageToken).not.toBe('');
    expect(body.files).toHaveLength(5);
    for (const file of body.files) expect(Object.keys(file).sort()).toEqual(['id', 'name']);
  });

  it('sends an ETag header, and 304 for If-None-Match with it', async ({ device }) => {
    const first = await list(device, `ids=${small.id}`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".*"$/);
    const second = await list(device, `ids=${small.id}`, { 'if-none-match': etag ?? '' });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('answers 200 with a new ETag after a child is added', async ({ device }) => {
    const folder = await createFolder(device, 'etag-add');
    const etag = (await list(device, `ids=${folder.id}`)).headers.get('etag') ?? '';
    await createFile(device, 'new.txt', 'x', folder.id);
    const response = await list(device, `ids=${folder.id}`, { 'if-none-match': etag });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).not.toBe(etag);
    expect(((await response.json()) as ListingResponse).files).toHaveLength(1);
  });

  it('answers 200 after a child’s content changes', async ({ device }) => {
    const folder = await createFolder(device, 'etag-content');
    const child = await createFile(device, 'child.txt', 'one', folder.id);
    const etag = (await list(device, `ids=${folder.id}`)).headers.get('etag') ?? '';
    await device.fetchAs('alice', `/sdk/v2/files/${child.id}/content`, { method: 'PUT', body: 'two' });
    expect((await list(device, `ids=${folder.id}`, { 'if-none-match': etag })).status).toBe(200);
  });

  it('answers 200 after a child is removed', async ({ device }) => {
    const folder = await createFolder(device, 'etag-remove');
    const child = await createFile(device, 'child.txt', 'one', folder.id);
    const etag = (await list(device, `ids=${folder.id}`)).headers.get('etag') ?? '';
    await device.fetchAs('alice', `/sdk/v2/files/${child.id}`, { method: 'DELETE' });
    expect((await list(device, `ids=${folder.id}`, { 'if-none-match': etag })).status).toBe(200);
  });

  it('answers 412 when If-Match does not match the listing', async ({ device }) => {
    const response = await list(device, `ids=${small.id}`, { 'if-match': '"not-the-listing-etag"' });
    expect(response.status).toBe(412);
  });

  it.for([
    ['a garbage pageToken', 'pageToken=garbage!!'],
    ['limit=0', 'limit=0'],
    ['limit=1001', 'limit=1001'],
    ['limit=-1', 'limit=-1'],
    ['limit=abc', 'limit=abc'],
    ['an unknown orderBy', 'orderBy=colour'],
    ['an unknown order', 'order=sideways'],
    ['an unknown field', 'fields=id,colour'],
  ] as const)('answers 400 for %s', async ([_label, query], { device }) => {
    const response = await list(device, `ids=${big.id}&${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('answers 400 without ids', async ({ device }) => {
    expect((await list(device, 'limit=5')).status).toBe(400);
  });

  it('answers 400 for listing a file', async ({ device }) => {
    const body = await listBody(device, `ids=${small.id}&limit=1`);
    expect((await list(device, `ids=${body.files[0]?.id ?? ''}`)).status).toBe(400);
  });

  it('answers 404 for an unknown folder id', async ({ device }) => {
    expect((await list(device, 'ids=no-such-folder')).status).toBe(404);
  });
});
