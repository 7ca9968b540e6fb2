// The dates of `mch-sync photos`: days and times read on this computer's clock, camera dates as written.
import { describe, expect, it } from 'vitest';
import {
  exifWallClock,
  formatWallClock,
  instantOf,
  isoWallClock,
  mediaTimeOf,
  parseDateBound,
  parseDateRange,
  type UtcOffsetAt,
  wallClockOf,
} from '../../../../app/search/photo-dates.ts';
import { SearchError } from '../../../../app/search/search-errors.ts';
import { remoteFile } from '../../../helpers/remote-file.ts';

/** This computer at UTC+2 (Central European summer time), whatever the machine running the test says. */
const PLUS_TWO: UtcOffsetAt = () => 120;
const UTC: UtcOffsetAt = () => 0;

const wall = (iso: string): number => Date.parse(`${iso}Z`);

const file = remoteFile;

describe('parseDateBound', () => {
  it('reads YYYY-MM-DD as the whole day: its first millisecond to start, its last to end', () => {
    expect(parseDateBound('2024-01-01', 'start', PLUS_TWO)).toBe(wall('2024-01-01T00:00:00.000'));
    expect(parseDateBound('2024-06-30', 'end', PLUS_TWO)).toBe(wall('2024-06-30T23:59:59.999'));
  });

  it('reads a time without a zone as written, on this computer clock', () => {
    expect(parseDateBound('2024-06-30T18:00', 'end', PLUS_TWO)).toBe(wall('2024-06-30T18:00:00.000'));
    expect(parseDateBound('2024-06-30 18:00:05.25', 'start', PLUS_TWO)).toBe(wall('2024-06-30T18:00:05.250'));
  });

  it('reads a time with Z or an offset as that instant, shown on this computer clock', () => {
    expect(parseDateBound('2024-06-30T16:00:00Z', 'start', PLUS_TWO)).toBe(wall('2024-06-30T18:00:00.000'));
    expect(parseDateBound('2024-06-30T18:00:00+02:00', 'start', UTC)).toBe(wall('2024-06-30T16:00:00.000'));
    expect(parseDateBound('2024-06-30T12:00-0500', 'start', UTC)).toBe(wall('2024-06-30T17:00:00.000'));
  });

  it.each([
    '2024-13-01',
    '2024-02-30',
    '2023-02-29',
    '2024-6-1',
    '01/06/2024',
    'yesterday',
    '',
    '2024-06-30T24:00',
    '2024-06-30T18:60',
    '2024-06-30Z',
    '2024-06-30T18:00+25:00',
  ])('refuses %j with SEARCH_BAD_DATE and the forms it takes', (text) => {
    expect(() => parseDateBound(text, 'start', UTC)).toThrow(
      expect.objectContaining({
        code: 'SEARCH_BAD_DATE',
        message: expect.stringContaining('YYYY-MM-DD') as unknown,
      }),
    );
  });

  it('takes February 29th of a leap year and years below 100 as written', () => {
    expect(parseDateBound('2024-02-29', 'start', UTC)).toBe(wall('2024-02-29T00:00:00.000'));
    expect(isoWallClock(parseDateBound('0050-03-01', 'start', UTC))).toBe('0050-03-01T00:00:00.000');
  });
});

describe('parseDateRange', () => {
  it('accepts one day as both bounds', () => {
    expect(parseDateRange('2024-06-30', '2024-06-30', UTC)).toEqual({
      from: wall('2024-06-30T00:00:00.000'),
      to: wall('2024-06-30T23:59:59.999'),
    });
  });

  it('refuses a start after the end with SEARCH_DATES_REVERSED', () => {
    const attempt = (): unknown => parseDateRange('2024-07-01', '2024-06-30', UTC);
    expect(attempt).toThrow(SearchError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'SEARCH_DATES_REVERSED' }));
  });
});

describe('mediaTimeOf', () => {
  it('takes the camera date as written, whatever the zone of this computer', () => {
    const photo = file({
      image: { date: '2024:06:30 23:30:00' },
      mTimeMs: Date.parse('2025-01-01T00:00:00Z'),
    });
    expect(mediaTimeOf(photo, PLUS_TWO)).toEqual({ wall: wall('2024-06-30T23:30:00.000'), source: 'camera' });
    expect(mediaTimeOf(photo, UTC)).toEqual({ wall: wall('2024-06-30T23:30:00.000'), source: 'camera' });
  });

  it('falls back to the modification time on this computer clock without a usable camera date', () => {
    const instant = Date.parse('2024-06-30T22:30:00Z');
    expect(mediaTimeOf(file({ mTimeMs: instant }), PLUS_TWO)).toEqual({
      wall: wall('2024-07-01T00:30:00.000'),
      source: 'modified',
    });
    expect(mediaTimeOf(file({ image: { date: '0000:00:00 00:00:00' }, mTimeMs: instant }), UTC)?.source).toBe(
      'modified',
    );
    expect(mediaTimeOf(file({}), UTC)).toBeUndefined();
  });
});

describe('camera dates and formatting', () => {
  it('reads only the EXIF form YYYY:MM:DD HH:MM:SS', () => {
    expect(exifWallClock('2024:03:10 09:15:00')).toBe(wall('2024-03-10T09:15:00.000'));
    expect(exifWallClock('2024-03-10 09:15:00')).toBeUndefined();
    expect(exifWallClock('2024:02:30 09:15:00')).toBeUndefined();
  });

  it('prints a wall-clock time without a zone', () => {
    expect(formatWallClock(wall('2024-03-10T09:15:07.123'))).toBe('2024-03-10 09:15:07');
    expect(isoWallClock(wall('2024-03-10T09:15:07.123'))).toBe('2024-03-10T09:15:07.123');
  });
});

describe('instantOf', () => {
  it('is the inverse of wallClockOf, also for a zone east and west of UTC', () => {
    for (const offset of [120, -300, 0]) {
      const at: UtcOffsetAt = () => offset;
      const instant = Date.UTC(2024, 5, 30, 21, 30);
      expect(instantOf(wallClockOf(instant, at), at)).toBe(instant);
    }
  });
});
