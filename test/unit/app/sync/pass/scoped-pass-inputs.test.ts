// A scoped round reads only the index rows around its scope: the same inputs as scoping a round over every row.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../../common/errors.ts';
import { openIndexDb, type IndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import {
  nameKey,
  type IndexEntry,
  type LocalEntry,
  type RemoteEntry,
} from '../../../../../app/model/items.ts';
import { passInputs, type PassInputs } from '../../../../../app/sync/pass/pass-inputs.ts';
import {
  PassScope,
  rowsAround,
  scopedPassInputs,
  scopeInputs,
} from '../../../../../app/sync/pass/pass-scope.ts';
import { parentPath } from '../../../../../app/model/paths.ts';
import type { RemoteWalkResult } from '../../../../../app/sync/remote/remote-walk.ts';
import type { NameClash, ScanResult } from '../../../../../app/sync/local/scanner.ts';
import { Random } from '../../../../reliability/canopy/random.ts';
import { walkOf } from '../plan/planner-world.ts';

const ROOT = 'root-id';
// Names that sort around '/' ('.' before it, '0' after it), one name in both normal forms, a code
// point above U+FFFF (UTF-16 sorts it before U+E000, SQLite after) and a parked name.
const NAMES = [
  'a',
  'b',
  'a.b',
  'a0',
  'caf\u00e9',
  'cafe\u0301',
  '\u{1F600}',
  '\uE000',
  'Z',
  '.mch-moving-0123456789ab',
];

interface World {
  rows: IndexEntry[];
  local: LocalEntry[];
  remote: RemoteEntry[];
  skipped: ScanResult['skipped'];
  vanished: RemoteWalkResult['vanished'];
  rejected: RemoteWalkResult['rejected'];
  roots: string[];
}

/** Random paths (folders first, up to three deep) and three random views of them, with moves. */
function world(seed: number): World {
  const random = new Random(seed);
  const next = (): number => random.next();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const folders: string[] = [''];
  const paths: Array<{ path: string; kind: 'file' | 'folder' }> = [];
  const taken = new Set<string>();
  const count = 4 + Math.floor(next() * 40);
  for (let n = 0; n < count; n++) {
    const parent = pick(folders);
    const path = parent === '' ? pick(NAMES) : `${parent}/${pick(NAMES)}`;
    if (taken.has(path) || path.split('/').length > 3) continue;
    taken.add(path);
    const kind = next() < 0.4 ? 'folder' : 'file';
    if (kind === 'folder') folders.push(path);
    paths.push({ path, kind });
  }
  const idAt = new Map(paths.map((item, n) => [item.path, `r${n}`]));
  const parentId = (path: string): string => idAt.get(parentPath(path)) ?? ROOT;
  const elsewhere = (path: string): string => (next() < 0.8 ? path : pick(paths).path);
  const rows: IndexEntry[] = [];
  const local: LocalEntry[] = [];
  const remote: RemoteEntry[] = [];
  const localPaths = new Set<string>();
  paths.forEach(({ path, kind }, n) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (next() < 0.8) {
      rows.push({
        remoteId: `r${n}`,
        parentRemoteId: parentId(path),
        path,
        name,
        kind,
        eTag: 'e',
        size: 1,
        mTimeMs: 1,
        inode: next() < 0.9 ? `i${n}` : null,
        localSize: 1,
        localMtimeNs: 1n,
        contentHash: null,
      });
    }
    const localPath = elsewhere(path);
    if (next() < 0.8 && !localPaths.has(localPath)) {
      localPaths.add(localPath);
      const inode = next() < 0.85 ? `i${n}` : `i${Math.floor(next() * count)}`;
      local.push({ path: localPath, kind, inode, size: next() < 0.9 ? 1 : 2, mtimeNs: 1n });
    }
    if (next() < 0.8) {
      const remotePath = elsewhere(path);
      const remoteName = remotePath.slice(remotePath.lastIndexOf('/') + 1);
      remote.push({
        id: next() < 0.9 ? `r${n}` : `new${n}`,
        parentId: parentId(remotePath),
        path: remotePath,
        name: remoteName,
        kind,
        eTag: 'e',
        size: 1,
        mTimeMs: next() < 0.9 ? 1 : 2,
      });
    }
  });
  const depth = (path: string): number => path.split('/').length;
  const error = new ApiError('NOT_FOUND', 'Not found', 'gone');
  const folderPaths = folders.filter((path) => path !== '');
  return {
    rows,
    local: local.sort((a, b) => depth(a.path) - depth(b.path)),
    remote: remote
      .filter((entry, at) => remote.findIndex((other) => other.id === entry.id) === at)
      .sort((a, b) => depth(a.path) - depth(b.path)),
    skipped:
      next() < 0.2 && paths.length > 0 ? [{ path: pick(paths).path, reason: 'ignored', detail: 'x' }] : [],
    vanished: next() < 0.15 && folderPaths.length > 0 ? [{ id: 'gone', path: pick(folderPaths), error }] : [],
    rejected:
      next() < 0.15
        ? [{ folderId: ROOT, folderPath: '', id: `r${Math.floor(next() * count)}`, name: 'bad', error }]
        : [],
    // Now and then many roots, as a round around many differences has.
    roots: Array.from(
      { length: next() < 0.2 ? 17 + Math.floor(next() * 8) : 1 + Math.floor(next() * 3) },
      () =>
        next() < 0.85 && paths.length > 0
          ? elsewhere(pick(paths).path)
          : `${pick(folders)}/new`.replace(/^\//u, ''),
    ),
  };
}

/** Local names equal under NFC in one folder, as the scanner reports them. */
function clashesOf(local: readonly LocalEntry[]): NameClash[] {
  const groups = new Map<string, string[]>();
  for (const entry of local) {
    const key = nameKey(entry.path);
    groups.set(key, [...(groups.get(key) ?? []), entry.path]);
  }
  return [...groups.values()]
    .filter((paths) => paths.length > 1)
    .map((paths) => ({ folder: parentPath(paths[0] as string), paths, kind: 'unicode' }));
}

function inputsOf(w: World): { scan: ScanResult; walk: RemoteWalkResult } {
  return {
    scan: {
      root: 'ok',
      entries: w.local.map((entry) => ({ ...entry })),
      skipped: w.skipped,
      clashes: clashesOf(w.local),
      portability: [],
    },
    walk: walkOf(
      w.remote.map((entry) => ({ ...entry })),
      { vanished: w.vanished, rejected: w.rejected },
    ),
  };
}

/** Everything a round reads of its inputs, maps as their entries in order. */
function plain(inputs: PassInputs): unknown {
  const { input } = inputs;
  return {
    local: [...input.local.entries()],
    remote: [...input.remote.entries()],
    index: [...input.index.entries()],
    issues: inputs.issues,
    fromScan: inputs.fromScan,
    nameClashes: inputs.nameClashes,
  };
}

describe('scopedPassInputs', () => {
  const open: IndexDb[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  it('equals scopeInputs over every row, on 1,500 random trees, indexes, scans, walks and scopes', () => {
    let compared = 0;
    let withRows = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const w = world(seed);
      const db = openIndexDb(':memory:');
      open.push(db);
      const store = new IndexStore(db);
      store.upsertMany(w.rows);
      const scope = new PassScope(w.roots);
      const whole = inputsOf(w);
      const expected = scopeInputs(passInputs(whole.scan, whole.walk, store.entries(), ROOT).input, scope);
      const all = passInputs(whole.scan, whole.walk, store.entries(), ROOT);
      const scoped = inputsOf(w);
      const actual = scopedPassInputs(scoped.scan, scoped.walk, store, ROOT, scope);
      expect(plain(actual), `seed ${seed}, roots ${JSON.stringify(w.roots)}`).toEqual(
        plain({ ...all, input: expected }),
      );
      compared += 1;
      if (expected.index.size > 0 && expected.index.size < w.rows.length) withRows += 1;
      db.close();
      open.pop();
    }
    expect(compared).toBe(1500);
    // The scopes cut: most worlds keep some rows and leave others out.
    expect(withRows).toBeGreaterThan(500);
  });

  it('reads the rows around the scope in the index order, NFC or not, and no others', () => {
    const db = openIndexDb(':memory:');
    open.push(db);
    const store = new IndexStore(db);
    const paths = [
      'a',
      'a/x',
      'a/x/deep',
      'a.b',
      'a0',
      'b',
      'b/y',
      'cafe\u0301',
      'cafe\u0301/z',
      '\uE000',
      '\u{1F600}',
    ];
    store.upsertMany(
      paths.map((path, n) => ({
        remoteId: `r${n}`,
        parentRemoteId: ROOT,
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
        kind: 'folder',
        eTag: 'e',
        size: 0,
        mTimeMs: 1,
        inode: `i${n}`,
        localSize: 0,
        localMtimeNs: 1n,
        contentHash: null,
      })),
    );
    const around = (roots: string[]): string[] =>
      rowsAround(store, new PassScope(roots)).map((row) => row.path);
    expect(around(['a/x'])).toEqual(['a', 'a/x', 'a/x/deep']);
    expect(around(['caf\u00e9/z'])).toEqual(['cafe\u0301', 'cafe\u0301/z']);
    // A top-level root: every top-level row is beside it (SQLite's order: U+E000 before U+1F600).
    expect(around(['b/y', 'new'])).toEqual([
      'a',
      'a.b',
      'a0',
      'b',
      'b/y',
      'cafe\u0301',
      '\uE000',
      '\u{1F600}',
    ]);
    expect([...store.entries()].map((row) => row.path).filter((path) => !path.includes('/'))).toEqual([
      'a',
      'a.b',
      'a0',
      'b',
      'cafe\u0301',
      '\uE000',
      '\u{1F600}',
    ]);
  });
});
