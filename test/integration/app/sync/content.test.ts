// Content against the real device: exact times both ways, conflicts keep both, edits beat deletes, deletes go to the trash.
import { statSync, utimesSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { files, type PairOptions, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

const NOW = new Date('2026-03-04T05:06:07.890Z');
const CONFLICT_SUFFIX = '(conflicted copy 2026-03-04 050607)';

function makePair(newPair: NewPair, options: PairOptions = {}): SyncPair {
  const pair = newPair({ ...options, engine: { now: () => NOW, ...options.engine } });
  return pair;
}

async function syncedPair(
  newPair: NewPair,
  texts: Record<string, string>,
  engine: PairOptions['engine'] = {},
): Promise<SyncPair> {
  const pair = makePair(newPair, { engine });
  for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
  expectSynced(await pair.sync());
  return pair;
}

/** A local edit the scanner cannot miss: other bytes, other size, another mtime. */
function editLocal(pair: SyncPair, path: string, text: string): void {
  pair.writeLocal(path, text, Date.parse('2026-02-01T00:00:00.000Z'));
}

describe('modification times', () => {
  it('keeps the mtime to the millisecond on upload, on download elsewhere, and a round trip is no edit', async ({
    newPair,
  }) => {
    // .500 is exact in a double, so the file system holds exactly this many nanoseconds.
    const mtimeMs = Date.parse('2025-01-02T03:04:05.500Z');
    const first = makePair(newPair);
    first.writeLocal('a.txt', 'alpha', mtimeMs);
    expectSynced(await first.sync());
    expect((await first.remoteAt('a.txt'))?.mTimeMs).toBe(mtimeMs);

    const second = makePair(newPair, { remoteFolder: first.remoteFolder });
    const down = await second.syncCounting();
    expect(down.report.counts.downloaded).toBe(1);
    expect(statSync(second.local('a.txt')).mtimeMs).toBe(mtimeMs);

    for (const pair of [first, second, first, second]) {
      const { writes, report } = await pair.syncCounting();
      expect(writes).toEqual([]);
      expect(report.counts.uploaded + report.counts.downloaded).toBe(0);
    }
  });

  it('uploads a millisecond mtime set through a double (05.678 stored as 05.677999 s) as .678', async ({
    newPair,
  }) => {
    // Node's utimes (and every API taking seconds as a double) lands a hair below most millisecond values.
    const mtimeMs = Date.parse('2025-01-02T03:04:05.678Z');
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha', mtimeMs);
    expectSynced(await pair.sync());
    expect((await pair.remoteAt('a.txt'))?.mTimeMs).toBe(mtimeMs);
  });

  it('does not read a local mtime finer than a millisecond as an edit after the device rounded it', async ({
    newPair,
  }) => {
    const pair = makePair(newPair);
    pair.writeLocal('fine.txt', 'fine');
    // 2025-01-02T03:04:05.6789Z: a fraction of a millisecond the device cannot keep.
    const seconds = Date.parse('2025-01-02T03:04:05.678Z') / 1000 + 0.000_9;
    utimesSync(pair.local('fine.txt'), seconds, seconds);
    expectSynced(await pair.sync());
    const remoteMs = (await pair.remoteAt('fine.txt'))?.mTimeMs ?? 0;
    expect(Math.abs(remoteMs - seconds * 1000)).toBeLessThan(1);
    const { writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
  });

  it('gives a remote file its device mtime when it comes down', async ({ newPair }) => {
    const pair = makePair(newPair);
    const mTimeMs = Date.parse('2024-06-07T08:09:10.111Z');
    await pair.writeRemote('remote.txt', 'from elsewhere', mTimeMs);
    expect((await pair.sync()).counts.downloaded).toBe(1);
    expect(statSync(pair.local('remote.txt')).mtimeMs).toBe(mTimeMs);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });
});

describe('conflicts', () => {
  it('keeps both edits: the remote version keeps the name, the local one becomes a conflicted copy on both sides', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'report.txt': 'v1' });
    editLocal(pair, 'report.txt', 'local edit');
    await pair.writeRemote('report.txt', 'remote edit');
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.conflicts).toBe(1);
    const expected = files({ 'report.txt': 'remote edit', [`report ${CONFLICT_SUFFIX}.txt`]: 'local edit' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
  });
});

describe('edits beat deletes', () => {
  it('uploads a local edit of a file deleted on the device', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'v1', 'b.txt': 'keep' });
    editLocal(pair, 'a.txt', 'edited here');
    await pair.removeRemote('a.txt');
    expectSynced(await pair.sync());
    const expected = files({ 'a.txt': 'edited here', 'b.txt': 'keep' });
    expect(await pair.remoteTree()).toEqual(expected);
    expect(pair.localTree()).toEqual(expected);
  });

  it('downloads a remote edit of a file deleted here', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'v1', 'b.txt': 'keep' });
    pair.removeLocal('a.txt');
    await pair.writeRemote('a.txt', 'edited on the device');
    expectSynced(await pair.sync());
    const expected = files({ 'a.txt': 'edited on the device', 'b.txt': 'keep' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
  });
});

describe('remote deletes', () => {
  it('keeps the local file as a version, never unlinking it', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'precious', 'b.txt': 'keep' });
    await pair.removeRemote('a.txt');
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.deleted).toBe(1);
    expect(pair.localTree()).toEqual(files({ 'b.txt': 'keep' }));
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'precious' } });
    expect(pair.keptReasons('a.txt')).toEqual(['deleted']);
    expect(pair.trashed()).toEqual({});
  });

  it('with versions off, moves the local file to the trash, never unlinking it', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'precious', 'b.txt': 'keep' }, { versions: 'off' });
    await pair.removeRemote('a.txt');
    const report = await pair.sync();
    expectSynced(report);
    expect(pair.localTree()).toEqual(files({ 'b.txt': 'keep' }));
    expect(Object.values(pair.trashed())).toContainEqual({ kind: 'file', text: 'precious' });
    expect(pair.kept()).toEqual({});
  });

  it('keeps never-synced local files of a folder deleted on the device, and the folder with them', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'docs/a.txt': 'synced', 'other.txt': 'keep' });
    pair.writeLocal('docs/new.txt', 'never synced');
    await pair.removeRemote('docs');
    expectSynced(await pair.sync());
    const expected = files({ 'docs/new.txt': 'never synced', 'other.txt': 'keep' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
    expect(pair.kept()).toEqual({ 'docs/a.txt': { kind: 'file', text: 'synced' } });
  });

  it('deletes on the device what was deleted here', async ({ newPair }) => {
    const pair = await syncedPair(newPair, {
      'a.txt': 'gone soon',
      'docs/b.txt': 'gone too',
      'c.txt': 'keep',
    });
    pair.removeLocal('a.txt');
    pair.removeLocal('docs');
    const { report, writes } = await pair.syncCounting();
    expect(report.counts.deleted).toBeGreaterThanOrEqual(2);
    expect(writes.every((write) => write.startsWith('DELETE '))).toBe(true);
    await expectRemoteFiles(pair, { 'c.txt': 'keep' });
  });
});

describe('type changes', () => {
  it('replaces a remote file with the folder that replaced it here', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { thing: 'a file', 'other.txt': 'keep' });
    pair.removeLocal('thing');
    pair.writeLocal('thing/inside.txt', 'now a folder');
    expectSynced(await pair.sync());
    const expected = files({ 'thing/inside.txt': 'now a folder', 'other.txt': 'keep' });
    expect(await pair.remoteTree()).toEqual(expected);
    expect(pair.localTree()).toEqual(expected);
  });

  it('replaces a local folder with the file that replaced it on the device, the folder kept as a version', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'thing/inside.txt': 'in a folder', 'other.txt': 'keep' });
    await pair.removeRemote('thing');
    await pair.writeRemote('thing', 'now a file');
    expectSynced(await pair.sync());
    const expected = files({ thing: 'now a file', 'other.txt': 'keep' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
    expect(pair.kept()).toEqual({ 'thing/inside.txt': { kind: 'file', text: 'in a folder' } });
    expect(pair.keptReasons('thing/inside.txt')).toEqual(['replaced']);
  });

  it('replaces a folder made again here under its NFC spelling with the file the device moved there, its NFD row removed (seed 3680)', async ({
    newPair,
  }) => {
    const nfd = 're\u0301sume\u0301';
    const nfc = 'r\u00e9sum\u00e9';
    const pair = makePair(newPair);
    pair.mkdirLocal(`${nfd}/d`);
    expectSynced(await pair.sync());
    // Made while the old folder is still there, the new one cannot get its inode: it pairs by path.
    pair.mkdirLocal(nfc);
    pair.removeLocal(nfd);
    await pair.removeRemote(nfd);
    await pair.writeRemote(nfd, 'now a file');
    await pair.moveRemote(nfd, nfc);
    expectSynced(await pair.sync());
    const expected = files({ [nfc]: 'now a file' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
    // One row, the file's: the folder's row went with the folder, though its path is the NFD spelling.
    expect([...pair.index.entries()].map((row) => [row.path, row.kind])).toEqual([[nfc, 'file']]);
    const again = await pair.sync();
    expectSynced(again);
    expect(again.operations).toEqual({});
  });

  it('keeps the row of a file edited here and moved out of a folder the same way on both sides, the device turning the folder into a file (seed 9570)', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'thing/a.txt': 'in a folder' });
    const id = await pair.remoteId('thing/a.txt');
    editLocal(pair, 'thing/a.txt', 'edited here, then moved out');
    pair.renameLocal('thing/a.txt', 'a.txt');
    await pair.moveRemote('thing/a.txt', 'a.txt');
    await pair.removeRemote('thing');
    await pair.writeRemote('thing', 'now a file');
    const report = await pair.sync();
    expectSynced(report);
    const expected = files({ 'a.txt': 'edited here, then moved out', thing: 'now a file' });
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
    // The empty folder's trash ran before the upload, whose row was still below it: parked, not removed.
    const rows = [...pair.index.entries()].map((row) => [row.path, row.kind, row.remoteId === id]);
    expect(rows).toEqual([
      ['a.txt', 'file', true],
      ['thing', 'file', false],
    ]);
    const again = await pair.sync();
    expectSynced(again);
    expect(again.operations).toEqual({});
  });
});
