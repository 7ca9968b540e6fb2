// Unit tests of entity-tag list matching used by If-Match and If-None-Match.
import { describe, expect, it } from 'vitest';
import { tagListMatches } from '../../../../device/http/preconditions.ts';

describe('tagListMatches', () => {
  it('matches a star and any listed tag exactly', () => {
    expect(tagListMatches('*', '"abc"')).toBe(true);
    expect(tagListMatches('"abc"', '"abc"')).toBe(true);
    expect(tagListMatches('"x", "abc"', '"abc"')).toBe(true);
  });

  it('never matches a weak tag, an unquoted tag or another tag', () => {
    expect(tagListMatches('W/"abc"', '"abc"')).toBe(false);
    expect(tagListMatches('abc', '"abc"')).toBe(false);
    expect(tagListMatches('"abcd"', '"abc"')).toBe(false);
    expect(tagListMatches('', '"abc"')).toBe(false);
  });
});
