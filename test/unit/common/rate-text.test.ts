// A limit as people write it, read into bytes per second: the unit table, off, and what is refused.
import { describe, expect, it } from 'vitest';
import { parseRate, rateText, RateTextError } from '../../../common/rate-text.ts';

describe('parseRate', () => {
  it('reads decimal and binary units, with or without /s, whatever the case', () => {
    expect(parseRate('2MB/s')).toBe(2_000_000);
    expect(parseRate('500KB/s')).toBe(500_000);
    expect(parseRate('500kb/s')).toBe(500_000);
    expect(parseRate('500 kB')).toBe(500_000);
    expect(parseRate('1.5MiB/s')).toBe(1_572_864);
    expect(parseRate('64KiB')).toBe(65_536);
    expect(parseRate(' 1GB / s ')).toBe(1_000_000_000);
    expect(parseRate('1000B/s')).toBe(1000);
  });

  it('off, none and 0 mean no limit', () => {
    for (const text of ['off', 'OFF', 'none', '0']) expect(parseRate(text)).toBeUndefined();
  });

  it('refuses words, bare numbers, bits and limits under 1KB/s, saying how to write one', () => {
    const cases: Array<[string, RegExp]> = [
      ['fast', /is not a speed: write it as 2MB\/s/],
      ['', /is not a speed/],
      ['500', /has no unit: .*KB = 1000 bytes, KiB = 1024/],
      ['-2MB/s', /is not a speed/],
      ['10Mbit/s', /may be bits/],
      ['10Mbps', /may be bits/],
      ['3 parsecs', /unknown unit/],
      ['0.5KB/s', /below the lowest limit, 1KB\/s/],
      ['2MB/h', /is not a speed/],
    ];
    for (const [text, words] of cases) {
      let thrown: unknown;
      try {
        parseRate(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, text).toBeInstanceOf(RateTextError);
      expect((thrown as RateTextError).code).toBe('RATE_INVALID');
      expect((thrown as RateTextError).message, text).toMatch(words);
    }
  });
});

describe('rateText', () => {
  it('writes a limit back so that it reads as the same bytes, in the shortest unit that is exact', () => {
    const cases: Array<[number, string]> = [
      [2_000_000, '2MB/s'],
      [1_572_864, '1.5MiB/s'],
      [500_000, '500KB/s'],
      [65_536, '64KiB/s'],
      [1_000_000_000, '1GB/s'],
      [1_234_567, '1234.567KB/s'],
      [1001, '1.001KB/s'],
      [1_572_865, '1572.865KB/s'],
    ];
    for (const [bytes, text] of cases) {
      expect(rateText(bytes), String(bytes)).toBe(text);
      expect(parseRate(rateText(bytes))).toBe(bytes);
    }
  });
});
