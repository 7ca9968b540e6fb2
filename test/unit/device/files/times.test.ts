// Unit tests of ISO 8601 time parsing and formatting on the wire.
import { describe, expect, it } from 'vitest';
import { formatTime, parseTime } from '../../../../device/files/times.ts';

describe('parseTime', () => {
  it('reads times with and without fractions', () => {
    expect(parseTime('2026-11-22T01:02:03Z', 't')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3));
    expect(parseTime('2026-11-22T01:02:03.4Z', 't')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 400));
    expect(parseTime('2026-11-22T01:02:03.456Z', 't')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
  });

  it('cuts sub-millisecond digits instead of rounding up', () => {
    expect(parseTime('2026-11-22T01:02:03.456999999Z', 't')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
  });

  it('applies a zone offset', () => {
    expect(parseTime('2026-11-22T03:02:03+02:00', 't')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3));
  });

  it.each(['yesterday', '2026-11-22', '2026-11-22T01:02:03', '2026-13-40T01:02:03Z', '', 12, null])(
    'refuses %j',
    (value) => {
      expect(() => parseTime(value, 'mTime')).toThrow(/mTime/);
    },
  );
});

describe('formatTime', () => {
  it('writes UTC with milliseconds and round-trips', () => {
    const text = formatTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(text).toBe('2026-01-02T03:04:05.006Z');
    expect(parseTime(text, 't')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  });
});
