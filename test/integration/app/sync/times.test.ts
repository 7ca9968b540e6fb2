// Modification times against the real device: a change of time alone is synced both ways, and equal bytes never conflict.
import { statSync, utimesSync } from 'node:fs';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import type { HostileServer, SeenRequest } from '../../../helpers/hostile-server.ts';
import { files, startDeviceProxy, type PairOptions, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectRemoteFiles, expectSynced, expectTreesEqual } from '../../../helpers/expect-sync.ts';

const proxies: HostileServer[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

const NOW = new Date('2026-03-04T05:06:07.890Z');
const OLD = Date.parse('2021-05-06T07:08:09.000Z');
const OLDER = Date.parse('2019-01-02T03:04:05.000Z');

function makePair(newPair: NewPair, options: PairOptions = {}): SyncPair {
  const pair = newPair({ ...options, engine: { now: () => NOW, ...options.engine } });
  return pair;
}

/** `touch -d`: a new mtime, the same bytes. */
function touch(pair: SyncPair, path: string, mtimeMs: number): void {
  utimesSync(pair.local(path), new Date(mtimeMs), new Date(mtimeMs));
}

describe('a change of modification time alone', () => {
  it('goes up as one PATCH {mTime} with If-Match and no upload, and reaches a second computer', async ({
    device,
    newPair,
  }) => {
    const seen: { request: SeenRequest; body: string }[] = [];
    const proxy = await startDeviceProxy(device.base, {
      before: (request, body) => {
        seen.push({ request, body: body.toString('utf8') });
      },
    });
    proxies.push(proxy);
    const pair = makePair(newPair, { deviceUrl: proxy.base });
    pair.writeLocal('notes/f.txt', 'the same bytes');
    expectSynced(await pair.sync());
    const other = makePair(newPair, { remoteFolder: pair.remoteFolder });
    expectSynced(await other.sync());
    const id = await pair.remoteId('notes/f.txt');
    const before = await pair.remoteAt('notes/f.txt');

    touch(pair, 'notes/f.txt', OLD);
    seen.length = 0;
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes).toEqual([`PATCH /sdk/v2/files/${id}`]);
    const patch = seen.find((s) => s.request.method === 'PATCH');
    expect(patch?.request.headers['if-match']).toBe(before?.eTag);
    expect(JSON.parse(patch?.body ?? '{}')).toEqual({ mTime: '2021-05-06T07:08:09.000Z' });
    expect((await pair.remoteAt('notes/f.txt'))?.mTimeMs).toBe(OLD);
    expect((await pair.syncCounting()).writes).toEqual([]);

    // The other computer downloads the same bytes again (the device cannot say they are equal) and
    // takes the time; nothing conflicts and nothing goes back up.
    const second = await other.syncCounting();
    expectSynced(second.report);
    expect(second.report.counts.conflicts).toBe(0);
    expect(second.writes.filter((w) => !w.startsWith('GET '))).toEqual([]);
    expect(statSync(other.local('notes/f.txt')).mtimeMs).toBe(OLD);
    expect(other.localTree()).toEqual(files({ 'notes/f.txt': 'the same bytes' }));
    expect((await other.syncCounting()).writes).toEqual([]);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('reaches the local file when only the device changed it', async ({ newPair }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    await pair.other.patch(await pair.remoteId('a.txt'), { mTimeMs: OLD });
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.conflicts).toBe(0);
    expect(statSync(pair.local('a.txt')).mtimeMs).toBe(OLD);
    expect(pair.localTree()).toEqual(files({ 'a.txt': 'alpha' }));
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('on both sides, to different times, keeps one file with the device time and no conflicted copy', async ({
    newPair,
  }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    touch(pair, 'a.txt', OLDER);
    await pair.other.patch(await pair.remoteId('a.txt'), { mTimeMs: OLD });
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.conflicts).toBe(0);
    expect(pair.localTree()).toEqual(files({ 'a.txt': 'alpha' }));
    await expectRemoteFiles(pair, { 'a.txt': 'alpha' });
    expect(statSync(pair.local('a.txt')).mtimeMs).toBe(OLD);
    expect((await pair.remoteAt('a.txt'))?.mTimeMs).toBe(OLD);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('keeps a local edit when the device only changed the time (no conflict)', async ({ newPair }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    pair.writeLocal('a.txt', 'omega', OLDER);
    await pair.other.patch(await pair.remoteId('a.txt'), { mTimeMs: OLD });
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.conflicts).toBe(0);
    expect(pair.localTree()).toEqual(files({ 'a.txt': 'omega' }));
    await expectRemoteFiles(pair, { 'a.txt': 'omega' });
    expect((await pair.remoteAt('a.txt'))?.mTimeMs).toBe(OLDER);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('takes a device edit when the local file was only touched (no conflict)', async ({ newPair }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    touch(pair, 'a.txt', OLDER);
    await pair.writeRemote('a.txt', 'remote edit', OLD);
    const report = await pair.sync();
    expectSynced(report);
    expect(report.counts.conflicts).toBe(0);
    expect(pair.localTree()).toEqual(files({ 'a.txt': 'remote edit' }));
    await expectRemoteFiles(pair, { 'a.txt': 'remote edit' });
    expect(statSync(pair.local('a.txt')).mtimeMs).toBe(OLD);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('still keeps both when both sides really changed the bytes', async ({ newPair }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    pair.writeLocal('a.txt', 'local', OLDER);
    await pair.writeRemote('a.txt', 'remot', OLD);
    const report = await pair.sync();
    expect(report.counts.conflicts).toBe(1);
    expect(Object.keys(pair.localTree())).toHaveLength(2);
  });

  it('keeps both when both edits have one size and one time: the bytes are compared (soak seed 1251)', async ({
    newPair,
  }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    pair.writeLocal('a.txt', 'local', OLD);
    await pair.writeRemote('a.txt', 'remot', OLD);
    const report = await pair.sync();
    expect(report.counts.conflicts).toBe(1);
    const texts = Object.values(pair.localTree()).map((item) => (item.kind === 'file' ? item.text : ''));
    expect(texts.sort()).toEqual(['local', 'remot']);
    await expectTreesEqual(pair);
  });

  it('records equal bytes with one size and one time on both sides as agreed, with no copy', async ({
    newPair,
  }) => {
    const pair = makePair(newPair);
    pair.writeLocal('a.txt', 'alpha');
    expectSynced(await pair.sync());
    pair.writeLocal('a.txt', 'same!', OLD);
    await pair.writeRemote('a.txt', 'same!', OLD);
    const { report, writes } = await pair.syncCounting();
    expect(report.counts.conflicts).toBe(0);
    // The device's version is read once to compare; nothing is sent.
    expect(writes.filter((request) => !request.startsWith('GET '))).toEqual([]);
    expect(pair.localTree()).toEqual(files({ 'a.txt': 'same!' }));
  });
});
