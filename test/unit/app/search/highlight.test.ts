// Marking a search fragment's matches: the device's locations checked, merged, kept on whole characters, printed safely.
import { describe, expect, it } from 'vitest';
import {
  highlight,
  MATCH_END,
  MATCH_START,
  matchedRanges,
  segmentsOf,
} from '../../../../app/search/highlight.ts';
import { terminalSafe } from '../../../../app/search/terminal-text.ts';

describe('matchedRanges', () => {
  it('keeps separate locations apart, in order', () => {
    expect(
      matchedRanges('report and report', [
        { index: 11, length: 6 },
        { index: 0, length: 6 },
      ]),
    ).toEqual([
      { index: 0, length: 6 },
      { index: 11, length: 6 },
    ]);
  });

  it('merges overlapping locations (two terms sharing letters) into one', () => {
    expect(
      matchedRanges('Canon EOS', [
        { index: 0, length: 4 },
        { index: 2, length: 3 },
      ]),
    ).toEqual([{ index: 0, length: 5 }]);
  });

  it('merges locations that touch, and one inside another', () => {
    expect(
      matchedRanges('abcdef', [
        { index: 0, length: 2 },
        { index: 2, length: 2 },
        { index: 1, length: 1 },
      ]),
    ).toEqual([{ index: 0, length: 4 }]);
  });

  it('clamps a location that runs past either end of the text', () => {
    expect(matchedRanges('abc', [{ index: 1, length: 10 }])).toEqual([{ index: 1, length: 2 }]);
    expect(matchedRanges('abc', [{ index: -2, length: 3 }])).toEqual([{ index: 0, length: 1 }]);
  });

  it('drops locations outside the text, empty or negative ones, and ones that are not whole numbers', () => {
    expect(
      matchedRanges('abc', [
        { index: 3, length: 2 },
        { index: 10, length: 1 },
        { index: -5, length: 2 },
        { index: 1, length: 0 },
        { index: 1, length: -1 },
        { index: 0.5, length: 1 },
        { index: 0, length: Number.NaN },
      ]),
    ).toEqual([]);
  });

  it('counts UTF-16 code units: after an emoji (two units) the index is one more than the characters', () => {
    const text = '🎉 party.txt';
    // "party" starts at code unit 3: two for the emoji, one for the space.
    expect(segmentsOf(text, matchedRanges(text, [{ index: 3, length: 5 }]))).toEqual([
      { text: '🎉 ', match: false },
      { text: 'party', match: true },
      { text: '.txt', match: false },
    ]);
  });

  it('never splits a surrogate pair: a range cutting an emoji in half takes the whole emoji', () => {
    const text = 'a🎉b';
    expect(matchedRanges(text, [{ index: 2, length: 1 }])).toEqual([{ index: 1, length: 2 }]);
    expect(matchedRanges(text, [{ index: 0, length: 2 }])).toEqual([{ index: 0, length: 3 }]);
  });

  it('keeps a combining accent with its letter', () => {
    // "Cafe" + U+0301: the device's range ending before the accent would strand it.
    const text = 'Cafe\u0301 menu';
    expect(matchedRanges(text, [{ index: 0, length: 4 }])).toEqual([{ index: 0, length: 5 }]);
  });

  it('marks precomposed accents by their own code unit', () => {
    expect(highlight('Résumé 2024', [{ index: 0, length: 6 }], 'brackets')).toBe('[Résumé] 2024');
  });
});

describe('segmentsOf', () => {
  it('covers the whole text with no empty pieces', () => {
    expect(segmentsOf('abc', [{ index: 0, length: 3 }])).toEqual([{ text: 'abc', match: true }]);
    expect(segmentsOf('abc', [])).toEqual([{ text: 'abc', match: false }]);
    expect(segmentsOf('', [])).toEqual([]);
  });
});

describe('highlight', () => {
  const locations = [{ index: 10, length: 6 }];

  it('puts brackets around matches when the output is not a terminal', () => {
    expect(highlight('Quarterly report.txt', locations, 'brackets')).toBe('Quarterly [report].txt');
  });

  it('marks matches bold and inverse on a terminal and resets right after each', () => {
    expect(highlight('Quarterly report.txt', locations, 'ansi')).toBe(
      `Quarterly ${MATCH_START}report${MATCH_END}.txt`,
    );
    expect(MATCH_START).toBe('\u001b[1;7m');
    expect(MATCH_END).toBe('\u001b[0m');
  });

  it('escapes control characters in the name, inside and outside a match, after placing the ranges', () => {
    // An ESC sequence that would clear the screen, and a newline that would forge a line.
    const text = 'evil\u001b[2Jname\n.txt';
    const marked = highlight(text, [{ index: 5, length: 7 }], 'ansi');
    expect(marked).toBe(`evil\\u001b${MATCH_START}[2Jname${MATCH_END}\\u000a.txt`);
    expect(highlight(text, [{ index: 4, length: 1 }], 'brackets')).toBe('evil[\\u001b][2Jname\\u000a.txt');
  });
});

describe('terminalSafe', () => {
  it('escapes C0, DEL and C1 controls, bidirectional controls and separators', () => {
    expect(terminalSafe('a\u0007b\u007fc\u009bd')).toBe('a\\u0007b\\u007fc\\u009bd');
    expect(terminalSafe('invoice\u202egpj.exe')).toBe('invoice\\u202egpj.exe');
    expect(terminalSafe('x\u2028y\u2066z')).toBe('x\\u2028y\\u2066z');
  });

  it('escapes a lone surrogate but keeps emoji, accents, tabs of other scripts and backslashes', () => {
    expect(terminalSafe('a\ud800b')).toBe('a\\ud800b');
    expect(terminalSafe('🎉 Résumé 東京 C:\\Users')).toBe('🎉 Résumé 東京 C:\\Users');
  });
});
