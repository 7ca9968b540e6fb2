// A round's inputs: what one side could not see is left alone on both sides, never read as deleted.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../../common/errors.ts';
import type { IndexEntry, LocalEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import { passInputs } from '../../../../../app/sync/pass/pass-inputs.ts';
import { walkOf as walk } from '../plan/planner-world.ts';
import type { ScanResult } from '../../../../../app/sync/local/scanner.ts';

const ROOT = 'root-id';

function local(path: string, kind: 'file' | 'folder' = 'file'): LocalEntry {
  return { path, kind, inode: `i-${path}`, size: 1, mtimeNs: 1n };
}

function remote(id: string, path: string, kind: 'file' | 'folder' = 'file', parentId = ROOT): RemoteEntry {
  return {
    id,
    parentId,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind,
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
  };
}

function row(remoteId: string, path: string): IndexEntry {
  return {
    remoteId,
    parentRemoteId: ROOT,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind: 'file',
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
    inode: `i-${path}`,
    localSize: 1,
    localMtimeNs: 1n,
    contentHash: null,
  };
}

function scan(entries: LocalEntry[], skipped: ScanResult['skipped'] = []): ScanResult {
  return { root: 'ok', entries, skipped, clashes: [], portability: [] };
}

describe('passInputs', () => {
  it.for([1, 40])(
    'with %i skipped folders, leaves out exactly what is in or below one (NFC), not a longer name',
    (count) => {
      const skipped: ScanResult['skipped'] = [{ path: 'caf\u00e9', reason: 'ignored', detail: 'x' }];
      for (let i = 1; i < count; i++) skipped.push({ path: `other-${i}`, reason: 'ignored', detail: 'x' });
      const paths = ['caf\u00e9', 'cafe\u0301/in.txt', 'caf\u00e9s.txt', 'caf\u00e9x/x.txt', 'keep.txt'];
      const result = passInputs(
        scan(
          paths.map((path) => local(path)),
          skipped,
        ),
        walk(paths.map((path, i) => remote(`r${i}`, path))),
        paths.map((path, i) => row(`r${i}`, path)),
        ROOT,
      );
      const kept = ['caf\u00e9s.txt', 'caf\u00e9x/x.txt', 'keep.txt'];
      expect([...result.input.local.keys()]).toEqual(kept);
      expect([...result.input.remote.values()].map((entry) => entry.path)).toEqual(kept);
      expect([...result.input.index.values()].map((entry) => entry.path)).toEqual(kept);
    },
  );

  it('leaves index rows and remote items under a skipped local path out, and reports the skip', () => {
    const result = passInputs(
      scan(
        [local('keep.txt')],
        [{ path: 'locked', reason: 'unreadable', detail: 'could not be read: EACCES', errno: 'EACCES' }],
      ),
      walk([
        remote('f', 'locked', 'folder'),
        remote('g', 'locked/in.txt', 'file', 'f'),
        remote('k', 'keep.txt'),
      ]),
      [row('f', 'locked'), row('g', 'locked/in.txt'), row('k', 'keep.txt')],
      ROOT,
    );
    expect([...result.input.index.keys()]).toEqual(['k']);
    expect([...result.input.remote.keys()]).toEqual(['k']);
    // Unreadable is not synced, and waiting does not help: it needs the user (issue 27).
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({
      kind: 'failed',
      remedy: 'needs-you',
      path: 'locked',
      code: 'PERMISSION_DENIED',
    });
    expect(result.issues[0]?.message).toContain('This folder cannot be read: permission denied.');
  });

  it('marks the local folders above a kept copy of an excluded folder, and only those (seeds 76, 489)', () => {
    const result = passInputs(
      scan(
        [local('docs', 'folder'), local('docs/sub', 'folder'), local('other', 'folder')],
        [
          { path: 'docs/sub/r\u00e9sum\u00e9', reason: 'excluded', detail: 'x' },
          { path: 'other/ignored', reason: 'ignored', detail: 'x' },
        ],
      ),
      walk([]),
      [],
      ROOT,
    );
    const holders = [...result.input.local.values()].filter((entry) => entry.holdsLeftOut === true);
    expect(holders.map((entry) => entry.path)).toEqual(['docs', 'docs/sub']);
  });

  it('keeps a vanished remote folder itself but nothing known below it, on either side', () => {
    const result = passInputs(
      scan([local('gone', 'folder'), local('gone/a.txt')]),
      walk([remote('f', 'gone', 'folder')], {
        vanished: [{ id: 'f', path: 'gone', error: new ApiError('NOT_FOUND', 'Not found', 'gone') }],
      }),
      [row('f', 'gone'), row('a', 'gone/a.txt')],
      ROOT,
    );
    expect([...result.input.local.keys()]).toEqual(['gone']);
    expect([...result.input.index.keys()]).toEqual(['f']);
  });

  it('does not bring down system, temporary or state-folder names from the device', () => {
    const result = passInputs(
      scan([]),
      walk([
        remote('a', '.DS_Store'),
        remote('b', '~$report.docx'),
        remote('s', '.mch-sync', 'folder'),
        remote('t', '.mch-sync/trash', 'folder', 's'),
        remote('c', 'real.txt'),
      ]),
      [],
      ROOT,
    );
    expect([...result.input.remote.keys()]).toEqual(['c']);
    expect(result.issues.map((issue) => [issue.path, issue.code])).toEqual([
      ['.DS_Store', 'NOT_SYNCED_NAME'],
      ['~$report.docx', 'NOT_SYNCED_NAME'],
      ['.mch-sync', 'NOT_SYNCED_NAME'],
    ]);
  });

  it('leaves the index row of a remote item refused by name alone', () => {
    const result = passInputs(
      scan([]),
      walk([], {
        rejected: [
          {
            folderId: ROOT,
            folderPath: '',
            id: 'bad',
            name: 'a/b',
            error: new ApiError('INVALID_NAME', 'Bad', 'slash'),
          },
        ],
      }),
      [row('bad', 'old-name')],
      ROOT,
    );
    expect(result.input.index.size).toBe(0);
    expect(result.issues[0]).toMatchObject({
      kind: 'failed',
      remedy: 'never-as-is',
      path: 'a/b',
      code: 'REMOTE_ITEM_REFUSED',
    });
  });

  it('reads a remote item parked under .mch-moving-<hex> as still where the index has it, children too', () => {
    const parked = { ...remote('f', '.mch-moving-0123456789ab', 'folder'), name: '.mch-moving-0123456789ab' };
    const result = passInputs(
      scan([]),
      walk([parked, remote('c', '.mch-moving-0123456789ab/c.txt', 'file', 'f')]),
      [
        { ...row('f', 'photos'), kind: 'folder' },
        { ...row('c', 'photos/c.txt'), parentRemoteId: 'f' },
      ],
      ROOT,
    );
    expect(result.input.remote.get('f')).toMatchObject({ name: 'photos', path: 'photos', parentId: ROOT });
    expect(result.input.remote.get('c')?.path).toBe('photos/c.txt');
  });

  it('matches skipped paths in NFC, so an NFD spelling is covered too', () => {
    const nfd = 'cafe\u0301';
    const result = passInputs(
      scan([], [{ path: nfd, reason: 'ignored', detail: '.mchignore' }]),
      walk([remote('x', 'caf\u00e9/a.txt')]),
      [],
      ROOT,
    );
    expect(result.input.remote.size).toBe(0);
  });

  it("names the side of a normalisation clash, and keeps the other side's item of that spelling", () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    // The device holds the synced NFC item and a new NFD one; this computer only the NFD spelling.
    const onDevice = passInputs(
      scan([local(nfd)]),
      walk([remote('synced', nfc), remote('new', nfd)]),
      [row('synced', nfc)],
      ROOT,
    );
    expect([...onDevice.input.remote.keys()]).toEqual(['synced']);
    expect([...onDevice.input.local.keys()]).toEqual([nfd]);
    expect(onDevice.issues).toEqual([
      expect.objectContaining({ kind: 'failed', path: nfd, code: 'NAME_CLASH', side: 'remote' }),
    ]);
    expect(onDevice.nameClashes).toBe(1);

    // This computer holds both spellings (Linux keeps both); the device only the NFD one.
    const here = passInputs(
      {
        ...scan([local(nfc), local(nfd)]),
        clashes: [{ folder: '', paths: [nfc, nfd], kind: 'unicode' }],
      },
      walk([remote('synced', nfd)]),
      [row('synced', nfd)],
      ROOT,
    );
    expect([...here.input.local.keys()]).toEqual([nfd]);
    expect([...here.input.remote.keys()]).toEqual(['synced']);
    expect(here.issues).toEqual([
      expect.objectContaining({ kind: 'failed', path: nfc, code: 'NAME_CLASH', side: 'local' }),
    ]);
  });
});
