// Unit tests of the index tokens and the FTS5 queries built from terms.
import { describe, expect, it } from 'vitest';
import {
  addStringTokens,
  anyExpression,
  nameExpression,
  termGrams,
} from '../../../../device/search/grams.ts';
import { foldTerm } from '../../../../device/search/fold.ts';

function tokens(text: string): Set<string> {
  const into = new Set<string>();
  addStringTokens('n', foldTerm(text), into);
  return into;
}

describe('index tokens', () => {
  it('are every 1-, 2- and 3-code-point run of the folded string, as hex', () => {
    expect([...tokens('AbC')].sort()).toEqual(['n61', 'n6162', 'n616263', 'n62', 'n6263', 'n63'].sort());
  });

  it('encode a code point above 255 as x and six hex digits, so no encoding is a prefix of another', () => {
    expect([...tokens('é😀')].sort()).toEqual(['ne9', 'ne9x01f600', 'nx01f600'].sort());
    expect([...tokens('ā')]).toEqual(['nx000101']);
  });
});

describe('termGrams', () => {
  it('asks for a one- or two-code-point term whole', () => {
    expect(termGrams('a')).toEqual(['61']);
    expect(termGrams('😀a')).toEqual(['x01f60061']);
  });

  it('asks for the trigrams of a longer term', () => {
    expect(termGrams('abcd')).toEqual(['616263', '626364']);
  });

  it('asks for at most 12 trigrams, spread over the whole term', () => {
    const grams = termGrams('abcdefghijklmnopqrstuvwxyz');
    expect(grams).toHaveLength(12);
    expect(grams[0]).toBe('616263');
    expect(grams.at(-1)).toBe('78797a');
  });

  it('gives grams that are all tokens of any string holding the term', () => {
    const samples = ['Straße İstanbul 😀👍🏽 cafe\u0301', 'ΟΔΟΣ 日本語 \u1112\u1161\u11ab.txt'];
    for (const sample of samples) {
      const folded = foldTerm(sample);
      const all = tokens(sample);
      const codePoints = Array.from(folded);
      for (let start = 0; start < codePoints.length; start += 1) {
        for (let end = start + 1; end <= codePoints.length; end += 1) {
          const term = codePoints.slice(start, end).join('');
          for (const gram of termGrams(term)) expect(all.has(`n${gram}`), `${term} in ${sample}`).toBe(true);
        }
      }
    }
  });
});

describe('FTS5 expressions', () => {
  it('ask the name for every term', () => {
    expect(nameExpression(['ab', 'cde'])).toBe('("n6162") AND ("n636465")');
  });

  it('ask for each term in the name or in the other strings', () => {
    expect(anyExpression(['ab', 'x'])).toBe('(("n6162") OR ("m6162")) AND (("n78") OR ("m78"))');
  });
});
