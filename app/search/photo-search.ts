// Photos (and on request videos) taken in a range of days (device-api.md §3 `filesSearch/mediaTime`), oldest first, with their places.
import { BadResponseError } from '../../common/errors.ts';
import type { DeviceClient, RejectedItem, RemoteFile } from '../api/device-client.ts';
import {
  mediaTimeOf,
  systemUtcOffset,
  type MediaTime,
  type UtcOffsetAt,
  type WallClockRange,
} from './photo-dates.ts';
import { checkLimit, type PlaceFinder } from './text-search.ts';

export const DEFAULT_PHOTO_LIMIT = 100;
export const MAX_PHOTO_LIMIT = 10_000;

/** device-api.md §3: a page holds at most 1000 files. */
const MAX_PAGE = 1000;

/**
 * How far apart a file's time on the device and its time on this computer's clock can be. The device
 * compares a camera date as if it were UTC (it has no zone) and a modification time as the instant it
 * is; this computer's clock is at most 14 hours from UTC (UTC+14 to UTC-12). So the device is asked for
 * the range widened by that much, and the answer is narrowed here by each file's own media time.
 */
const ZONE_SPREAD_MS = 14 * 60 * 60 * 1000;

/** The first and last instants an ISO 8601 time with a four-digit year can spell (the wire's times). */
const FIRST_WIRE_MS = -62_167_219_200_000;
const LAST_WIRE_MS = 253_402_300_799_999;

export interface PhotoSearchOptions {
  /** Inclusive, on this computer's clock (`parseDateRange`). */
  range: WallClockRange;
  /** At most this many results, 1-10,000 (default 100). */
  limit?: number;
  /** Videos too (their media time is their modification time). */
  videos?: boolean;
  signal?: AbortSignal;
  /** This computer's zone; tests pass a fixed one. */
  offsetAt?: UtcOffsetAt;
}

export interface PhotoMatch {
  file: RemoteFile;
  mediaTime: MediaTime;
  devicePath: string | undefined;
  localPath: string | undefined;
}

export interface PhotoSearchResult {
  /** Oldest first, at most `limit`. */
  photos: PhotoMatch[];
  /** More files are in the range than `limit`. */
  more: boolean;
  /** Items the device answered with a name or shape this client refuses. */
  rejected: RejectedItem[];
}

/**
 * The media files whose media time (camera date, else modification time) falls in `range`, following
 * the device's pages until `limit` + 1 are found (the one more says whether there are more). Sorted by
 * that time: the device sorts by its own reading of it, which differs from this computer's by the zone
 * for files without a camera date.
 */
export async function searchPhotos(
  client: Pick<DeviceClient, 'searchMediaTime'>,
  places: PlaceFinder,
  options: PhotoSearchOptions,
): Promise<PhotoSearchResult> {
  const limit = options.limit ?? DEFAULT_PHOTO_LIMIT;
  checkLimit(limit, MAX_PHOTO_LIMIT);
  const offsetAt = options.offsetAt ?? systemUtcOffset;
  const { range, signal } = options;
  const found: Array<{ file: RemoteFile; mediaTime: MediaTime }> = [];
  const rejected: RejectedItem[] = [];
  const listed = new Set<string>();
  const tokens = new Set<string>();
  let token = '';
  do {
    const page = await client.searchMediaTime({
      startTimeMs: Math.max(FIRST_WIRE_MS, range.from - ZONE_SPREAD_MS),
      endTimeMs: Math.min(LAST_WIRE_MS, range.to + ZONE_SPREAD_MS),
      mimeGroups: options.videos === true ? ['image', 'video'] : ['image'],
      limit: Math.min(limit + 1, MAX_PAGE),
      pageToken: token,
      signal,
    });
    rejected.push(...page.rejected);
    for (const file of page.files) {
      const mediaTime = mediaTimeOf(file, offsetAt);
      if (mediaTime === undefined || mediaTime.wall < range.from || mediaTime.wall > range.to) continue;
      if (listed.has(file.id)) continue;
      listed.add(file.id);
      found.push({ file, mediaTime });
    }
    token = page.pageToken;
    if (token !== '' && tokens.has(token)) {
      throw new BadResponseError('The search of photos by time repeats a page token.');
    }
    tokens.add(token);
  } while (token !== '' && found.length <= limit);
  // A stable sort: equal times keep the device's order.
  found.sort((a, b) => a.mediaTime.wall - b.mediaTime.wall);
  const photos: PhotoMatch[] = [];
  for (const { file, mediaTime } of found.slice(0, limit)) {
    const place = await places.placeOf(file, signal);
    photos.push({ file, mediaTime, devicePath: place.devicePath, localPath: place.localPath });
  }
  return { photos, more: found.length > limit, rejected };
}
