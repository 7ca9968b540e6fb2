// Trash, recovery and file-system bookkeeping folders are never synced, on either side and at any depth.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { neverSyncedReason } from '../../../../../app/watcher/watch-events.ts';
import { isNeverWatched } from '../../../../../app/watcher/watch-options.ts';
import { temporaryOrSystemReason } from '../../../../../app/sync/local/local-names.ts';
import type { IndexEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import { passInputs } from '../../../../../app/sync/pass/pass-inputs.ts';
import { scanLocalFolder } from '../../../../../app/sync/local/scanner.ts';
import { add, CleanerWorld, file, unlink } from '../../watcher/cleaner-world.ts';
import { walkOf } from '../plan/planner-world.ts';

describe('temporaryOrSystemReason for a disk’s own folders', () => {
  it.each([
    ['.Trash-0', 'a trash folder'],
    ['.Trash-1000', 'a trash folder'],
    ['.Trash', 'a trash folder'],
    ['.Trashes', 'a trash folder'],
    ['$RECYCLE.BIN', 'a trash folder'],
    ['$Recycle.Bin', 'a trash folder'],
    ['RECYCLER', 'a trash folder'],
    ['RECYCLED', 'a trash folder'],
    ['Network Trash Folder', 'a trash folder'],
    ['lost+found', "a file system check's recovery folder"],
    ['LOST.DIR', "a file system check's recovery folder"],
    ['FOUND.000', "a file system check's recovery folder"],
    ['FOUND.017', "a file system check's recovery folder"],
    ['.DocumentRevisions-V100', 'a system file'],
    ['.PKInstallSandboxManager', 'a system file'],
    ['.PKInstallSandboxManager-SystemSoftware', 'a system file'],
    ['.VolumeIcon.icns', 'a system file'],
    ['.com.apple.timemachine.donotpresent', 'a system file'],
    ['.AppleDouble', 'a system file'],
    ['.AppleDB', 'a system file'],
    ['.AppleDesktop', 'a system file'],
    ['System Volume Information', 'a system file'],
  ])('skips %s as %s', (name, reason) => {
    expect(temporaryOrSystemReason(name)).toBe(reason);
  });

  // Names people give their own items: other spellings of the exact names, near misses of the patterns.
  it.each([
    '.trash', // Obsidian's vault trash, the user's own notes
    'Trash',
    '.Trash-',
    '.Trash-me',
    '.Trash-1000.txt',
    'Recycler',
    'recycler',
    'Lost+Found',
    'lost+found.txt',
    'FOUND.1',
    'FOUND.0001',
    'found.000',
    'Temporary Items',
    '.journal',
  ])('keeps %s', (name) => {
    expect(temporaryOrSystemReason(name)).toBeUndefined();
  });
});

describe('the local scan', () => {
  let root: string;
  const write = (path: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), 'x');
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mch-never-synced-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('skips trash and recovery folders at any depth without reading them', () => {
    write('a.txt');
    write('.Trash-0/files/b.txt');
    write('.Trash-0/info/b.txt.trashinfo');
    mkdirSync(join(root, 'lost+found'));
    write('disk/.Trash-1000/files/c.txt');
    write('disk/.Trash/1000/files/d.txt');
    const result = scanLocalFolder(root);
    expect(result.entries.map((entry) => entry.path).sort()).toEqual(['a.txt', 'disk']);
    expect(result.skipped.map((item) => [item.path, item.reason]).sort()).toEqual([
      ['.Trash-0', 'temporary-or-system'],
      ['disk/.Trash', 'temporary-or-system'],
      ['disk/.Trash-1000', 'temporary-or-system'],
      ['lost+found', 'temporary-or-system'],
    ]);
  });

  it('finds a folder that holds only its trash, lost+found and the state folder empty', () => {
    write('.Trash-0/files/b.txt');
    mkdirSync(join(root, 'lost+found'));
    mkdirSync(join(root, '.mch-sync'));
    expect(scanLocalFolder(root).root).toBe('empty');
  });
});

describe('the live watcher', () => {
  it('never watches a trash folder and drops every event in it', () => {
    expect(isNeverWatched('/mnt/usb', '/mnt/usb/.Trash-1000')).toBe(true);
    expect(isNeverWatched('/mnt/usb', '/mnt/usb/lost+found')).toBe(true);
    expect(neverSyncedReason('.Trash-1000/files/a.txt')).toBe('a trash folder');
    expect(neverSyncedReason('disk/lost+found/#1234')).toBe("a file system check's recovery folder");
  });

  it('reads a file moved into the trash (a file manager’s delete on that disk) as deleted', () => {
    const world = new CleanerWorld([file('a.txt', 1)]).push(
      unlink('a.txt'),
      add('.Trash-1000/files/a.txt', 1),
      add('.Trash-1000/info/a.txt.trashinfo', 2),
    );
    expect(world.drain()).toEqual(['deleted a.txt']);
  });
});

describe('the device side', () => {
  const ROOT = 'root-id';
  const remote = (id: string, path: string, parentId: string, kind: 'file' | 'folder'): RemoteEntry => ({
    id,
    parentId,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind,
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
  });
  const row = (entry: RemoteEntry): IndexEntry => ({
    remoteId: entry.id,
    parentRemoteId: entry.parentId,
    path: entry.path,
    name: entry.name,
    kind: entry.kind,
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
    inode: null,
    localSize: null,
    localMtimeNs: null,
    contentHash: null,
  });

  it('leaves a trash folder an older client uploaded out of the round, rows and all, and says so once', () => {
    const trash = remote('t', '.Trash-1000', ROOT, 'folder');
    const files = remote('f', '.Trash-1000/files', 't', 'folder');
    const inTrash = remote('x', '.Trash-1000/files/a.txt', 'f', 'file');
    const kept = remote('k', 'b.txt', ROOT, 'file');
    const result = passInputs(
      { root: 'ok', entries: [], skipped: [], clashes: [], portability: [] },
      walkOf([trash, files, inTrash, kept]),
      [trash, files, inTrash].map(row),
      ROOT,
    );
    expect([...result.input.remote.keys()]).toEqual(['k']);
    expect([...result.input.index.keys()]).toEqual([]);
    expect(result.issues).toEqual([
      {
        kind: 'skipped',
        path: '.Trash-1000',
        code: 'NOT_SYNCED_NAME',
        message: 'On the device: a trash folder.',
      },
    ]);
  });
});
