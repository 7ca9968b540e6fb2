// The times of a photo search: the user's bounds and each file's media time, all as wall-clock times of this computer.
import type { RemoteFile } from '../api/device-client.ts';
import { SearchError } from './search-errors.ts';

/**
 * A wall-clock time without a zone, as the milliseconds whose UTC fields spell it (`Date.UTC(y, m, d,
 * h, ...)`). Camera dates are wall-clock times (EXIF `YYYY:MM:DD HH:MM:SS` has no zone), so comparing
 * them needs no guess about where the camera was: bounds and modification times are brought to this
 * computer's wall clock instead.
 */
export type WallClockMs = number;

/** Minutes east of UTC of this computer's time zone at an instant (daylight saving time included). */
export type UtcOffsetAt = (instantMs: number) => number;

export const systemUtcOffset: UtcOffsetAt = (instantMs) => -new Date(instantMs).getTimezoneOffset();

export function wallClockOf(instantMs: number, offsetAt: UtcOffsetAt): WallClockMs {
  return instantMs + offsetAt(instantMs) * 60_000;
}

/**
 * The instant at which this computer's clock showed `wall` (the inverse of `wallClockOf`; across a
 * daylight-saving change the offset of the moment itself is used).
 */
export function instantOf(wall: WallClockMs, offsetAt: UtcOffsetAt = systemUtcOffset): number {
  const guess = wall - offsetAt(wall) * 60_000;
  return wall - offsetAt(guess) * 60_000;
}

/** An inclusive range of wall-clock times. */
export interface WallClockRange {
  from: WallClockMs;
  to: WallClockMs;
}

const DAY_OR_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

const FORMS = 'YYYY-MM-DD (a whole day), or a time such as 2024-06-30T18:00 or 2024-06-30T18:00:00+02:00';

/**
 * One bound of a range. `YYYY-MM-DD` is the whole day on this computer's clock: a start bound is its
 * first millisecond, an end bound its last. A time (`T` or a space between date and time, seconds and
 * a fraction optional) is that moment: with `Z` or an offset, that instant as this computer's clock
 * showed it; without, as written.
 */
export function parseDateBound(
  text: string,
  bound: 'start' | 'end',
  offsetAt: UtcOffsetAt = systemUtcOffset,
): WallClockMs {
  const bad = (): SearchError =>
    new SearchError(
      'SEARCH_BAD_DATE',
      `The ${bound} date ${JSON.stringify(text)} is not a date: use ${FORMS}.`,
    );
  const found = DAY_OR_TIME.exec(text.trim());
  if (found === null) throw bad();
  const [, year, month, day, hour, minute, second, fraction, zone] = found;
  const wholeDay = hour === undefined;
  const endOfDay = wholeDay && bound === 'end';
  const milliseconds = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wall = wallClock(
    Number(year),
    Number(month),
    Number(day),
    endOfDay ? 23 : Number(hour ?? 0),
    endOfDay ? 59 : Number(minute ?? 0),
    endOfDay ? 59 : Number(second ?? 0),
    endOfDay ? 999 : milliseconds,
  );
  if (wall === undefined) throw bad();
  if (zone === undefined) return wall;
  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === undefined) throw bad();
  // `wall` spelled the time in `zone`: the instant first, then this computer's clock at that instant.
  return wallClockOf(wall - offsetMinutes * 60_000, offsetAt);
}

/** Both bounds; SEARCH_DATES_REVERSED when the start comes after the end. */
export function parseDateRange(
  fromText: string,
  toText: string,
  offsetAt: UtcOffsetAt = systemUtcOffset,
): WallClockRange {
  const from = parseDateBound(fromText, 'start', offsetAt);
  const to = parseDateBound(toText, 'end', offsetAt);
  if (from > to) {
    throw new SearchError(
      'SEARCH_DATES_REVERSED',
      `The start (${formatWallClock(from)}) is after the end (${formatWallClock(to)}): give the earlier date first.`,
    );
  }
  return { from, to };
}

/** Where a media time comes from: the camera's date (EXIF), or the file's modification time. */
export type MediaTimeSource = 'camera' | 'modified';

export interface MediaTime {
  wall: WallClockMs;
  source: MediaTimeSource;
}

/**
 * A file's media time as the device defines it (device-api.md §3: the image `date`, else `mTime`),
 * on this computer's clock: the camera's date as written, the modification time converted.
 */
export function mediaTimeOf(
  file: RemoteFile,
  offsetAt: UtcOffsetAt = systemUtcOffset,
): MediaTime | undefined {
  const camera = file.image?.date === undefined ? undefined : exifWallClock(file.image.date);
  if (camera !== undefined) return { wall: camera, source: 'camera' };
  if (file.mTimeMs !== undefined) return { wall: wallClockOf(file.mTimeMs, offsetAt), source: 'modified' };
  return undefined;
}

/** `YYYY:MM:DD HH:MM:SS` (interface.md "File object"), or undefined for anything else. */
export function exifWallClock(date: string): WallClockMs | undefined {
  const found = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(date);
  if (found === null) return undefined;
  const [, year, month, day, hour, minute, second] = found;
  return wallClock(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second), 0);
}

/** `2024-06-30 18:00:05`. */
export function formatWallClock(wall: WallClockMs): string {
  return isoWallClock(wall).slice(0, 19).replace('T', ' ');
}

/** `2024-06-30T18:00:05.000`: ISO 8601 without a zone, which reads as local time. */
export function isoWallClock(wall: WallClockMs): string {
  return new Date(wall).toISOString().slice(0, -1);
}

/** The wall-clock time of these fields, or undefined when they name no real time (February 30th, 24:00). */
function wallClock(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
): WallClockMs | undefined {
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date.getTime() : undefined;
}

/** `Z`, `+02`, `+0200` or `+02:00` in minutes east of UTC; undefined past ±23:59. */
function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
