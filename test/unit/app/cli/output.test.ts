// Formatting of durations and aligned rows in the commands' output.
import { describe, expect, it } from 'vitest';
import { describeRemaining, table } from '../../../../app/cli/output.ts';

describe('describeRemaining', () => {
  it('says how long is left, or how long ago it ended', () => {
    expect(describeRemaining(40_000, 0)).toBe('in 40 s');
    expect(describeRemaining(3_599_000, 0)).toBe('in 59 min');
    expect(describeRemaining(86_399_000, 0)).toBe('in 23 h 59 min');
    expect(describeRemaining(0, 180_000)).toBe('expired 3 min ago');
  });
});

describe('table', () => {
  it('lines the values up after the longest label', () => {
    expect(
      table([
        ['user', 'alice'],
        ['secret store', 'file'],
      ]),
    ).toEqual(['user:         alice', 'secret store: file']);
  });
});
