// Unit tests of the Range header interpretation used by content downloads.
import { describe, expect, it } from 'vitest';
import { contentRangeHeader, parseRange, unsatisfiedRangeHeader } from '../../../../device/files/range.ts';

describe('parseRange', () => {
  it('serves the whole body when there is no header', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'none' });
  });

  it('returns a closed range as given', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'range', start: 0, end: 9 });
    expect(parseRange('bytes=10-10', 100)).toEqual({ kind: 'range', start: 10, end: 10 });
  });

  it('clamps an end past the last byte to the last byte', () => {
    expect(parseRange('bytes=90-500', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=0-99', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
  });

  it('reads an open range to the end of the resource', () => {
    expect(parseRange('bytes=40-', 100)).toEqual({ kind: 'range', start: 40, end: 99 });
    expect(parseRange('bytes=99-', 100)).toEqual({ kind: 'range', start: 99, end: 99 });
  });

  it('reads a suffix range as the last n bytes', () => {
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-1', 100)).toEqual({ kind: 'range', start: 99, end: 99 });
  });

  it('gives the whole resource for a suffix longer than it', () => {
    expect(parseRange('bytes=-100', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('bytes=-5000', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
  });

  it('finds a zero-length suffix unsatisfiable', () => {
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
  });

  it('finds a start at or past the end unsatisfiable', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=5000-', 100)).toEqual({ kind: 'unsatisfiable' });
  });

  it('finds every valid range of an empty resource unsatisfiable', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores a range whose end is before its start', () => {
    expect(parseRange('bytes=10-5', 100)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=10-5', 0)).toEqual({ kind: 'none' });
  });

  it('tolerates white space and any case in the unit', () => {
    expect(parseRange('  Bytes = 1 - 2 ', 100)).toEqual({ kind: 'range', start: 1, end: 2 });
    expect(parseRange('BYTES=-3', 100)).toEqual({ kind: 'range', start: 97, end: 99 });
    expect(parseRange('bytes=\t5-', 100)).toEqual({ kind: 'range', start: 5, end: 99 });
  });

  it('ignores several ranges', () => {
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=0-1, -5', 100)).toEqual({ kind: 'none' });
  });

  it.each([
    'items=0-1',
    'bytes',
    'bytes=',
    'bytes=-',
    'bytes=a-b',
    'bytes=1.5-3',
    'bytes=+1-3',
    'bytes=0-1-2',
    'bytes 0-1',
    '',
    'bytes=0x10-',
  ])('ignores the malformed header %j', (header) => {
    expect(parseRange(header, 100)).toEqual({ kind: 'none' });
  });

  it('handles positions beyond the safe integer range without inventing a range', () => {
    expect(parseRange('bytes=99999999999999999999-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-99999999999999999999', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('bytes=0-99999999999999999999', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
  });

  it('works for resources larger than 4 GiB', () => {
    const size = 6 * 1024 ** 3;
    expect(parseRange('bytes=5000000000-', size)).toEqual({
      kind: 'range',
      start: 5_000_000_000,
      end: size - 1,
    });
  });

  it('treats an impossible size as a bug', () => {
    expect(() => parseRange('bytes=0-1', -1)).toThrow(/size/);
    expect(() => parseRange(undefined, Number.NaN)).toThrow(/size/);
  });
});

describe('Content-Range values', () => {
  it('describes a served range', () => {
    expect(contentRangeHeader(0, 9, 100)).toBe('bytes 0-9/100');
  });

  it('describes an unsatisfied range with the full size', () => {
    expect(unsatisfiedRangeHeader(100)).toBe('bytes */100');
    expect(unsatisfiedRangeHeader(0)).toBe('bytes */0');
  });
});
