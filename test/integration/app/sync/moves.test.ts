// Renames and moves against the real device cost one request (or none), never a transfer; unchanged passes write nothing.
import { statSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { files, isTransfer, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

async function syncedPair(newPair: NewPair, texts: Record<string, string>): Promise<SyncPair> {
  const pair = newPair();
  for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
  const first = await pair.sync();
  expect(first.issues).toEqual([]);
  expectSynced(first);
  return pair;
}

describe('local renames and moves', () => {
  it('costs exactly one PATCH and no upload, download or delete for a file rename', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'alpha', 'docs/b.txt': 'beta' });
    const id = await pair.remoteId('a.txt');
    pair.renameLocal('a.txt', 'renamed.txt');
    const { report, writes } = await pair.syncCounting();
    expect(writes).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expectSynced(report);
    expect(report.counts).toMatchObject({ renamed: 1, uploaded: 0, downloaded: 0, deleted: 0 });
    await expectRemoteFiles(pair, { 'renamed.txt': 'alpha', 'docs/b.txt': 'beta' });
    expect(await pair.remoteId('renamed.txt')).toBe(id);
  });

  it('costs exactly one PATCH for a file moved into another folder', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'alpha', 'docs/b.txt': 'beta' });
    const id = await pair.remoteId('a.txt');
    pair.renameLocal('a.txt', 'docs/a.txt');
    const { report, writes } = await pair.syncCounting();
    expect(writes).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expect(report.counts.moved).toBe(1);
    await expectRemoteFiles(pair, { 'docs/a.txt': 'alpha', 'docs/b.txt': 'beta' });
  });

  it('costs exactly one PATCH for a folder of 300 files moved into another folder', async ({ newPair }) => {
    const texts: Record<string, string> = { 'archive/readme.txt': 'archive' };
    for (let i = 0; i < 300; i += 1) texts[`big/f${i}.txt`] = `file ${i}`;
    const pair = await syncedPair(newPair, texts);
    const id = await pair.remoteId('big');
    pair.renameLocal('big', 'archive/big');
    const { report, writes } = await pair.syncCounting();
    expect(writes).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expectSynced(report);
    const moved = Object.fromEntries(
      Object.entries(texts).map(([path, text]) => [path.replace(/^big/, 'archive/big'), text]),
    );
    expect(await pair.remoteTree()).toEqual(files(moved));
  });

  it('costs exactly one PATCH for a case-only rename', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'Readme.txt': 'read me' });
    const id = await pair.remoteId('Readme.txt');
    pair.renameLocal('Readme.txt', 'README.txt');
    const { writes } = await pair.syncCounting();
    expect(writes).toEqual([`PATCH /sdk/v2/files/${id}`]);
    await expectRemoteFiles(pair, { 'README.txt': 'read me' });
  });
});

describe('remote renames and moves', () => {
  it('after its own renames and moves, a pass trusting its cache lists no folder again', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, {
      'a.txt': 'alpha',
      'docs/b.txt': 'beta',
      'archive/c.txt': 'gamma',
    });
    // The first pass made every folder, so the next one lists them: from then on the cache is whole.
    await pair.sync();
    const a = await pair.remoteId('a.txt');
    const b = await pair.remoteId('docs/b.txt');
    const trusting = (...scope: string[]) => pair.syncCounting({ remote: 'trust-cache', scope });
    pair.renameLocal('a.txt', 'a2.txt');
    expect((await trusting('a.txt', 'a2.txt')).requests).toEqual([`PATCH /sdk/v2/files/${a}`]);
    pair.renameLocal('docs/b.txt', 'archive/b.txt');
    expect((await trusting('docs/b.txt', 'archive/b.txt')).requests).toEqual([`PATCH /sdk/v2/files/${b}`]);
    // The root's cached listing knows a2.txt by its new name and eTag: the next rename goes straight out.
    pair.renameLocal('a2.txt', 'a3.txt');
    const third = await trusting('a2.txt', 'a3.txt');
    expect(third.requests).toEqual([`PATCH /sdk/v2/files/${a}`]);
    expect(third.report.issues).toEqual([]);
    // A revalidating pass lists the changed folders again (their listing ETags moved on) and finds
    // both sides equal.
    const check = await pair.syncCounting();
    expect(check.writes).toEqual([]);
    expect(check.report.issues).toEqual([]);
    const expected = files({ 'a3.txt': 'alpha', 'archive/b.txt': 'beta', 'archive/c.txt': 'gamma' });
    expect(await pair.remoteTree()).toEqual({ ...expected, docs: { kind: 'folder' } });
    expect(pair.localTree()).toEqual({ ...expected, docs: { kind: 'folder' } });
  });

  it('renames the local file in place: no download, same inode, no write to the device', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'alpha', 'docs/b.txt': 'beta' });
    const inode = statSync(pair.local('a.txt')).ino;
    await pair.moveRemote('a.txt', 'docs/renamed.txt');
    const { report, requests, writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expect(requests.filter(isTransfer)).toEqual([]);
    expect(report.counts.moved + report.counts.renamed).toBe(1);
    expect(pair.localTree()).toEqual(files({ 'docs/renamed.txt': 'alpha', 'docs/b.txt': 'beta' }));
    expect(statSync(pair.local('docs/renamed.txt')).ino).toBe(inode);
  });

  it('renames a remote folder locally as one rename, keeping the inodes of what it holds', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'docs/a.txt': 'alpha', 'docs/deep/b.txt': 'beta' });
    const inode = statSync(pair.local('docs/deep/b.txt')).ino;
    await pair.moveRemote('docs', 'papers');
    const { requests, writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expect(requests.filter(isTransfer)).toEqual([]);
    expect(pair.localTree()).toEqual(files({ 'papers/a.txt': 'alpha', 'papers/deep/b.txt': 'beta' }));
    expect(statSync(pair.local('papers/deep/b.txt')).ino).toBe(inode);
  });
});

describe('passes with nothing to do', () => {
  it('writes nothing and transfers no content when nothing changed', async ({ newPair }) => {
    const pair = await syncedPair(newPair, {
      'a.txt': 'alpha',
      'docs/b.txt': 'beta',
      'docs/deep/c.txt': 'gamma',
    });
    const { report, requests, writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expect(requests.filter(isTransfer)).toEqual([]);
    expectSynced(report);
    expect(report.counts).toMatchObject({ uploaded: 0, downloaded: 0, renamed: 0, moved: 0, deleted: 0 });
  });

  it('after a restart, asks for every folder with its stored listing ETag: one 304 each', async ({
    newPair,
  }) => {
    const pair = newPair({ indexFile: true });
    pair.writeLocal('a.txt', 'alpha');
    pair.writeLocal('docs/b.txt', 'beta');
    pair.writeLocal('docs/deep/c.txt', 'gamma');
    expectSynced(await pair.sync());
    // The first pass changed the folders it uploaded into: the pass after it lists them afresh.
    expectSynced(await pair.sync());
    pair.restart();
    const listings = (): number[] =>
      pair.client.log
        .filter((entry) => entry.message === 'answer' && entry.request.includes('/filesSearch/parents'))
        .map((entry) => entry.status ?? 0);
    const before = listings().length;
    const { report, writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expectSynced(report);
    // The remote root, docs and docs/deep.
    expect(listings().slice(before)).toEqual([304, 304, 304]);
  });

  it('after a restart, a folder changed on the device is listed in full and its change synced', async ({
    newPair,
  }) => {
    const pair = newPair({ indexFile: true });
    pair.writeLocal('docs/b.txt', 'beta');
    expectSynced(await pair.sync());
    expectSynced(await pair.sync());
    pair.restart();
    await pair.moveRemote('docs/b.txt', 'docs/renamed.txt');
    const { report, writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expect(report.counts.renamed).toBe(1);
    expect(pair.localTree()).toEqual(files({ 'docs/renamed.txt': 'beta' }));
  });

  it('reads a name that differs only in Unicode normalisation (NFC vs NFD) as no change', async ({
    newPair,
  }) => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    const pair = await syncedPair(newPair, { [nfc]: 'coffee' });
    // What macOS does to names: the same file now reads back decomposed.
    pair.renameLocal(nfc, nfd);
    const { writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
    expect(Object.keys(await pair.remoteTree())).toEqual([nfc]);
    const again = await pair.syncCounting();
    expect(again.writes).toEqual([]);
  });
});
