// A whole pass that finds a few items differing plans only around them, ends as a whole pass would, and the next is quiet.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import type { PassReport } from '../../../../app/sync/pass-report.ts';
import { META_SETTLED } from '../../../../app/index/meta-keys.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { atDownload, stoppablePair } from '../../../helpers/stoppable-pair.ts';
import { startDeviceProxy, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectLocalText, expectSynced, expectTreesEqual } from '../../../helpers/expect-sync.ts';

const proxies: HostileServer[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

type Way = 'quiet' | 'around' | 'unchanged listings' | 'unchanged, no record' | 'whole';

/** Which way the pass's first round went, by its log. */
function wayOf(pair: SyncPair): Way {
  const said = (text: string): boolean => pair.logLines.some((line) => line.message.includes(text));
  if (said('nothing changed on either side')) return 'quiet';
  if (said('planned around')) return 'around';
  if (said('the listings the device changed hold what the index has')) return 'unchanged listings';
  if (said('with no settled record, both sides still hold what the index has')) return 'unchanged, no record';
  return 'whole';
}

/** One pass in a new engine on the same index (as `run --once` makes one). */
async function pass(pair: SyncPair): Promise<{ way: Way; report: PassReport; writes: string[] }> {
  pair.restart();
  pair.logLines.length = 0;
  const { report, writes } = await pair.syncCounting();
  return { way: wayOf(pair), report, writes };
}

/** A pair synced with a small tree, until a pass is quiet. */
async function syncedPair(newPair: NewPair): Promise<SyncPair> {
  const pair = newPair({ indexFile: true });
  pair.writeLocal('a.txt', 'alpha');
  pair.writeLocal('docs/b.txt', 'bravo');
  pair.writeLocal('docs/deep/c.txt', 'charlie');
  pair.writeLocal('photos/2024/p.jpg', 'jpeg');
  pair.mkdirLocal('empty');
  expectSynced(await pair.sync());
  await quietAgain(pair);
  return pair;
}

/** After a change: the pass that only sees the folders it wrote into listed again, then a quiet one. */
async function quietAgain(pair: SyncPair): Promise<void> {
  const relisting = await pass(pair);
  expect(relisting.writes).toEqual([]);
  expectSynced(relisting.report);
  expect(['quiet', 'unchanged listings', 'whole']).toContain(relisting.way);
  expect((await pass(pair)).way).toBe('quiet');
}

/** One change of each kind, on either side, made one after another to the tree of `syncedPair`. */
function changeSteps(pair: SyncPair): Array<[string, () => void | Promise<unknown>]> {
  return [
    ['an edit', () => pair.writeLocal('docs/deep/c.txt', 'CHARLIE')],
    ['a new file at the top', () => pair.writeLocal('new.txt', 'new')],
    ['a rename', () => pair.renameLocal('a.txt', 'a2.txt')],
    ['a move into another folder', () => pair.renameLocal('docs/b.txt', 'photos/2024/b.txt')],
    ['a folder renamed', () => pair.renameLocal('photos/2024', 'photos/2025')],
    ['a new folder with a file', () => pair.writeLocal('docs/fresh/f.txt', 'fresh')],
    ['a local delete', () => pair.removeLocal('new.txt')],
    ['a remote edit', () => pair.writeRemote('docs/deep/c.txt', 'from the device')],
    ['a remote move', () => pair.moveRemote('docs/deep/c.txt', 'empty/c.txt')],
    ['a remote folder made', () => pair.mkdirRemote('docs/deep/made')],
    ['a remote file added at the top', () => pair.writeRemote('top.txt', 'top')],
    ['a remote delete', () => pair.removeRemote('docs/fresh/f.txt')],
    [
      'changes on both sides at once',
      async () => {
        pair.writeLocal('a2.txt', 'edited here');
        await pair.writeRemote('photos/2025/p.jpg', 'edited there');
      },
    ],
  ];
}

describe('a whole pass that finds a few items differing', () => {
  it('plans only around each kind of change, on either side, with the same outcome', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    for (const [what, change] of changeSteps(pair)) {
      await change();
      const { way, report } = await pass(pair);
      expect(way, what).toBe('around');
      expect(report.status, what).toBe('synced');
      expect(pair.localTree(), what).toEqual(await pair.remoteTree());
      // The round settled: its record is written for the next pass, which has nothing to plan.
      expect(pair.index.getMeta(META_SETTLED), what).toBeDefined();
      await quietAgain(pair);
    }
    expectLocalText(pair, 'empty/c.txt', 'from the device');
    expectLocalText(pair, 'photos/2025/p.jpg', 'edited there');
  });

  it('plans over everything for an ignore file changed, or an issue standing', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    pair.writeLocal('docs/.mchignore', '*.log\n');
    expect((await pass(pair)).way).toBe('whole');
    await quietAgain(pair);
    writeFileSync(pair.local('docs/x.log'), 'ignored');
    // An ignored file is reported: with an issue standing, a change plans over everything.
    pair.writeLocal('a.txt', 'again');
    const { way, report } = await pass(pair);
    expect(way).toBe('whole');
    expect(report.issues.map((issue) => issue.path)).toContain('docs/x.log');
    expect(pair.localTree()).toMatchObject({ 'a.txt': { kind: 'file', text: 'again' } });
  });
});

describe('the pass after one that wrote into many folders', () => {
  it('compares the listings it gets again with the rows, and has nothing to plan', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    // More folders than the disk's side compares row by row (32): the device's side has no such limit.
    for (let n = 0; n < 40; n++) pair.writeLocal(`many/f${n}/x.txt`, `file ${n}`);
    expect((await pass(pair)).report.status).toBe('synced');
    const relisting = await pass(pair);
    expect(relisting.way).toBe('unchanged listings');
    expect(relisting.writes).toEqual([]);
    expect((await pass(pair)).way).toBe('quiet');
  });
});

describe('a whole pass with no settled record (the last pass wrote and did not settle)', () => {
  it('compares every folder with the index and plans only around what differs', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    for (const [what, change] of changeSteps(pair)) {
      await change();
      pair.index.deleteMeta(META_SETTLED);
      const { way, report } = await pass(pair);
      expect(way, what).toBe('around');
      expect(report.status, what).toBe('synced');
      expect(pair.localTree(), what).toEqual(await pair.remoteTree());
      expect(pair.index.getMeta(META_SETTLED), what).toBeDefined();
      await quietAgain(pair);
    }
    // Nothing differs: no plan, and the record is written again.
    pair.index.deleteMeta(META_SETTLED);
    expect((await pass(pair)).way).toBe('unchanged, no record');
    expect(pair.index.getMeta(META_SETTLED)).toBeDefined();
    expect((await pass(pair)).way).toBe('quiet');
  });

  it('finds a device change whose listing a stopped pass already kept (a 304 for the next walk)', async ({
    device,
  }) => {
    // The stopped pass walks (and keeps the new listing of docs/deep), then stops at the download.
    const { pair, proxy, stopSignal } = await stoppablePair(device, atDownload);
    proxies.push(proxy);
    pair.writeLocal('docs/deep/c.txt', 'charlie');
    pair.writeLocal('docs/other.txt', 'other');
    expectSynced(await pair.sync());
    await quietAgain(pair);
    await pair.writeRemote('docs/deep/c.txt', 'CHARLIE');
    await expect(pair.sync({ signal: stopSignal() })).rejects.toThrow();
    expect(pair.index.getMeta(META_SETTLED)).toBeUndefined();
    const { way, report } = await pass(pair);
    expect(way).toBe('around');
    expectSynced(report);
    expectLocalText(pair, 'docs/deep/c.txt', 'CHARLIE');
    await expectTreesEqual(pair);
    await quietAgain(pair);
  });

  it('plans around a hundred differences in forty folders, on both sides', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    for (let f = 0; f < 40; f++) for (let n = 0; n < 3; n++) pair.writeLocal(`d${f}/f${n}.txt`, `${f}.${n}`);
    expect((await pass(pair)).report.status).toBe('synced');
    await quietAgain(pair);
    for (let f = 0; f < 40; f++) pair.writeLocal(`d${f}/f0.txt`, `edited ${f}`);
    for (let f = 0; f < 40; f++) pair.writeLocal(`d${f}/new.txt`, `new ${f}`);
    for (let f = 0; f < 20; f++) await pair.writeRemote(`d${f}/f1.txt`, `from the device ${f}`);
    pair.index.deleteMeta(META_SETTLED);
    const { way, report } = await pass(pair);
    expect(way).toBe('around');
    expectSynced(report);
    await expectTreesEqual(pair);
    expectLocalText(pair, 'd7/f1.txt', 'from the device 7');
    await quietAgain(pair);
  });

  it('plans over everything when too many items differ', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    // Each a difference of its own (more than 1,024; a new folder with them all in it would be one).
    for (let n = 0; n < 1030; n++) pair.writeLocal(`f${n}.txt`, `${n}`);
    await pair.writeRemote('docs/b.txt', 'changed there');
    pair.index.deleteMeta(META_SETTLED);
    const { way, report } = await pass(pair);
    expect(way).toBe('whole');
    expectSynced(report);
    await expectTreesEqual(pair);
    await quietAgain(pair);
  });
});

describe('a file moved here out of a folder deleted on both sides, its upload refused once', () => {
  it('is found by the next pass at its row under the gone folder, which does not outlive it', async ({
    device,
    newPair,
  }) => {
    let refusing = false;
    const proxy = await startDeviceProxy(device.base, {
      refuse: (request) =>
        refusing && request.method === 'POST' && request.url.startsWith('/sdk/v2/files')
          ? { status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'Refused once by the test.' } }
          : undefined,
    });
    proxies.push(proxy);
    const pair = newPair({ indexFile: true, deviceUrl: proxy.base });
    pair.writeLocal('gone/x.txt', 'x');
    pair.writeLocal('kept/k.txt', 'k');
    expectSynced(await pair.sync());
    await quietAgain(pair);
    // Moved out here, its folder deleted on both sides: its row waits for its upload to take its place,
    // the folder's row goes. The upload is refused: the row stays below a folder no side has.
    pair.renameLocal('gone/x.txt', 'kept/x.txt');
    pair.removeLocal('gone');
    await pair.removeRemote('gone');
    refusing = true;
    expect((await pass(pair)).report.status).toBe('errors');
    refusing = false;
    // No settled record: the next pass plans around what differs, and x.txt's row is among it (as a
    // whole pass finds it by its inode), not left behind for every pass after.
    const { way, report } = await pass(pair);
    expect(way).toBe('around');
    expectSynced(report);
    await expectTreesEqual(pair);
    expect([...pair.index.entries()].map((row) => row.path).sort()).toEqual([
      'kept',
      'kept/k.txt',
      'kept/x.txt',
    ]);
    await quietAgain(pair);
  });
});
