// Name comparisons of the data model: NFC keys, and the shortcuts a pass takes for names spelled alike.
import { describe, expect, it } from 'vitest';
import { hasName, isAscii, nameKey, sameName } from '../../../../app/model/items.ts';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

describe('name comparisons', () => {
  it('keys names by NFC; ASCII is its own key', () => {
    expect(nameKey(NFD)).toBe(NFC);
    expect(nameKey('plain.txt')).toBe('plain.txt');
    expect(isAscii('plain.txt')).toBe(true);
    expect(isAscii(NFC)).toBe(false);
    // The Kelvin sign is not ASCII, and its NFC is the ASCII letter K.
    expect(nameKey('\u212a')).toBe('K');
  });

  it('sameName: equal spellings, or one name in two normal forms', () => {
    expect(sameName('a.txt', 'a.txt')).toBe(true);
    expect(sameName(NFC, NFD)).toBe(true);
    expect(sameName('A.txt', 'a.txt')).toBe(false);
  });

  it.for([
    ['docs/a.txt', 'a.txt', true],
    ['a.txt', 'a.txt', true],
    ['docs/ba.txt', 'a.txt', false],
    ['ba.txt', 'a.txt', false],
    [`docs/${NFD}`, NFC, true],
    [NFC, NFD, true],
    [`${NFD}/x`, NFC, false],
    ['docs/a.txt/', 'a.txt', false],
  ] as const)('hasName(%j, %j) is %s', ([path, name, expected]) => {
    expect(hasName(path, name)).toBe(expected);
  });
});
