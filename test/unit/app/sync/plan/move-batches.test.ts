// Which consecutive remote moves may run at the same time: independent ones do, any that may meet stay in order.
import { describe, expect, it } from 'vitest';
import { independentMoveRun } from '../../../../../app/sync/plan/move-batches.ts';
import type { Operation, OperationReason, RemoteParent } from '../../../../../app/sync/plan/operations.ts';

function parentOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A remote move as the planner emits it: only the name and/or the parent that change. */
function move(
  fromPath: string,
  toPath: string,
  options: { parent?: RemoteParent; reason?: OperationReason; remoteId?: string } = {},
): Operation {
  const sameParent = parentOf(fromPath) === parentOf(toPath);
  return {
    op: 'remote-move',
    remoteId: options.remoteId ?? `r:${fromPath}`,
    ifMatch: `"e:${fromPath}"`,
    fromPath,
    toPath,
    name: nameOf(fromPath) === nameOf(toPath) ? null : nameOf(toPath),
    parent: options.parent ?? (sameParent ? null : { kind: 'existing', remoteId: `r:${parentOf(toPath)}` }),
    reason: options.reason ?? 'sync',
  };
}

/** The plan cut into the runs the executor would start, as their lengths. */
function runs(operations: readonly Operation[]): number[] {
  const lengths: number[] = [];
  for (let start = 0; start < operations.length;) {
    const end = independentMoveRun(operations, start);
    expect(end).toBeGreaterThan(start);
    lengths.push(end - start);
    start = end;
  }
  return lengths;
}

describe('independentMoveRun', () => {
  it('runs renames in different folders together', () => {
    expect(runs([move('a/1.txt', 'a/one.txt'), move('b/1.txt', 'b/one.txt'), move('c/x', 'c/y')])).toEqual([
      3,
    ]);
  });

  it('runs renames to different names in one folder together', () => {
    expect(
      runs([move('d/a.txt', 'd/a2.txt'), move('d/b.txt', 'd/b2.txt'), move('d/c.txt', 'd/c2.txt')]),
    ).toEqual([3]);
  });

  it('runs moves into existing folders together with renames', () => {
    expect(
      runs([move('a.txt', 'docs/a.txt'), move('b.txt', 'archive/b.txt'), move('c.txt', 'c2.txt')]),
    ).toEqual([3]);
  });

  it('runs a burst of 1,000 renames in 100 folders as one run', () => {
    const operations: Operation[] = [];
    for (let folder = 0; folder < 100; folder += 1) {
      for (let file = 0; file < 10; file += 1) {
        operations.push(move(`d${folder}/file-${file}.txt`, `d${folder}/burst-0-${file}.txt`));
      }
    }
    expect(runs(operations)).toEqual([1000]);
  });

  it('keeps a swap in order', () => {
    expect(runs([move('d/a.txt', 'd/b.txt'), move('d/b.txt', 'd/a.txt')])).toEqual([1, 1]);
  });

  it('keeps a chain in order, whichever link comes first', () => {
    expect(runs([move('d/a.txt', 'd/b.txt'), move('d/b.txt', 'd/c.txt')])).toEqual([1, 1]);
    expect(runs([move('d/b.txt', 'd/c.txt'), move('d/a.txt', 'd/b.txt')])).toEqual([1, 1]);
  });

  it('keeps a folder and an item inside it in order', () => {
    expect(runs([move('docs', 'papers'), move('docs/a.txt', 'papers/b.txt')])).toEqual([1, 1]);
    expect(runs([move('docs', 'papers'), move('docs/sub/deep.txt', 'papers/sub/deeper.txt')])).toEqual([
      1, 1,
    ]);
    expect(runs([move('docs/a.txt', 'docs/b.txt'), move('docs', 'papers')])).toEqual([1, 1]);
  });

  it('keeps a move into a folder that another move renames in order', () => {
    expect(runs([move('docs', 'papers'), move('x.txt', 'papers/x.txt')])).toEqual([1, 1]);
  });

  it('keeps a move out of a folder that another move renames in order', () => {
    expect(runs([move('docs', 'papers'), move('docs/x.txt', 'x.txt')])).toEqual([1, 1]);
  });

  it('keeps a move whose target name is another move’s source name in order, even in another folder', () => {
    // The folders may be where the walk saw them or not (an earlier move of the plan): the name decides.
    expect(runs([move('p/a.txt', 'p/b.txt'), move('q/b.txt', 'q/c.txt')])).toEqual([1, 1]);
    expect(runs([move('q/b.txt', 'q/c.txt'), move('p/a.txt', 'p/b.txt')])).toEqual([1, 1]);
    expect(runs([move('p/x.txt', 'q/x.txt'), move('r/x.txt', 's/x.txt')])).toEqual([1, 1]);
  });

  it('keeps two moves to the same target in order', () => {
    expect(runs([move('a/x.txt', 'c/z.txt'), move('b/y.txt', 'c/z.txt')])).toEqual([1, 1]);
  });

  it('compares names as the device may: case and Unicode normalisation do not matter', () => {
    expect(runs([move('d/a.txt', 'd/B.txt'), move('d/b.txt', 'd/c.txt')])).toEqual([1, 1]);
    expect(runs([move('d/a.txt', 'd/caf\u00e9.txt'), move('d/cafe\u0301.txt', 'd/c.txt')])).toEqual([1, 1]);
  });

  it('runs a move into a folder this plan creates alone', () => {
    const planned: RemoteParent = { kind: 'planned', path: 'new' };
    expect(
      runs([
        move('a.txt', 'a2.txt'),
        move('b.txt', 'b2.txt'),
        move('c.txt', 'new/c.txt', { parent: planned }),
        move('d.txt', 'new/d.txt', { parent: planned }),
        move('e.txt', 'e2.txt'),
        move('f.txt', 'f2.txt'),
      ]),
    ).toEqual([2, 1, 1, 2]);
  });

  it('runs conflict copies, case clashes and type changes alone', () => {
    for (const reason of ['conflict', 'case-clash', 'type-change', 'edit-beats-delete'] as const) {
      expect(
        runs([move('a.txt', 'a2.txt'), move('b.txt', 'b2.txt', { reason }), move('c.txt', 'c2.txt')]),
      ).toEqual([1, 1, 1]);
    }
  });

  it('runs a single move alone', () => {
    expect(runs([move('a.txt', 'b.txt')])).toEqual([1]);
    expect(independentMoveRun([move('a.txt', 'b.txt')], 0)).toBe(1);
  });

  it('ends a run at the first move that may not join, so later moves still wait for it', () => {
    expect(
      runs([
        move('d/a.txt', 'd/a2.txt'),
        move('d/b.txt', 'd/b2.txt'),
        move('d/a2.txt', 'd/a3.txt', { remoteId: 'other' }),
        move('e/c.txt', 'e/c2.txt'),
      ]),
    ).toEqual([2, 2]);
  });

  it('ends a run at any other operation', () => {
    const trash: Operation = { op: 'local-trash', path: 'z.txt', inode: '9', kind: 'file', reason: 'sync' };
    const operations = [move('a.txt', 'a2.txt'), move('b.txt', 'b2.txt'), trash, move('c.txt', 'c2.txt')];
    expect(runs(operations)).toEqual([2, 1, 1]);
    expect(independentMoveRun(operations, 2)).toBe(3);
  });

  it('never puts one item in a run twice', () => {
    expect(
      runs([move('a.txt', 'b.txt', { remoteId: 'same' }), move('c.txt', 'd.txt', { remoteId: 'same' })]),
    ).toEqual([1, 1]);
  });
});
