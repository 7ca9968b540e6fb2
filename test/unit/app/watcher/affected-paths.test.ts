// Which subtrees an incremental pass reads again: few, collapsed to folders when many.
import { describe as group, expect, it } from 'vitest';
import { collapseAffectedPaths, isAtOrUnder } from '../../../../app/watcher/affected-paths.ts';

group('collapseAffectedPaths', () => {
  it('drops paths under another one and sorts', () => {
    expect(collapseAffectedPaths(['b/x', 'a', 'a/b/c', 'a b', 'b'])).toEqual(['a', 'a b', 'b']);
  });

  it('keeps a few paths in one folder as they are', () => {
    expect(collapseAffectedPaths(['d/1', 'd/2', 'e/3'])).toEqual(['d/1', 'd/2', 'e/3']);
  });

  it('reads a folder whole when many of its entries changed', () => {
    const paths = Array.from({ length: 17 }, (_, i) => `photos/${i}.jpg`);
    expect(collapseAffectedPaths([...paths, 'notes/a.txt'])).toEqual(['notes/a.txt', 'photos']);
  });

  it('collapses the deepest paths while there are too many', () => {
    const paths = Array.from({ length: 10 }, (_, i) => `p${i}/deep/f`);
    expect(collapseAffectedPaths(paths, { total: 10 })).toHaveLength(10);
    expect(collapseAffectedPaths(paths, { total: 4, perFolder: 100 })).toEqual(['']);
  });

  it('the root covers everything', () => {
    expect(collapseAffectedPaths(['a', '', 'b/c'])).toEqual(['']);
  });

  it('isAtOrUnder tells a sibling with a common prefix from a child', () => {
    expect(isAtOrUnder('a/b', 'a')).toBe(true);
    expect(isAtOrUnder('ab', 'a')).toBe(false);
    expect(isAtOrUnder('a', '')).toBe(true);
  });
});
