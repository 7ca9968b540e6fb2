// Kept copies of excluded folders told apart from what only shares an inode with them: a renamed copy stays kept, a new folder or file given a freed inode does not.
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexRow, LocalEntry } from '../../../../../app/model/items.ts';
import { birthIdentity } from '../../../../../app/sync/local/scan-fs.ts';
import { scanLocalFolder, type ScanResult } from '../../../../../app/sync/local/scanner.ts';
import { movedIntoKeptCopies } from '../../../../../app/sync/selection/selection-inputs.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-kept-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function identity(path: string): string {
  const found = birthIdentity(lstatSync(path, { bigint: true }));
  if (found === undefined) throw new Error('this disk keeps no birth times');
  return found;
}

describe('the scan of a kept copy', () => {
  it('skips the copy renamed or moved, by its inode and birth', () => {
    mkdirSync(join(root, 'photos/2019'), { recursive: true });
    writeFileSync(join(root, 'photos/2019/a.jpg'), 'a');
    const kept = identity(join(root, 'photos/2019'));
    const inode = kept.slice(0, kept.indexOf('@'));
    renameSync(join(root, 'photos'), join(root, 'pictures'));
    const scan = scanLocalFolder(root, { excludedInodes: new Map([[inode, kept]]) });
    expect(scan.skipped).toContainEqual(
      expect.objectContaining({ path: 'pictures/2019', reason: 'excluded' }),
    );
    expect(scan.entries.map((entry) => entry.path)).toEqual(['pictures']);
  });

  it('syncs a new folder that only has the inode of a copy deleted before it', () => {
    mkdirSync(join(root, 'new'));
    const stats = lstatSync(join(root, 'new'), { bigint: true });
    // What the record would hold had the copy owned this inode before: the same inode, another birth.
    const before = `${stats.ino}@${stats.birthtimeNs - 1_000_000_000n}`;
    const scan = scanLocalFolder(root, { excludedInodes: new Map([[stats.ino.toString(), before]]) });
    expect(scan.skipped).toEqual([]);
    expect(scan.entries.map((entry) => entry.path)).toEqual(['new']);
  });
});

describe('a synced file moved into a kept copy', () => {
  const row = (path: string, inode: string): IndexRow => ({
    remoteId: `r-${path}`,
    parentRemoteId: 'root',
    path,
    name: path,
    kind: 'file',
    eTag: 'e',
    size: 5,
    mTimeMs: 1,
    inode,
    localSize: 5,
    localMtimeNs: 1_000_000n,
  });
  const scanWith = (kept: Array<[string, { size: number; mtimeNs: bigint }]>): ScanResult => ({
    root: 'ok',
    entries: [],
    skipped: [],
    clashes: [],
    portability: [],
    keptInodes: new Map(kept.map(([inode, item]) => [inode, { kind: 'file' as const, ...item }])),
  });
  const rows = new Map([['r-a.txt', row('a.txt', '7')]]);

  it('is the file with its inode, size and time, when nothing is at its path', () => {
    const moved = movedIntoKeptCopies(scanWith([['7', { size: 5, mtimeNs: 1_000_000n }]]), rows, new Map());
    expect(moved.map((item) => [item.path, item.issue.code])).toEqual([['a.txt', 'MOVED_INTO_EXCLUDED']]);
  });

  it('is not a new file given its freed inode, nor a file whose path holds a new one', () => {
    expect(movedIntoKeptCopies(scanWith([['7', { size: 9, mtimeNs: 5n }]]), rows, new Map())).toEqual([]);
    const saved: LocalEntry = { path: 'a.txt', kind: 'file', inode: '8', size: 6, mtimeNs: 2n };
    expect(
      movedIntoKeptCopies(
        scanWith([['7', { size: 5, mtimeNs: 1_000_000n }]]),
        rows,
        new Map([['a.txt', saved]]),
      ),
    ).toEqual([]);
  });
});
