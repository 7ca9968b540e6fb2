// Unit tests of search folding: the decided equivalences, the offsets back to the original text, and
// the claim behind the fast path, checked for every code point.
import { describe, expect, it } from 'vitest';
import { CLUSTER_JOINERS, foldCluster, foldTerm, foldText } from '../../../../device/search/fold.ts';
import { oracleFold } from './oracle.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function* allCodePoints(): Generator<string> {
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    if (codePoint < 0xd800 || codePoint > 0xdfff) yield String.fromCodePoint(codePoint);
  }
}

/** The offsets a fold maps back to, as [foldedOffset, originalOffset] pairs at cluster boundaries. */
function boundaries(text: string): [number, number][] {
  const { folded, offsets } = foldText(text);
  const pairs: [number, number][] = [];
  for (let at = 0; at <= folded.length; at += 1) {
    const original = offsets ? (offsets[at] ?? -1) : at;
    if (original >= 0) pairs.push([at, original]);
  }
  return pairs;
}

describe('foldTerm', () => {
  it.each([
    ['lower-cases ASCII', 'Holiday.JPG', 'holiday.jpg'],
    ['folds NFD to the NFC form', 'cafe\u0301', 'café'],
    ['folds upper-case NFD to lower-case NFC', 'E\u0301TE\u0301', 'été'],
    ['keeps accents (accent-sensitive)', 'é', 'é'],
    ['folds ẞ to ß', 'STRAẞE', 'straße'],
    ['keeps ß (no expansion to ss)', 'straße', 'straße'],
    ['folds İ to i + combining dot above, like Unicode lower case', 'İ', 'i\u0307'],
    ['folds I + combining dot above to the same', 'I\u0307', 'i\u0307'],
    ['keeps dotless ı', 'ı', 'ı'],
    ['folds final sigma to sigma', 'ΟΔΟς', 'οδοσ'],
    ['folds the Kelvin sign to k (its NFC is K)', '\u212a', 'k'],
    ['folds the Angstrom sign to å', '\u212b', 'å'],
    ['keeps emoji', '👍🏽', '👍🏽'],
    ['lower-cases title-case digraphs', 'ǅ', 'ǆ'],
    ['keeps ligatures (no compatibility folding)', 'ﬁ', 'ﬁ'],
    ['composes NFD Hangul', '\u1112\u1161\u11ab', '한'],
  ])('%s', (_label, input, expected) => {
    expect(foldTerm(input)).toBe(expected);
  });
});

describe('foldText offsets', () => {
  it('maps every offset to itself for printable ASCII', () => {
    expect(foldText('Ab.C d').offsets).toBeUndefined();
  });

  it('maps past İ, whose fold is two code units, to the original offsets', () => {
    expect(foldText('İx').folded).toBe('i\u0307x');
    expect(boundaries('İx')).toEqual([
      [0, 0],
      [2, 1],
      [3, 2],
    ]);
  });

  it('marks offsets inside a decomposed letter as inside a cluster', () => {
    // "e" + combining acute is one cluster of two code units that folds to one.
    expect(boundaries('xe\u0301y')).toEqual([
      [0, 0],
      [1, 1],
      [2, 3],
      [3, 4],
    ]);
  });

  it('keeps an emoji ZWJ sequence as one cluster', () => {
    const family = '👨‍👩‍👧';
    expect(boundaries(`a${family}b`)).toEqual([
      [0, 0],
      [1, 1],
      [1 + family.length, 1 + family.length],
      [2 + family.length, 2 + family.length],
    ]);
  });
});

describe('the fast path (one cluster per code point unless a joiner is present)', () => {
  it('holds for every assigned code point: without a joiner, no two code points form one cluster', () => {
    const joining: string[] = [];
    for (const character of allCodePoints()) {
      if (CLUSTER_JOINERS.test(character) || /\p{Cn}/u.test(character)) continue;
      let count = 0;
      for (const _segment of segmenter.segment(`a${character}${character}b`)) count += 1;
      if (count !== 4) joining.push(character.codePointAt(0)?.toString(16) ?? '');
    }
    expect(joining).toEqual([]);
  });

  it('holds for every code point: only a joiner composes with the code point before it', () => {
    const composing = new Set<string>();
    for (const character of allCodePoints()) {
      for (const later of Array.from(character.normalize('NFD')).slice(1)) {
        if (!CLUSTER_JOINERS.test(later)) composing.add(later.codePointAt(0)?.toString(16) ?? '');
      }
    }
    expect([...composing]).toEqual([]);
  });

  it('folds strings of every kind exactly as segmenting them does', () => {
    const samples = [
      'plain ASCII.txt',
      'İstanbul ẞtraße ΟΔΟΣ',
      'e\u0301te\u0301 café',
      '👨‍👩‍👧 🇫🇷🇩🇪 👍🏽 ❤️',
      '\u1112\u1161\u11ab\uac00 日本語',
      'a\r\nb\u0600.c',
      '\u212a\u212b ǅ ᾼ',
    ];
    for (const sample of samples) expect(foldText(sample).folded).toBe(oracleFold(sample));
  });

  it('folds one cluster the same whether alone or through foldText', () => {
    for (const cluster of ['İ', 'e\u0301', 'ẞ', '👍🏽'])
      expect(foldText(cluster).folded).toBe(foldCluster(cluster));
  });
});
