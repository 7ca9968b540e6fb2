// Unit tests of exact matching: locations of every edge case of device-api.md §3, fragments and rank.
import { describe, expect, it } from 'vitest';
import {
  fragmentsOf,
  rankOf,
  searchedStrings,
  type ItemStrings,
} from '../../../../device/search/matching.ts';
import { searchTerms } from '../../../../device/search/query.ts';

/** The locations of the terms of `q` in one name, as [index, length] pairs. */
function locations(name: string, q: string): [number, number][] {
  const fragments = fragmentsOf({ name }, searchTerms(q));
  return (fragments[0]?.locations ?? []).map(({ index, length }) => [index, length]);
}

/** The text each location covers, which must be exactly the characters the user sees as matching. */
function covered(name: string, q: string): string[] {
  return locations(name, q).map(([index, length]) => name.slice(index, index + length));
}

describe('locations', () => {
  it('finds a lower-case term in an upper-case name (case-insensitive)', () => {
    expect(locations('HOLIDAY.JPG', 'jpg')).toEqual([[8, 3]]);
  });

  it('reports repeated occurrences', () => {
    expect(locations('ab ab ab', 'ab')).toEqual([
      [0, 2],
      [3, 2],
      [6, 2],
    ]);
  });

  it('reports overlapping occurrences separately, never merged', () => {
    expect(locations('aaaa', 'aa')).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
  });

  it('reports occurrences of every term, sorted by index then length', () => {
    expect(locations('abcab', 'b abc ab')).toEqual([
      [0, 2],
      [0, 3],
      [1, 1],
      [3, 2],
      [4, 1],
    ]);
  });

  it('lists an occurrence two terms share once', () => {
    expect(locations('Report', 'report REPORT')).toEqual([[0, 6]]);
  });

  it('takes regex metacharacters literally', () => {
    expect(covered('a.b*c (1) [x]+?^$|\\', '.b* (1) [x]+?^$|\\')).toEqual(['.b*', '(1)', '[x]+?^$|\\']);
    expect(locations('abc', '.')).toEqual([]);
  });

  it('finds one- and two-character terms, shorter than a trigram', () => {
    expect(locations('a1b2', '1')).toEqual([[1, 1]]);
    expect(locations('x-y', '-y')).toEqual([[1, 2]]);
  });

  it('counts UTF-16 code units: an emoji before the match shifts it by two', () => {
    expect(locations('😀abc', 'abc')).toEqual([[2, 3]]);
  });

  it('finds an emoji and covers both of its surrogates', () => {
    expect(covered('a😀b😀', '😀')).toEqual(['😀', '😀']);
    expect(locations('a😀b', '😀')).toEqual([[1, 2]]);
  });

  it('never splits a cluster: not a person out of a ZWJ family, nor half of a flag pair', () => {
    expect(locations('👨‍👩‍👧', '👩')).toEqual([]);
    expect(locations('🇫🇷🇩🇪', '🇷🇩')).toEqual([]);
    expect(covered('🇫🇷🇩🇪', '🇩🇪')).toEqual(['🇩🇪']);
  });

  it('keeps a skin tone with its emoji: the bare emoji does not match the toned one', () => {
    expect(locations('👍🏽', '👍')).toEqual([]);
    expect(covered('👍🏽', '👍🏽')).toEqual(['👍🏽']);
  });

  it('matches NFD text with an NFC term and covers the base letter and its mark', () => {
    expect(covered('cafe\u0301.txt', 'café')).toEqual(['cafe\u0301']);
    expect(locations('cafe\u0301.txt', '.txt')).toEqual([[5, 4]]);
  });

  it('matches NFC text with an NFD term', () => {
    expect(covered('café', 'cafe\u0301')).toEqual(['café']);
  });

  it('is accent-sensitive: e does not match é, in either form', () => {
    expect(locations('café cafe\u0301', 'cafe')).toEqual([]);
    expect(locations('cafe', 'café')).toEqual([]);
  });

  it('matches ß and ẞ with each other, but not ss', () => {
    expect(covered('STRAẞE', 'straße')).toEqual(['STRAẞE']);
    expect(covered('Straße', 'STRAẞE')).toEqual(['Straße']);
    expect(locations('Strasse', 'straße')).toEqual([]);
    expect(locations('Straße', 'strasse')).toEqual([]);
  });

  it('covers exactly İ when the term is i̇, and does not shift what follows', () => {
    // İ lower-cases to two code units (i + U+0307); the location still covers its one code unit.
    expect(locations('İstanbul', 'i\u0307')).toEqual([[0, 1]]);
    expect(locations('İstanbul', 'İstan')).toEqual([[0, 5]]);
    expect(locations('xİstanbul', 'stan')).toEqual([[2, 4]]);
    expect(locations('İİ', 'İ')).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('does not match plain i inside İ (its dot is part of the letter)', () => {
    expect(locations('İstanbul', 'istanbul')).toEqual([]);
    expect(locations('İ', 'i')).toEqual([]);
  });

  it('matches final and medial sigma with each other', () => {
    expect(covered('ΟΔΟΣ', 'οδος')).toEqual(['ΟΔΟΣ']);
  });

  it('finds a phrase with its inner space', () => {
    expect(locations('summer holiday photo', '"holiday ph"')).toEqual([[7, 10]]);
  });
});

describe('fragmentsOf', () => {
  const strings: ItemStrings = {
    name: 'Canon 2024.JPG',
    mimeType: 'image/jpeg',
    extension: '.JPG',
    cameraMake: 'Canon',
    cameraModel: 'Canon EOS 5D',
    date: '2024:06:15 14:30:05',
  };

  it('lists the searched strings that hold a term, in the documented order', () => {
    const fragments = fragmentsOf(strings, searchTerms('canon 2024 jp'));
    expect(fragments.map((fragment) => fragment.text)).toEqual([
      'Canon 2024.JPG',
      'image/jpeg',
      '.JPG',
      'Canon',
      'Canon EOS 5D',
      '2024:06:15 14:30:05',
    ]);
  });

  it('leaves out strings without a hit', () => {
    expect(fragmentsOf(strings, searchTerms('eos')).map((fragment) => fragment.text)).toEqual([
      'Canon EOS 5D',
    ]);
  });
});

describe('rankOf', () => {
  const row = {
    name: 'beach.jpg',
    mime_type: 'image/jpeg',
    is_dir: 0 as const,
    image: '{"cameraMake":"Canon"}',
  };

  it('is 0 when every term occurs in the name', () => {
    expect(rankOf(row, searchTerms('beach jpg'))).toBe(0);
  });

  it('is 1 when a term occurs only in other strings', () => {
    expect(rankOf(row, searchTerms('beach canon'))).toBe(1);
  });

  it('is undefined when a term occurs nowhere', () => {
    expect(rankOf(row, searchTerms('beach nikon'))).toBeUndefined();
  });
});

describe('searchedStrings', () => {
  const row = { name: 'a.txt', mime_type: 'text/plain', is_dir: 0 as const };

  it('takes image strings only when they are strings', () => {
    const image = JSON.stringify({
      cameraMake: 'Canon',
      cameraModel: 5,
      date: '2024:06:15 14:30:05',
      width: 3,
    });
    expect(searchedStrings({ ...row, image })).toEqual({
      name: 'a.txt',
      mimeType: 'text/plain',
      extension: '.txt',
      cameraMake: 'Canon',
      date: '2024:06:15 14:30:05',
    });
  });

  it('ignores an image column that is not JSON', () => {
    expect(searchedStrings({ ...row, image: '{broken' })).toEqual({
      name: 'a.txt',
      mimeType: 'text/plain',
      extension: '.txt',
    });
  });

  it('gives folders no extension', () => {
    expect(
      searchedStrings({ ...row, name: 'photos.2024', is_dir: 1, image: null }).extension,
    ).toBeUndefined();
  });
});
