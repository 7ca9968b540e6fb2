// The state tree: layers in order, folder counts moved by a path's depth, and what a folder's state comes from.
import { describe, expect, it } from 'vitest';
import { foldersAbove, StateTree } from '../../../../app/file-state/state-tree.ts';

const LAYERS = ['transfer', 'waiting', 'conflict', 'issue'];

describe('StateTree', () => {
  it('shows the first layer that has a path, and the most urgent state below each folder', () => {
    const tree = new StateTree(LAYERS);
    expect(tree.set('waiting', 'a/b/c.txt', { state: 'waiting' })).toEqual(['a/b/c.txt', 'a/b', 'a', '']);
    expect(tree.urgencyBelow('a')).toBe(1);
    // A transfer of the same path is shown over its waiting; the folders move from 1 to 2.
    expect(tree.set('transfer', 'a/b/c.txt', { state: 'syncing-up' })).toEqual(['a/b/c.txt', 'a/b', 'a', '']);
    expect(tree.own('a/b/c.txt')?.state).toBe('syncing-up');
    expect(tree.urgencyBelow('')).toBe(2);
    // An error elsewhere in the tree wins at the root, not in the other branch.
    tree.set('issue', 'x/y.txt', { state: 'not-synced', reason: 'error', code: 'DISK_FULL' });
    expect(tree.urgencyBelow('')).toBe(4);
    expect(tree.urgencyBelow('a')).toBe(2);
    expect(tree.sourceBelow('', 4)?.[0]).toBe('x/y.txt');
    // Cleared: back to what waits; then nothing.
    tree.set('transfer', 'a/b/c.txt', undefined);
    expect(tree.own('a/b/c.txt')?.state).toBe('waiting');
    tree.set('waiting', 'a/b/c.txt', undefined);
    expect(tree.own('a/b/c.txt')).toBeUndefined();
    expect(tree.urgencyBelow('a')).toBe(0);
    expect(tree.urgencyBelow('')).toBe(4);
  });

  it('does not raise folders for an ignored item, and says nothing changed when nothing did', () => {
    const tree = new StateTree(LAYERS);
    expect(tree.set('issue', 'a/tmp~', { state: 'not-synced', reason: 'ignored' })).toEqual(['a/tmp~']);
    expect(tree.urgencyBelow('a')).toBe(0);
    expect(tree.set('issue', 'a/tmp~', { state: 'not-synced', reason: 'ignored' })).toEqual([]);
    expect(tree.set('waiting', 'nothing', undefined)).toEqual([]);
  });

  it('replaces a layer whole, touching only what changed', () => {
    const tree = new StateTree(LAYERS);
    tree.replace(
      'conflict',
      new Map([
        ['a/x', { state: 'conflict' as const }],
        ['b/y', { state: 'conflict' as const }],
      ]),
    );
    const changed = tree.replace('conflict', new Map([['b/y', { state: 'conflict' as const }]]));
    expect(changed).toEqual(['a/x', 'a']);
    expect(tree.paths('conflict')).toEqual(['b/y']);
    expect(tree.urgencyBelow('')).toBe(3);
  });

  it('keeps counts right through many changes (a folder is 0 exactly when nothing is below it)', () => {
    const tree = new StateTree(LAYERS);
    const paths = Array.from({ length: 200 }, (_, index) => `d${index % 7}/e${index % 3}/f${index}`);
    for (const [index, path] of paths.entries()) {
      tree.set(
        index % 2 === 0 ? 'waiting' : 'issue',
        path,
        index % 2 === 0 ? { state: 'waiting' } : { state: 'not-synced', reason: 'error' },
      );
    }
    expect(tree.urgencyBelow('d0')).toBe(4);
    for (const [index, path] of paths.entries())
      tree.set(index % 2 === 0 ? 'waiting' : 'issue', path, undefined);
    for (let folder = 0; folder < 7; folder += 1) expect(tree.urgencyBelow(`d${folder}`)).toBe(0);
    expect(tree.urgencyBelow('')).toBe(0);
  });

  it('lists the folders above a path, nearest first, the root last', () => {
    expect(foldersAbove('a/b/c')).toEqual(['a/b', 'a', '']);
    expect(foldersAbove('top')).toEqual(['']);
    expect(foldersAbove('')).toEqual([]);
  });
});
