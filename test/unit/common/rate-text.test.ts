// A limit as people write it, read into bytes per second: the unit table, off, and what is refused.
import { describe, expect, it } from 'vitest';
import { parseRate, RateTextError } from '../../../common/rate-text.ts';

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
