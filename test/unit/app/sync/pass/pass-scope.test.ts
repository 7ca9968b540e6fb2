// Incremental rounds: the scan reads only the changed subtrees, the index stands for the rest of the disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import type { PassIssue } from '../../../../../app/sync/pass-report.ts';
import {
  PassScope,
  remoteChangedRoots,
  scopeInputs,
  withStandingOutside,
} from '../../../../../app/sync/pass/pass-scope.ts';
import type { RemoteWalkResult } from '../../../../../app/sync/remote/remote-walk.ts';
import { scanLocalFolder } from '../../../../../app/sync/local/scanner.ts';
import { Random } from '../../../../reliability/canopy/random.ts';

function row(remoteId: string, path: string, parentRemoteId = 'root'): IndexEntry {
  return {
    remoteId,
    parentRemoteId,
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    kind: 'file',
    eTag: 'e',
    size: 1,
    mTimeMs: 1,
    inode: `i-${remoteId}`,
    localSize: 1,
    localMtimeNs: 1n,
    contentHash: null,
  };
}

function remote(id: string, path: string): RemoteEntry {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { id, parentId: 'root', path, name, kind: 'file', eTag: 'e', size: 1, mTimeMs: 1 };
}

describe('scanLocalFolder within', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const tempRoot = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'mch-scope-'));
    roots.push(root);
    return root;
  };

  it('reads the scoped subtrees and the folders on the way, with the .mchignore files on the way', () => {
    const root = tempRoot();
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    mkdirSync(join(root, 'other'));
    writeFileSync(join(root, '.mchignore'), '*.log\n');
    writeFileSync(join(root, 'a', 'b', 'c', 'x.txt'), 'x');
    writeFileSync(join(root, 'a', 'b', 'c', 'x.log'), 'x');
    writeFileSync(join(root, 'a', 'sibling.txt'), 's');
    writeFileSync(join(root, 'other', 'y.txt'), 'y');
    const scan = scanLocalFolder(root, { within: ['a/b'] });
    expect(scan.entries.map((entry) => entry.path)).toEqual(['a', 'a/b', 'a/b/c', 'a/b/c/x.txt']);
    expect(scan.skipped.map((item) => [item.path, item.reason])).toEqual([['a/b/c/x.log', 'ignored']]);
    expect(scan.root).toBe('ok');
  });

  it('reads a scoped name in either normal form, and finds the clash between the two spellings', () => {
    const root = tempRoot();
    const nfc = 'r\u00e9sum\u00e9';
    const nfd = 're\u0301sume\u0301';
    mkdirSync(join(root, nfd, nfc), { recursive: true });
    mkdirSync(join(root, nfd, nfd));
    mkdirSync(join(root, nfd, 'other'));
    // The pass's scope is the new NFD folder; its NFC twin beside it is read too (seed 6296).
    const scan = scanLocalFolder(root, { within: [`${nfc}/${nfd}`] });
    expect(scan.entries.map((entry) => entry.path).sort()).toEqual(
      [nfd, `${nfd}/${nfc}`, `${nfd}/${nfd}`].sort(),
    );
    expect(scan.clashes.map((clash) => [clash.folder, clash.kind, [...clash.paths].sort()])).toEqual([
      [nfd, 'unicode', [`${nfd}/${nfc}`, `${nfd}/${nfd}`].sort()],
    ]);
  });
});

describe('PassScope.covers', () => {
  it('says what the plain definition says, for a few roots and for the many of a round around differences', () => {
    const names = ['a', 'b', 'ab', 'a b', 'r\u00e9', 're\u0301', 'c.txt'];
    for (let seed = 1; seed <= 400; seed++) {
      const random = new Random(seed);
      const path = (): string => Array.from({ length: random.int(1, 4) }, () => random.pick(names)).join('/');
      const roots = Array.from({ length: random.int(1, 60) }, path);
      const scope = new PassScope(roots);
      const keys = roots.map((root) => root.normalize('NFC'));
      for (let n = 0; n < 50; n++) {
        const asked = path();
        const key = asked.normalize('NFC');
        const plain = keys.some((root) => key === root || key.startsWith(`${root}/`));
        expect(scope.covers(asked), `seed ${seed}: ${asked}`).toBe(plain);
      }
    }
  });
});

describe('withStandingOutside', () => {
  const issue = (path: string, code: string): PassIssue => ({ kind: 'skipped', path, code, message: code });
  const show = (list: readonly PassIssue[]): string[] => list.map((each) => `${each.code} ${each.path}`);

  it("keeps the last settled pass's issues outside the scope and drops those it looked at again", () => {
    const standing = {
      issues: [
        issue('far/link', 'SYMLINK'),
        issue('docs/old', 'SYMLINK'),
        issue('r\u00e9sum\u00e9', 'NAME_CLASH'),
      ],
      fromScan: 2,
    };
    // The round looked at docs/ (its old issue is gone) and found a new scan issue there.
    const merged = withStandingOutside(
      { issues: [issue('docs/new', 'SYMLINK'), issue('docs/x', 'REFUSED')], fromScan: 1 },
      standing,
      new PassScope(['docs']),
    );
    expect(show(merged.issues)).toEqual([
      'SYMLINK docs/new',
      'SYMLINK far/link',
      'REFUSED docs/x',
      'NAME_CLASH r\u00e9sum\u00e9',
    ]);
    expect(merged.fromScan).toBe(2);
  });

  it('drops a standing issue whose path the scope covers in the other normal form', () => {
    const standing = { issues: [issue('re\u0301sume\u0301', 'NAME_CLASH')], fromScan: 0 };
    const merged = withStandingOutside(
      { issues: [], fromScan: 0 },
      standing,
      new PassScope(['r\u00e9sum\u00e9']),
    );
    expect(merged.issues).toEqual([]);
  });
});

describe('scopeInputs', () => {
  it('keeps what is in, above and beside the scope; the index stands for unscanned items beside it', () => {
    const scope = new PassScope(['docs/new.txt']);
    const folder = { ...row('d', 'docs'), kind: 'folder' as const, localSize: 0 };
    const input = scopeInputs(
      {
        local: new Map([
          ['docs', { path: 'docs', kind: 'folder', inode: 'i-d', size: 0, mtimeNs: 1n }],
          ['docs/new.txt', { path: 'docs/new.txt', kind: 'file', inode: 'n', size: 2, mtimeNs: 2n }],
        ]),
        remote: new Map([
          ['d', remote('d', 'docs')],
          ['s', remote('s', 'docs/beside.txt')],
          ['f', remote('f', 'far/away.txt')],
        ]),
        index: new Map([
          ['d', folder],
          ['s', row('s', 'docs/beside.txt', 'd')],
          ['f', row('f', 'far/away.txt')],
        ]),
        remoteRootId: 'root',
      },
      scope,
    );
    expect([...input.local.keys()].sort()).toEqual(['docs', 'docs/beside.txt', 'docs/new.txt']);
    expect([...input.index.keys()].sort()).toEqual(['d', 's']);
    expect([...input.remote.keys()].sort()).toEqual(['d', 's']);
  });

  it('reads an item of the index inside the scope but gone from the disk as deleted', () => {
    const scope = new PassScope(['gone.txt']);
    const input = scopeInputs(
      {
        local: new Map(),
        remote: new Map([['g', remote('g', 'gone.txt')]]),
        index: new Map([['g', row('g', 'gone.txt')]]),
        remoteRootId: 'root',
      },
      scope,
    );
    expect(input.local.size).toBe(0);
    expect(input.index.has('g')).toBe(true);
  });
});

describe('remoteChangedRoots', () => {
  function walkOf(entries: RemoteEntry[], listed: string[], vanished: string[] = []): RemoteWalkResult {
    return {
      entries: new Map(entries.map((entry) => [entry.id, entry])),
      rejected: [],
      vanished: vanished.map((id) => ({ id, path: `gone-${id}`, error: undefined as never })),
      unchanged: new Set(),
      listed: new Set(listed),
      excluded: [],
      cache: { pageSize: undefined, folders: new Map() },
      stats: { listed: listed.length, notModified: 0, trusted: 0 },
    };
  }
  const rows = new Map([
    ['f1', row('f1', 'docs/old-name')],
    ['f2', row('f2', 'photos')],
  ]);
  const index = { get: (id: string) => rows.get(id) };

  it('is empty when every listing was unchanged', () => {
    expect(remoteChangedRoots(walkOf([remote('f1', 'docs/old-name')], []), index, 'root')).toEqual([]);
  });

  it('gives a changed folder where it is now and where the index had it', () => {
    const walk = walkOf([remote('f1', 'docs/new-name'), remote('f3', 'fresh')], ['f1', 'f3']);
    expect(remoteChangedRoots(walk, index, 'root').sort()).toEqual([
      'docs/new-name',
      'docs/old-name',
      'fresh',
    ]);
  });

  it('gives everything when the synced folder itself changed, and the index path of a vanished folder', () => {
    expect(remoteChangedRoots(walkOf([], ['root']), index, 'root')).toEqual(['']);
    expect(remoteChangedRoots(walkOf([], [], ['f2']), index, 'root')).toEqual(['photos']);
  });
});
