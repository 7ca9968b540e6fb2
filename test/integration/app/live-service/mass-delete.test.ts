// The mass-delete guard on every path: folders deleted in bulk while the live service runs are held as a whole, as `run --once` holds them.
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewPair, type NewLivePair } from '../../../helpers/fixtures.ts';
import type { LocalDeletions } from '../../../../app/sync/engine-options.ts';
import type { LivePair } from '../../../helpers/live-pair.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import type { SyncPair } from '../../../helpers/sync-pair.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Three folders of 20 files and three files beside them: 66 items, 63 of them in the folders. */
function fill(write: (path: string, text: string) => void): void {
  for (const folder of ['a', 'b', 'c']) {
    for (let n = 0; n < 20; n++) write(`${folder}/f${n}.txt`, `${folder} ${n}`);
  }
  for (let n = 0; n < 3; n++) write(`top${n}.txt`, `top ${n}`);
}

async function livePair(newLivePair: NewLivePair): Promise<LivePair> {
  // A slow poll: every pass here is one the watcher asked for.
  const live = newLivePair({ pollMs: 60_000 });
  closers.push(() => live.close());
  fill((path, text) => live.pair.writeLocal(path, text));
  await live.start({ synced: true });
  return live;
}

const deletes = (requests: string[]): string[] => requests.filter((request) => request.startsWith('DELETE '));

describe('folders deleted in bulk while the live service runs', () => {
  it('rm -rf of three folders is held as 63 of 66 items, as run --once holds it; nothing is deleted', async ({
    newLivePair,
  }) => {
    const live = await livePair(newLivePair);
    const mark = live.mark();
    for (const folder of ['a', 'b', 'c']) rmSync(join(live.pair.localRoot, folder), { recursive: true });
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    const hold = live.live.hold();
    expect(hold?.reason).toBe('mass-delete');
    expect(hold?.deletes.remote).toBe(63);
    expect(hold?.deletes.remoteTotal).toBe(66);
    expect(deletes(live.requestsSince(mark))).toEqual([]);
    expect(Object.keys(await live.pair.remoteTree())).toHaveLength(66);
    // Confirmed, the deletes go.
    live.live.confirmDeletes();
    await live.waitUntilSynced('the confirmed deletes');
    expect(Object.keys(await live.pair.remoteTree())).toEqual(['top0.txt', 'top1.txt', 'top2.txt']);
  }, 120_000);

  it('folders deleted one by one, seconds apart, are held once the deletes together pass the guard', async ({
    newLivePair,
  }) => {
    const live = await livePair(newLivePair);
    const mark = live.mark();
    for (const folder of ['a', 'b', 'c']) {
      rmSync(join(live.pair.localRoot, folder), { recursive: true });
      // Long enough for each deletion to be a pass of its own.
      await waitFor('the pass of that delete', async () => {
        await live.live.whenIdle();
        return live.live.status().state !== 'scanning' && live.live.status().state !== 'syncing'
          ? true
          : undefined;
      });
      await sleep(1_500);
    }
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    const hold = live.live.hold();
    expect(hold?.reason).toBe('mass-delete');
    expect(hold?.advice).toContain('Just before');
    // What went before the guard tripped is at most what it lets through (50 items): the rest waits.
    const remote = Object.keys(await live.pair.remoteTree());
    expect(remote.length).toBeGreaterThanOrEqual(66 - 50);
    expect(remote.filter((path) => path.startsWith('c/'))).toHaveLength(20);
    expect(deletes(live.requestsSince(mark)).length).toBeLessThanOrEqual(50);
  }, 120_000);
});

describe('the deletes of passes just before count in run --once too', () => {
  it('a second pass within a minute that takes the deletes past the guard is held; a minute later it is not', async ({
    newPair,
  }) => {
    let nowMs = Date.parse('2026-11-27T10:00:00Z');
    const pair = newPair({ engine: { now: () => new Date(nowMs) } });
    closers.push(() => pair.close());
    fill((path, text) => pair.writeLocal(path, text));
    expectSynced(await pair.sync());
    pair.removeLocal('a');
    pair.removeLocal('b');
    const first = await pair.sync();
    expectSynced(first);
    nowMs += 30_000;
    pair.removeLocal('c');
    const second = await pair.sync();
    expect(second.hold?.reason).toBe('mass-delete');
    expect(second.hold?.advice).toContain('Just before, 42 items were deleted on the device');
    nowMs += 61_000;
    const later = await pair.sync();
    expectSynced(later);
    expect(Object.keys(await pair.remoteTree())).toEqual(['top0.txt', 'top1.txt', 'top2.txt']);
  });
});

describe('an rm -rf that goes on while a pass reads the disk', () => {
  /** The live service's word on deletions: the rest of the `rm -rf` comes while the pass runs. */
  function arriving(pair: SyncPair, later: string[]): LocalDeletions & { asked: number } {
    const deletions = {
      asked: 0,
      mark: () => 0,
      arrivedSince: () => {
        deletions.asked += 1;
        if (deletions.asked > 1 || later.length === 0) return Promise.resolve(false);
        for (const path of later) pair.removeLocal(path);
        return Promise.resolve(true);
      },
    };
    return deletions;
  }

  it('is planned again over the whole folder before anything is deleted, and held as a whole', async ({
    newPair,
  }) => {
    const pair = newPair();
    closers.push(() => pair.close());
    fill((path, text) => pair.writeLocal(path, text));
    expectSynced(await pair.sync());
    const before = await pair.remoteTree();
    // The scan sees `a` gone (21 items, under the guard); `b` and `c` go before its deletes are sent.
    pair.removeLocal('a');
    const deletions = arriving(pair, ['b', 'c']);
    const report = await pair.sync({ deletions });
    expect(report.hold?.reason).toBe('mass-delete');
    expect(report.hold?.deletes.remote).toBe(63);
    expect(deletions.asked).toBe(1);
    expect(await pair.remoteTree()).toEqual(before);
  });

  it('goes ahead when no deletion came meanwhile', async ({ newPair }) => {
    const pair = newPair();
    closers.push(() => pair.close());
    fill((path, text) => pair.writeLocal(path, text));
    expectSynced(await pair.sync());
    pair.removeLocal('a');
    const report = await pair.sync({ deletions: arriving(pair, []) });
    expectSynced(report);
    expect(report.counts.deleted).toBe(21);
  });
});

describe('restore answers a held mass delete, in both directions', () => {
  async function syncedPair(newPair: NewPair): Promise<SyncPair> {
    const pair = newPair();
    closers.push(() => pair.close());
    fill((path, text) => pair.writeLocal(path, text));
    expectSynced(await pair.sync());
    return pair;
  }

  it('folders deleted here come back from the device; nothing is deleted there', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const before = pair.localTree();
    for (const folder of ['a', 'b', 'c']) pair.removeLocal(folder);
    expect((await pair.sync()).hold?.reason).toBe('mass-delete');
    const { report, writes } = await pair.syncCounting({ restore: true });
    expectSynced(report);
    expect(writes.filter((request) => !request.startsWith('GET '))).toEqual([]);
    expect(pair.localTree()).toEqual(before);
    expect(await pair.remoteTree()).toEqual(before);
  });

  it('folders deleted on the device go up again from here; nothing goes to the trash', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair);
    const before = pair.localTree();
    for (const folder of ['a', 'b', 'c']) await pair.other.delete(await pair.remoteId(folder));
    const held = await pair.sync();
    expect(held.hold?.reason).toBe('mass-delete');
    expect(held.hold?.deletes.local).toBe(63);
    const report = await pair.sync({ restore: true });
    expectSynced(report);
    expect(report.counts.deleted).toBe(0);
    expect(pair.trashed()).toEqual({});
    expect(await pair.remoteTree()).toEqual(before);
    expect(pair.localTree()).toEqual(before);
  });

  it('live: "restore" brings back folders removed with rm -rf', async ({ newLivePair }) => {
    const live = await livePair(newLivePair);
    const before = live.pair.localTree();
    for (const folder of ['a', 'b', 'c']) rmSync(join(live.pair.localRoot, folder), { recursive: true });
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    live.live.restore();
    await live.waitUntilSynced('restored');
    expect(live.pair.localTree()).toEqual(before);
  }, 120_000);

  it('a restore that reaches a pass with nothing held undoes nothing', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    pair.removeLocal('top0.txt');
    const report = await pair.sync({ restore: true });
    expectSynced(report);
    expect(await pair.remoteAt('top0.txt')).toBeUndefined();
  });
});
