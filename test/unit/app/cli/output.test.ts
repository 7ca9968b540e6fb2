// Formatting of durations and aligned rows in the commands' output.
import { describe, expect, it } from 'vitest';
import { describeDevice, describeRemaining, safeText, table } from '../../../../app/cli/terminal/output.ts';

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

  it('keeps each row one line, whatever a value holds', () => {
    expect(table([['user', 'Ann\nfake: row\u001b[2J']])).toEqual(['user: Ann\\u000afake: row\\u001b[2J']);
  });
});

describe('describeDevice', () => {
  it('shows a device name holding a newline and an escape sequence on one inert line', () => {
    expect(describeDevice({ id: 'd1', name: 'Home\n\u001b[2JCloud', url: 'https://d1.example' })).toBe(
      'Home\\u000a\\u001b[2JCloud (d1) at https://d1.example',
    );
  });
});

describe('safeText', () => {
  it('escapes control characters but keeps the line breaks of the text itself', () => {
    expect(safeText('a\u001b[2Jb\nc\u0007')).toBe('a\\u001b[2Jb\nc\\u0007');
  });

  it('keeps JSON valid and equal: inside a string an escape is the same character', () => {
    const value = { name: 'x\u0085\u202ey', n: 1 };
    const text = safeText(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(/[\u0085\u202e]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
