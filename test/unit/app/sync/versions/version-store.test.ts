// The versions folder on a real disk: a link before a replace, a move for a delete, and what recovery makes of a keep a crash left half done.
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import { VersionStore } from '../../../../../app/sync/versions/version-store.ts';

let root: string;
let db: IndexDb;
let index: IndexStore;
let store: VersionStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-versions-'));
  db = openIndexDb(':memory:');
  index = new IndexStore(db);
  store = new VersionStore(root, index.versions);
});

afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

const file = { size: 3, mTimeMs: 1, remoteId: 'id', contentHash: null };
const inodeOf = (path: string): string => statSync(join(root, path), { bigint: true }).ino.toString();

describe('keeping', () => {
  it('links a file before it is replaced: kept once confirmed, gone when abandoned', async () => {
    writeFileSync(join(root, 'a.txt'), 'old');
    const keep = await store.linkBeforeReplace('a.txt', { inode: inodeOf('a.txt') }, file, 'replaced');
    writeFileSync(join(root, 'new'), 'new');
    renameSync(join(root, 'new'), join(root, 'a.txt'));
    keep!.confirm();
    const [row] = index.versions.ofPath('a.txt');
    expect(readFileSync(store.blobPath(row!.blob), 'utf8')).toBe('old');

    writeFileSync(join(root, 'b.txt'), 'stays');
    const abandoned = await store.linkBeforeReplace('b.txt', { inode: inodeOf('b.txt') }, file, 'replaced');
    await abandoned!.abandon();
    expect(index.versions.ofPath('b.txt')).toEqual([]);
    expect(index.versions.pending()).toEqual([]);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('stays');
  });

  it('moves a folder in with a row per file, and says false for nothing there', async () => {
    mkdirSync(join(root, 'docs', 'sub'), { recursive: true });
    writeFileSync(join(root, 'docs', 'a.txt'), 'alpha');
    writeFileSync(join(root, 'docs', 'sub', 'b.txt'), 'beta');
    expect(await store.moveIn('docs', 'deleted')).toBe(true);
    expect(existsSync(join(root, 'docs'))).toBe(false);
    const rows = index.versions.deleted('', 0);
    expect(rows.map((row) => row.path).sort()).toEqual(['docs/a.txt', 'docs/sub/b.txt']);
    for (const row of rows) expect(existsSync(store.blobPath(row.blob))).toBe(true);
    expect(await store.moveIn('missing', 'deleted')).toBe(false);
    expect(index.versions.pending()).toEqual([]);
  });

  it('removes a version, and its keep folder once empty', async () => {
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'a.txt'), 'alpha');
    await store.moveIn('docs', 'deleted');
    const [row] = index.versions.ofPath('docs/a.txt');
    await store.remove(row!);
    expect(index.versions.usage()).toEqual({ count: 0, bytes: 0 });
    expect(existsSync(store.blobPath(row!.blob.split('/')[0]!))).toBe(false);
  });
});

describe('recovery of a keep a crash left pending', () => {
  it('drops a link whose replace never happened (the same file still at the path)', async () => {
    writeFileSync(join(root, 'a.txt'), 'old');
    index.versions.add({
      path: 'a.txt',
      blob: 'k1',
      reason: 'replaced',
      size: 3,
      mTimeMs: 1,
      keptAtMs: 1,
      state: 'pending',
      inode: inodeOf('a.txt'),
      remoteId: null,
      contentHash: null,
    });
    mkdirSync(store.folder(), { recursive: true });
    linkSync(join(root, 'a.txt'), store.blobPath('k1'));
    await store.recoverPending();
    expect(index.versions.usage().count).toBe(0);
    expect(existsSync(store.blobPath('k1'))).toBe(false);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old');
  });

  it('keeps a link whose replace happened (another file at the path now)', async () => {
    writeFileSync(join(root, 'a.txt'), 'old');
    const inode = inodeOf('a.txt');
    index.versions.add({
      path: 'a.txt',
      blob: 'k1',
      reason: 'replaced',
      size: 3,
      mTimeMs: 1,
      keptAtMs: 1,
      state: 'pending',
      inode,
      remoteId: null,
      contentHash: null,
    });
    mkdirSync(store.folder(), { recursive: true });
    linkSync(join(root, 'a.txt'), store.blobPath('k1'));
    writeFileSync(join(root, 'new'), 'new');
    renameSync(join(root, 'new'), join(root, 'a.txt'));
    await store.recoverPending();
    expect(index.versions.ofPath('a.txt').map((row) => row.state)).toEqual(['kept']);
    expect(readFileSync(store.blobPath('k1'), 'utf8')).toBe('old');
  });

  it('records a move found in the store, file by file, and drops one never made', async () => {
    index.versions.add({
      path: 'docs',
      blob: 'k2',
      reason: 'deleted',
      size: 0,
      mTimeMs: 0,
      keptAtMs: 1,
      state: 'pending',
      inode: null,
      remoteId: null,
      contentHash: null,
    });
    index.versions.add({
      path: 'gone',
      blob: 'k3',
      reason: 'deleted',
      size: 0,
      mTimeMs: 0,
      keptAtMs: 1,
      state: 'pending',
      inode: null,
      remoteId: null,
      contentHash: null,
    });
    mkdirSync(join(store.folder(), 'k2'), { recursive: true });
    writeFileSync(join(store.folder(), 'k2', 'a.txt'), 'alpha');
    await store.recoverPending();
    expect(index.versions.deleted('', 0).map((row) => [row.path, row.blob])).toEqual([
      ['docs/a.txt', 'k2/a.txt'],
    ]);
    expect(index.versions.pending()).toEqual([]);
  });
});
