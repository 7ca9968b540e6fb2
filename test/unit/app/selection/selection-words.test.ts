// A folder's state under a selection, and thresholds as people write them.
import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, type PairSelection } from '../../../../app/model/selection.ts';
import { parseSize } from '../../../../app/selection/selection-change.ts';
import { SelectionError } from '../../../../app/selection/selection-errors.ts';
import { stateOf } from '../../../../app/selection/selection-tree.ts';

const selection: PairSelection = {
  ...EMPTY_SELECTION,
  excluded: [{ path: 'Photos/2019', id: 'p19', localCopy: 'keep' }],
  waiting: [{ path: 'Big', id: 'big', bytes: 600_000_000, files: 3 }],
};

describe('stateOf', () => {
  it('tells synced, partly, excluded (itself or above) and waiting folders apart', () => {
    expect(stateOf(selection, { path: 'Docs', id: 'd' })).toBe('synced');
    expect(stateOf(selection, { path: 'Photos', id: 'p' })).toBe('partly');
    expect(stateOf(selection, { path: 'Photos/2019', id: 'p19' })).toBe('excluded');
    expect(stateOf(selection, { path: 'Photos/2019/May', id: 'm' })).toBe('excluded');
    // Followed by id when it moved since.
    expect(stateOf(selection, { path: 'Archive/2019', id: 'p19' })).toBe('excluded');
    expect(stateOf(selection, { path: 'Big', id: 'big' })).toBe('waiting');
    // A name that only starts like an excluded one is not below it.
    expect(stateOf(selection, { path: 'Photos/20190', id: 'q' })).toBe('synced');
  });
});

describe('parseSize', () => {
  it('reads sizes in powers of 1000, and off', () => {
    expect(parseSize('500MB')).toBe(500_000_000);
    expect(parseSize('2 GB')).toBe(2_000_000_000);
    expect(parseSize('1.5kb')).toBe(1500);
    expect(parseSize('20B')).toBe(20);
    expect(parseSize('1000')).toBe(1000);
    expect(parseSize('OFF')).toBeNull();
  });

  it('refuses what is not a size', () => {
    for (const text of ['fast', '', '-1MB', '0', '5 MiB', 'MB']) {
      expect(() => parseSize(text)).toThrow(SelectionError);
    }
  });
});
