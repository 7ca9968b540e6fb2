// Unit tests of the search text grammar: white space, quoted phrases, unterminated quotes, folding.
import { describe, expect, it } from 'vitest';
import { searchTerms, splitTerms } from '../../../../device/search/query.ts';

describe('splitTerms', () => {
  it.each<[string, string, string[]]>([
    ['splits on spaces', 'holiday photo 2024', ['holiday', 'photo', '2024']],
    ['ignores leading, trailing and repeated white space', '  a \t\n b  ', ['a', 'b']],
    ['splits on Unicode white space (no-break and ideographic spaces)', 'a\u00a0b\u3000c', ['a', 'b', 'c']],
    [
      'keeps a quoted phrase whole, with its inner spaces',
      '"summer holiday" photo',
      ['summer holiday', 'photo'],
    ],
    ['keeps spaces at the edges of a phrase verbatim', '" a "', [' a ']],
    ['joins a quote in the middle of a term with its neighbours', 'ab"c d"e f', ['abc de', 'f']],
    ['runs an unterminated quote to the end of the text', 'photo "summer holi', ['photo', 'summer holi']],
    ['drops empty phrases', '"" a ""', ['a']],
    ['keeps regex metacharacters', '.* (a|b) [x]', ['.*', '(a|b)', '[x]']],
    ['keeps one-character terms', 'a 1 😀', ['a', '1', '😀']],
    ['gives no term for a blank text', ' \t ', []],
    ['gives no term for a lone quote', '"', []],
  ])('%s', (_label, q, expected) => {
    expect(splitTerms(q)).toEqual(expected);
  });
});

describe('searchTerms', () => {
  it('folds the terms (case, NFC)', () => {
    expect(searchTerms('CAFE\u0301 Straẞe')).toEqual(['café', 'straße']);
  });

  it('drops terms that fold to one already given', () => {
    expect(searchTerms('Photo photo PHOTO beach')).toEqual(['photo', 'beach']);
  });
});
