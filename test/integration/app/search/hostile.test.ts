// searchFiles and searchPhotos against answers the real device never gives: repeated tokens, repeated files, bad ranges, other zones.
import { describe, expect, it } from 'vitest';
import type { RemoteFile } from '../../../../app/api/device-client.ts';
import type { ItemPlace } from '../../../../app/search/item-places.ts';
import type { UtcOffsetAt } from '../../../../app/search/photo-dates.ts';
import { searchPhotos } from '../../../../app/search/photo-search.ts';
import { searchFiles, type PlaceFinder } from '../../../../app/search/text-search.ts';
import { deviceClientAt } from '../../../helpers/api-client.ts';
import { sendJson, serversClosedAfterEach } from '../../../helpers/hostile-server.ts';

const serve = serversClosedAfterEach();

/** Every file directly under the root, none synced: enough to tell the places apart. */
const PLACES: PlaceFinder = {
  placeOf: async (file: RemoteFile): Promise<ItemPlace> => ({
    devicePath: `/${file.name}`,
    localPath: undefined,
  }),
};

function file(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    parentID: 'root',
    name: `${id}.jpg`,
    eTag: `"${id}"`,
    mimeType: 'image/jpeg',
    size: 1,
    ...extra,
  };
}

function textMatch(id: string): unknown {
  return { file: file(id), fragments: [{ text: `${id}.jpg`, locations: [{ index: 0, length: id.length }] }] };
}

/** The query parameters of each request the server saw. */
function queries(server: { requests: Array<{ url: string }> }): URLSearchParams[] {
  return server.requests.map((request) => new URL(request.url, 'http://x').searchParams);
}

describe('searchFiles', () => {
  it('reads one page unless asked for all, and then follows the tokens to the end', async () => {
    const server = await serve((request, response) => {
      const token = new URL(request.url ?? '', 'http://x').searchParams.get('pageToken');
      if (token === null) sendJson(response, 200, { matches: [textMatch('a')], pageToken: 't1' });
      else sendJson(response, 200, { matches: [textMatch('b')], pageToken: '' });
    });
    const client = deviceClientAt(server.base);
    const one = await searchFiles(client, PLACES, 'jpg', { limit: 1 });
    expect(one.matches.map((match) => match.file.id)).toEqual(['a']);
    expect(one.pageToken).toBe('t1');
    expect(server.requests).toHaveLength(1);
    const all = await searchFiles(client, PLACES, 'jpg', { limit: 1, allPages: true });
    expect(all.matches.map((match) => match.devicePath)).toEqual(['/a.jpg', '/b.jpg']);
    expect(all.pageToken).toBe('');
    expect(queries(server).map((query) => [query.get('limit'), query.get('pageToken')])).toEqual([
      ['1', null],
      ['1', null],
      ['1', 't1'],
    ]);
  });

  it('ends with BAD_RESPONSE when the device hands out the same page token again', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { matches: [textMatch('a')], pageToken: 'again' }),
    );
    await expect(
      searchFiles(deviceClientAt(server.base), PLACES, 'jpg', { allPages: true }),
    ).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('repeats a page token') as unknown,
    });
    expect(server.requests).toHaveLength(2);
  });

  it('lists a file once when a later page repeats it', async () => {
    const server = await serve((request, response) => {
      const token = new URL(request.url ?? '', 'http://x').searchParams.get('pageToken');
      if (token === null) sendJson(response, 200, { matches: [textMatch('a')], pageToken: 't1' });
      else sendJson(response, 200, { matches: [textMatch('a'), textMatch('b')], pageToken: '' });
    });
    const result = await searchFiles(deviceClientAt(server.base), PLACES, 'jpg', { allPages: true });
    expect(result.matches.map((match) => match.file.id)).toEqual(['a', 'b']);
  });

  it('checks the locations against the text and keeps the items with bad names apart', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, {
        pageToken: '',
        matches: [
          {
            file: file('a'),
            fragments: [
              {
                text: 'a.jpg',
                locations: [
                  { index: 4, length: 9 },
                  { index: 40, length: 2 },
                  { index: 0, length: -1 },
                ],
              },
              { text: 'image/jpeg', locations: [{ index: 6, length: 4 }] },
              { text: 'something else', locations: [{ index: 0, length: 4 }] },
            ],
          },
          { file: file('b', { name: '../b.jpg' }), fragments: [] },
        ],
      }),
    );
    const result = await searchFiles(deviceClientAt(server.base), PLACES, 'g', {});
    expect(result.matches[0]?.fragments).toEqual([
      { field: 'name', text: 'a.jpg', locations: [{ index: 4, length: 1 }] },
      { field: 'mimeType', text: 'image/jpeg', locations: [{ index: 6, length: 4 }] },
      { field: undefined, text: 'something else', locations: [{ index: 0, length: 4 }] },
    ]);
    expect(result.rejected).toEqual([
      expect.objectContaining({
        id: 'b',
        name: '../b.jpg',
        error: expect.objectContaining({ code: 'INVALID_NAME' }) as unknown,
      }),
    ]);
  });
});

describe('searchPhotos', () => {
  /** This computer at UTC+2. */
  const PLUS_TWO: UtcOffsetAt = () => 120;
  // 2024-06-30, the whole day on a clock at UTC+2.
  const RANGE = { from: Date.parse('2024-06-30T00:00:00.000Z'), to: Date.parse('2024-06-30T23:59:59.999Z') };

  it('asks for the range widened by 14 hours each way, then keeps what this computer clock puts in it, in its order', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, {
        pageToken: '',
        // In the device's order: camera dates read as UTC, modification times as they are.
        files: [
          // 23:30 on the 29th here: out.
          file('m-early', { mTime: '2024-06-29T21:30:00.000Z' }),
          // 23:30 on the camera's clock: in, although UTC+2 would put the instant on the 30th at 21:30 UTC.
          file('camera-late', { image: { date: '2024:06:30 23:30:00' }, mTime: '2025-01-01T00:00:00Z' }),
          // 23:00 here: in, and before camera-late once sorted.
          file('m-late', { mTime: '2024-06-30T21:00:00.000Z' }),
          // 00:30 on July 1st here: out.
          file('m-next', { mTime: '2024-06-30T22:30:00.000Z' }),
          // 00:15 on the camera's clock: in, and first once sorted.
          file('camera-early', { image: { date: '2024:06:30 00:15:00' } }),
        ],
      }),
    );
    const result = await searchPhotos(deviceClientAt(server.base), PLACES, {
      range: RANGE,
      offsetAt: PLUS_TWO,
    });
    expect(result.photos.map((photo) => photo.file.id)).toEqual(['camera-early', 'm-late', 'camera-late']);
    expect(result.photos.map((photo) => photo.mediaTime.source)).toEqual(['camera', 'modified', 'camera']);
    expect(result.more).toBe(false);
    const [query] = queries(server);
    expect(query?.get('startTime')).toBe('2024-06-29T10:00:00.000Z');
    expect(query?.get('endTime')).toBe('2024-07-01T13:59:59.999Z');
    expect(query?.get('mimeGroups')).toBe('image');
    expect(query?.get('limit')).toBe('101');
  });

  it('stops reading pages once it has one more than the limit, and says there are more', async () => {
    const server = await serve((request, response) => {
      const token = new URL(request.url ?? '', 'http://x').searchParams.get('pageToken');
      const n = Number(token ?? '0');
      sendJson(response, 200, {
        files: [file(`p${n}`, { image: { date: `2024:06:30 0${n}:00:00` } })],
        pageToken: String(n + 1),
      });
    });
    const result = await searchPhotos(deviceClientAt(server.base), PLACES, {
      range: RANGE,
      limit: 2,
      videos: true,
      offsetAt: PLUS_TWO,
    });
    expect(result.photos.map((photo) => photo.file.id)).toEqual(['p0', 'p1']);
    expect(result.more).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(queries(server)[0]?.get('mimeGroups')).toBe('image,video');
  });

  it('ends with BAD_RESPONSE when the device hands out the same page token again', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { files: [], pageToken: 'again' }),
    );
    await expect(
      searchPhotos(deviceClientAt(server.base), PLACES, { range: RANGE, offsetAt: PLUS_TWO }),
    ).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});
