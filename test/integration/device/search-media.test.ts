// Media files by time over HTTP, GET /sdk/v2/filesSearch/mediaTime (device-api.md §3): the range,
// the order, the filters, paging, permissions and the 400s.
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { MediaTimeResponse } from '../../../device/search/types.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFolder, createItem, type Created } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

const BURST_COUNT = 30;
const BURST_START = Date.parse('2023-05-01T10:00:00.000Z');

let burst: Set<string>;

/**
 * Sets the image object of an item directly in the database: the image-metadata work fills it from
 * real content and lands separately, and the search only reads the stored column.
 */
function setImage(device: TestDevice, item: Created, image: Record<string, unknown>): void {
  device.running.context.db
    .prepare('UPDATE items SET image = ? WHERE id = ?')
    .run(JSON.stringify(image), item.id);
}

function media(
  device: TestDevice,
  name: string,
  mimeType: string,
  mTime: string,
  parentID = 'root',
  user = 'alice',
): Promise<Created> {
  return createItem(device, { name, mimeType, mTime, parentID }, 'x', { user });
}

test.beforeAll(async ({ device }) => {
  // mTime 2024-03 but taken (EXIF date) 2020-07-04: the date wins.
  setImage(device, await media(device, 'taken 2020.jpg', 'image/jpeg', '2024-03-01T00:00:00Z'), {
    date: '2020:07:04 18:00:00',
    width: 6000,
    height: 4000,
  });
  setImage(device, await media(device, 'small.png', 'image/png', '2021-01-01T00:00:00Z'), {
    width: 640,
    height: 480,
  });
  await media(device, 'holiday.mp4', 'video/mp4', '2021-06-01T12:00:00Z');
  await media(device, 'notes.txt', 'text/plain', '2021-06-01T12:00:00Z');
  await createFolder(device, 'album');
  await media(device, 'bob.jpg', 'image/jpeg', '2021-06-01T12:00:00Z', 'root', 'bob');
  const folder = await createFolder(device, 'burst');
  const created: Created[] = [];
  for (let index = 0; index < BURST_COUNT; index += 1) {
    // Pairs share a second, so the id has to order them.
    const time = new Date(BURST_START + Math.floor(index / 2) * 1000).toISOString();
    created.push(await media(device, `burst-${index}.jpg`, 'image/jpeg', time, folder.id));
  }
  burst = new Set(created.map((item) => item.id));
}, 60_000);

function mediaSearch(device: TestDevice, query: string, user = 'alice'): Promise<Response> {
  return device.fetchAs(user, `/sdk/v2/filesSearch/mediaTime?${query}`);
}

async function mediaBody(device: TestDevice, query: string, user = 'alice'): Promise<MediaTimeResponse> {
  const response = await mediaSearch(device, query, user);
  expect(response.status).toBe(200);
  return (await response.json()) as MediaTimeResponse;
}

const range = (start: string, end: string): string => `startTime=${start}&endTime=${end}`;
const EVERYTHING = range('2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z');
const BEFORE_BURST = range('2000-01-01T00:00:00Z', '2022-12-31T23:59:59Z');

describe('GET /sdk/v2/filesSearch/mediaTime', () => {
  it('answers {files, pageToken} with image and video files, oldest first by media time', async ({
    device,
  }) => {
    const body = await mediaBody(device, BEFORE_BURST);
    expect(body.pageToken).toBe('');
    expect(body.files.map((file) => file.name)).toEqual(['taken 2020.jpg', 'small.png', 'holiday.mp4']);
    expect(body.files[0]).toMatchObject({ mimeType: 'image/jpeg', eTag: ANY_STRING, image: { width: 6000 } });
  });

  it('uses the image date, read as UTC, before mTime', async ({ device }) => {
    const body = await mediaBody(device, range('2020-07-04T18:00:00Z', '2020-07-04T18:00:00Z'));
    expect(body.files.map((file) => file.name)).toEqual(['taken 2020.jpg']);
    expect((await mediaBody(device, range('2024-03-01T00:00:00Z', '2024-03-01T00:00:00Z'))).files).toEqual(
      [],
    );
  });

  it('includes both ends of the range, to the millisecond', async ({ device }) => {
    const instant = '2021-06-01T12:00:00.000Z';
    expect((await mediaBody(device, range(instant, instant))).files.map((file) => file.name)).toEqual([
      'holiday.mp4',
    ]);
    const after = (await mediaBody(device, range('2021-06-01T12:00:00.001Z', '2022-01-01T00:00:00Z'))).files;
    expect(after).toEqual([]);
  });

  it('filters by mimeGroups', async ({ device }) => {
    const videos = await mediaBody(device, `${BEFORE_BURST}&mimeGroups=video`);
    expect(videos.files.map((file) => file.name)).toEqual(['holiday.mp4']);
    const both = await mediaBody(device, `${BEFORE_BURST}&mimeGroups=image,video`);
    expect(both.files).toHaveLength(3);
  });

  it('filters by minWidth and minHeight, leaving out files of unknown size', async ({ device }) => {
    const wide = await mediaBody(device, `${BEFORE_BURST}&minWidth=1000`);
    expect(wide.files.map((file) => file.name)).toEqual(['taken 2020.jpg']);
    const tall = await mediaBody(device, `${BEFORE_BURST}&minHeight=480`);
    expect(tall.files.map((file) => file.name)).toEqual(['taken 2020.jpg', 'small.png']);
  });

  it('returns only the requested File fields', async ({ device }) => {
    const body = await mediaBody(device, `${BEFORE_BURST}&fields=id,name`);
    for (const file of body.files) expect(Object.keys(file).sort()).toEqual(['id', 'name']);
  });

  it('never shows bob what alice owns', async ({ device }) => {
    const body = await mediaBody(device, EVERYTHING, 'bob');
    expect(body.files.map((file) => file.name)).toEqual(['bob.jpg']);
  });

  it('pages through 30 files with limit=4 in order, without duplicates or gaps', async ({ device }) => {
    const seen: string[] = [];
    const times: number[] = [];
    const sizes: number[] = [];
    let pageToken = '';
    const query = range('2023-01-01T00:00:00Z', '2023-12-31T00:00:00Z');
    do {
      const body = await mediaBody(device, `${query}&limit=4${pageToken ? `&pageToken=${pageToken}` : ''}`);
      sizes.push(body.files.length);
      seen.push(...body.files.map((file) => file.id ?? ''));
      times.push(...body.files.map((file) => Date.parse(file.mTime ?? '')));
      pageToken = body.pageToken;
    } while (pageToken !== '' && sizes.length < 20);
    expect(sizes).toEqual([4, 4, 4, 4, 4, 4, 4, 2]);
    expect(new Set(seen)).toEqual(burst);
    expect(seen).toHaveLength(BURST_COUNT);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.for([
    ['no startTime', 'endTime=2021-01-01T00:00:00Z'],
    ['no endTime', 'startTime=2021-01-01T00:00:00Z'],
    ['a malformed startTime', range('yesterday', '2021-01-01T00:00:00Z')],
    ['a time without a zone', range('2021-01-01T00:00:00', '2021-02-01T00:00:00Z')],
    ['startTime after endTime', range('2022-01-01T00:00:00Z', '2021-01-01T00:00:00Z')],
    ['an unknown mime group', `${EVERYTHING}&mimeGroups=image,audio`],
    ['an empty mime group', `${EVERYTHING}&mimeGroups=`],
    ['a negative minWidth', `${EVERYTHING}&minWidth=-1`],
    ['a minHeight that is not a number', `${EVERYTHING}&minHeight=tall`],
    ['limit=0', `${EVERYTHING}&limit=0`],
    ['a garbage pageToken', `${EVERYTHING}&pageToken=garbage!!`],
  ] as const)('answers 400 for %s', async ([_label, query], { device }) => {
    const response = await mediaSearch(device, query);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('answers 400 for the pageToken of another range', async ({ device }) => {
    const first = await mediaBody(device, `${EVERYTHING}&limit=1`);
    const response = await mediaSearch(device, `${BEFORE_BURST}&pageToken=${first.pageToken}`);
    expect(response.status).toBe(400);
  });
});
