// `--cache-limit SIZE|off` as given: sizes with units, off, and what is refused.
import { describe, expect, it } from 'vitest';
import {
  cacheLimitOf,
  cacheLimitWords,
} from '../../../../../app/cli/on-demand-commands/cache-limit-option.ts';
import { UsageError } from '../../../../../app/cli/terminal/cli-context.ts';

describe('cacheLimitOf', () => {
  it('reads sizes with and without units, and off', () => {
    expect(cacheLimitOf({ 'cache-limit': '5GB' }, 'usage')).toBe(5_000_000_000);
    expect(cacheLimitOf({ 'cache-limit': '150kb' }, 'usage')).toBe(150_000);
    expect(cacheLimitOf({ 'cache-limit': '1.5 GB' }, 'usage')).toBe(1_500_000_000);
    expect(cacheLimitOf({ 'cache-limit': '2048' }, 'usage')).toBe(2048);
    expect(cacheLimitOf({ 'cache-limit': 'off' }, 'usage')).toBeNull();
    expect(cacheLimitOf({}, 'usage')).toBeUndefined();
  });

  it('refuses what is no size', () => {
    for (const given of ['lots', '-1GB', '0', '5 XB', '']) {
      expect(() => cacheLimitOf({ 'cache-limit': given }, 'usage')).toThrow(UsageError);
    }
  });
});

describe('cacheLimitWords', () => {
  it('says the limit, or that there is none', () => {
    expect(cacheLimitWords(10_000_000_000)).toContain('cache limit 10 GB');
    expect(cacheLimitWords(null)).toContain('no cache limit');
  });
});
