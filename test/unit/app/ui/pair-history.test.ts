// What the core keeps of each pair for the window: activity (the newest 500 lines) and, apart from it, the conflicts, listed while both copies are there.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityView } from '../../../../common/contract.ts';
import { PairHistory } from '../../../../app/ui/pairs/pair-history.ts';
import { pairIssues } from '../../../../app/ui/pairs/pair-issues.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-pair-history-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function line(kind: ActivityView['kind'], path: string, atMs: number): ActivityView {
  return { pairId: 'p', kind, path, atMs, localPath: join(root, path) };
}

/** A conflict as a pass leaves it: the device's version at `name`, this computer's beside it. */
function conflict(name: string, atMs: number): ActivityView {
  const copy = `${name} (conflicted copy 2026-11-25 101500).txt`;
  writeFileSync(join(root, copy), 'here');
  writeFileSync(join(root, `${name}.txt`), 'device');
  return line('conflict', copy, atMs);
}

describe('PairHistory', () => {
  it('keeps each pair newest first, across every pair, until the pair is forgotten', () => {
    const history = new PairHistory();
    const entry = (pairId: string, atMs: number) => ({
      pairId,
      atMs,
      kind: 'uploaded' as const,
      path: `f${atMs}`,
      localPath: `/x/f${atMs}`,
    });
    history.add('a', [entry('a', 1), entry('a', 5)]);
    history.add('b', [entry('b', 3)]);
    expect(history.activity(null).map((line) => line.atMs)).toEqual([5, 3, 1]);
    expect(history.activity('a').map((line) => line.atMs)).toEqual([5, 1]);
    history.forget('a');
    expect(history.activity(null).map((line) => line.pairId)).toEqual(['b']);
  });
});

describe('PairHistory conflicts', () => {
  it('keeps a conflict however busy the pair is, while the activity keeps its newest 500 lines', () => {
    const history = new PairHistory();
    history.add('p', [conflict('plan', 1)]);
    for (let atMs = 2; atMs < 2_002; atMs += 100) {
      history.add(
        'p',
        Array.from({ length: 100 }, (_, index) =>
          line('uploaded', `photo-${atMs + index}.jpg`, atMs + index),
        ),
      );
    }
    expect(history.activity('p')).toHaveLength(500);
    expect(history.activity('p').some((entry) => entry.kind === 'conflict')).toBe(false);
    const listed = pairIssues('p', root, [], history.conflicts('p'));
    expect(listed).toMatchObject({ conflictCount: 1, issues: [{ group: 'conflict', path: 'plan.txt' }] });
  });

  it('is listed while both copies are there: not once either is deleted, again when a restore brings both back', () => {
    const history = new PairHistory();
    const told = conflict('plan', 1);
    history.add('p', [told]);
    const listed = (): number => pairIssues('p', root, [], history.conflicts('p')).conflictCount;
    expect(listed()).toBe(1);
    unlinkSync(told.localPath);
    unlinkSync(join(root, 'plan.txt'));
    expect(listed()).toBe(0);
    writeFileSync(told.localPath, 'here');
    writeFileSync(join(root, 'plan.txt'), 'device');
    expect(listed()).toBe(1);
  });

  it('lists a copy told twice once; when full, lets settled conflicts go first, then the oldest', () => {
    const history = new PairHistory();
    const settled = conflict('settled', 1);
    const old = conflict('old', 2);
    history.add('p', [settled, { ...old, atMs: 3 }]);
    history.add('p', [{ ...old, atMs: 4 }]);
    expect(history.conflicts('p').map((entry) => entry.atMs)).toEqual([4, 1]);
    unlinkSync(settled.localPath);
    // 1,001 told: the settled one makes room.
    history.add(
      'p',
      Array.from({ length: 999 }, (_, index) => conflict(`file-${index}`, 10 + index)),
    );
    expect(history.conflicts('p')).toHaveLength(1_000);
    expect(history.conflicts('p').at(-1)?.path).toBe(old.path);
    // 1,001 open: the oldest goes.
    history.add('p', [conflict('newest', 5_000)]);
    expect(history.conflicts('p')).toHaveLength(1_000);
    expect(history.conflicts('p')[0]?.path).toBe('newest (conflicted copy 2026-11-25 101500).txt');
    expect(history.conflicts('p').some((entry) => entry.path === old.path)).toBe(false);
    history.forget('p');
    expect(history.conflicts('p')).toEqual([]);
  });
});
