// What Issues lists for a pair and what its card says: items left out on purpose counted, not listed; each item in the command line's group, only what is not synced counted; a conflict listed while both copies are there; "Up to date" never alone over a conflict.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ItemIssue } from '../../../../common/sync-status.ts';
import { PairHistory } from '../../../../app/ui/pairs/pair-history.ts';
import { pairIssues } from '../../../../app/ui/pairs/pair-issues.ts';
import { pairWords } from '../../../../app/ui/pairs/pair-words.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-pair-issues-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function skipped(code: string, path: string): ItemIssue {
  return { kind: 'skipped', path, code, message: 'left out' };
}

describe('pairIssues', () => {
  it('offers to show in its folder only an item that is here', () => {
    writeFileSync(join(root, 'here.txt'), 'x');
    const listed = pairIssues(
      'p',
      root,
      [
        { kind: 'failed', path: 'here.txt', code: 'PERMISSION_DENIED', message: 'cannot be read' },
        { kind: 'failed', path: 'big.iso', code: 'DISK_FULL', message: 'The disk is full.' },
      ],
      [],
    );
    expect(listed.issues.map((issue) => [issue.path, issue.localPath])).toEqual([
      ['here.txt', join(root, 'here.txt')],
      ['big.iso', null],
    ]);
  });

  it('counts what the rules or the client left out on purpose, and lists the rest', () => {
    const sorted = pairIssues(
      'p',
      root,
      [
        skipped('IGNORED', 'build/out.o'),
        skipped('TEMPORARY_OR_SYSTEM', '.DS_Store'),
        skipped('TEMPORARY_OR_SYSTEM', 'notes.txt~'),
        // The same names on the device are refused by name: a system file there is no problem either…
        skipped('NOT_SYNCED_NAME', 'Photos/Thumbs.db'),
        // …but a name this computer cannot hold is one.
        skipped('NOT_SYNCED_NAME', 'Photos/a:b.jpg'),
        skipped('SYMLINK', 'link'),
        { kind: 'failed', path: 'big.iso', code: 'DISK_FULL', message: 'The disk is full.' },
      ],
      [],
    );
    expect(sorted.leftOut).toEqual({ ignored: 1, systemFiles: 3 });
    // What needs the user first, as the command line lists them.
    expect(sorted.issues.map((issue) => issue.path)).toEqual(['big.iso', 'Photos/a:b.jpg', 'link']);
    expect(sorted.conflictCount).toBe(0);
    expect(sorted.unsyncedCount).toBe(1);
  });

  it('groups each item as the command line does, and counts only what is not synced', () => {
    const listed = pairIssues(
      'p',
      root,
      [
        { kind: 'warning', path: 'con.txt', code: 'NOT_PORTABLE', message: 'Windows refuses the name' },
        skipped('SYMLINK', 'link'),
        skipped('SPECIAL_FILE', 'fifo'),
        { kind: 'retry', path: 'busy.doc', code: 'FILE_BUSY', message: 'in use' },
        { kind: 'failed', path: 'a\\b.txt', code: 'INVALID_NAME', message: 'backslash' },
        // A record of an older pass carries no remedy: its code says it.
        { kind: 'failed', path: 'locked', code: 'PERMISSION_DENIED', message: 'denied' },
        // The live service's issues are the pass's own, remedy included.
        {
          kind: 'failed',
          path: 'odd',
          code: 'SOMETHING_NEW',
          message: 'x',
          remedy: 'never-as-is',
        },
      ],
      [],
    );
    expect(listed.issues.map((issue) => [issue.group, issue.path])).toEqual([
      ['needs-you', 'locked'],
      ['never-as-is', 'a\\b.txt'],
      ['never-as-is', 'odd'],
      ['retry-later', 'busy.doc'],
      ['skipped', 'link'],
      ['skipped', 'fifo'],
      ['warning', 'con.txt'],
    ]);
    expect(listed.unsyncedCount).toBe(4);
    expect(listed.leftOut).toEqual({ ignored: 0, systemFiles: 0 });
  });

  it('lists a conflict while both copies are there, once, and lets it go when either is deleted', () => {
    mkdirSync(join(root, 'sub'));
    const copy = 'sub/a (conflicted copy 2026-11-25 101500).txt';
    writeFileSync(join(root, 'sub', 'a.txt'), 'device');
    writeFileSync(join(root, copy), 'here');
    const history = new PairHistory();
    const told = { pairId: 'p', kind: 'conflict' as const, path: copy, localPath: join(root, copy) };
    history.add('p', [{ ...told, atMs: 1 }]);
    history.add('p', [{ ...told, atMs: 2 }]);
    const listed = pairIssues('p', root, [], history.conflicts('p'));
    expect(listed.conflictCount).toBe(1);
    expect(listed.issues).toMatchObject([
      {
        kind: 'conflict',
        group: 'conflict',
        path: 'sub/a.txt',
        localPath: join(root, 'sub', 'a.txt'),
        otherCopy: join(root, copy),
      },
    ]);
    unlinkSync(join(root, copy));
    expect(pairIssues('p', root, [], history.conflicts('p'))).toMatchObject({ issues: [], conflictCount: 0 });
    writeFileSync(join(root, copy), 'here');
    unlinkSync(join(root, 'sub', 'a.txt'));
    expect(pairIssues('p', root, [], history.conflicts('p')).issues).toEqual([]);
  });
});

describe('pairWords', () => {
  it('says what needs the user beside the state: conflicts and items not synced', () => {
    expect(pairWords('idle', { conflicts: 0, unsynced: 0 })).toBe('Up to date');
    expect(pairWords('idle', { conflicts: 1, unsynced: 0 })).toBe('Up to date · 1 conflict');
    expect(pairWords('idle', { conflicts: 2, unsynced: 3 })).toBe('Up to date · 2 conflicts · 3 not synced');
    expect(pairWords('syncing', { conflicts: 0, unsynced: 1 })).toBe('Syncing · 1 not synced');
    expect(pairWords('idle', { conflicts: 1, unsynced: 0, waitingFolders: 2 })).toBe(
      'Up to date · 2 new folders waiting · 1 conflict',
    );
  });
});
