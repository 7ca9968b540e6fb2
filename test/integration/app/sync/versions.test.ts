// The engine keeps what it replaces or removes here as versions: a device edit downloaded over a file, a device delete, a conflict settled by the pair's policy; thinned to the cap.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import type { SyncPair } from '../../../helpers/sync-pair.ts';
import type { VersionsPolicy } from '../../../../app/sync/engine-options.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';

const HOUR = 3_600_000;

async function syncedPair(
  newPair: NewPair,
  texts: Record<string, string>,
  versions?: VersionsPolicy,
): Promise<SyncPair> {
  const pair = newPair(versions === undefined ? {} : { engine: { versions } });
  for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
  expectSynced(await pair.sync());
  return pair;
}

/** An edit on each side of `path` before the next pass: a conflict, the device's newer or older. */
async function conflictOn(pair: SyncPair, path: string, deviceNewer: boolean): Promise<void> {
  const now = Date.now();
  pair.writeLocal(path, 'edited here', deviceNewer ? now - 2 * HOUR : now);
  await pair.writeRemote(path, 'edited on the device', deviceNewer ? now : now - 2 * HOUR);
}

function storeFiles(pair: SyncPair): string[] {
  return readdirSync(join(pair.localRoot, '.mch-sync', 'versions'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe('versions the engine keeps', () => {
  it('keeps the file a device edit replaces, by a link: the new content in place, the old one a version', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'first', 'b.txt': 'other' });
    await pair.writeRemote('a.txt', 'second, from the device');
    expectSynced(await pair.sync());
    expect(pair.readLocal('a.txt')).toBe('second, from the device');
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'first' } });
    expect(pair.keptReasons('a.txt')).toEqual(['replaced']);
    // Nothing of the store reaches the device, and the next pass has nothing to do.
    const again = await pair.syncCounting();
    expect(again.writes).toEqual([]);
    expect(Object.keys(await pair.remoteTree()).sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('keeps every edit the device makes, newest first', async ({ newPair }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'v1' });
    for (const text of ['v2', 'v3', 'v4']) {
      await pair.writeRemote('a.txt', text);
      expectSynced(await pair.sync());
    }
    expect(pair.readLocal('a.txt')).toBe('v4');
    expect(pair.index.versions.ofPath('a.txt').map((row) => row.size)).toEqual([2, 2, 2]);
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'v3' } });
  });

  it('keeps each file of a folder the device deleted, at its own path', async ({ newPair }) => {
    const pair = await syncedPair(newPair, {
      'docs/a.txt': 'alpha',
      'docs/sub/b.txt': 'beta',
      'c.txt': 'keep',
    });
    await pair.removeRemote('docs');
    expectSynced(await pair.sync());
    expect(pair.kept()).toEqual({
      'docs/a.txt': { kind: 'file', text: 'alpha' },
      'docs/sub/b.txt': { kind: 'file', text: 'beta' },
    });
    expect(
      pair.index.versions
        .deleted('', 0)
        .map((row) => row.path)
        .sort(),
    ).toEqual(['docs/a.txt', 'docs/sub/b.txt']);
    expect(pair.index.versions.deleted('docs/sub', 0).map((row) => row.path)).toEqual(['docs/sub/b.txt']);
  });

  it('keeps nothing with versions off', async ({ newPair }) => {
    const pair = newPair({ engine: { versions: 'off' } });
    pair.writeLocal('a.txt', 'first');
    expectSynced(await pair.sync());
    await pair.writeRemote('a.txt', 'second');
    expectSynced(await pair.sync());
    expect(pair.readLocal('a.txt')).toBe('second');
    expect(pair.kept()).toEqual({});
  });
});

describe('an on-demand pair', () => {
  it('keeps a whole file a device edit replaces, never a placeholder (it holds nothing)', async ({
    newPair,
  }) => {
    const pair = newPair({ engine: { onDemand: { keepsContent: (remote) => remote.name === 'kept.txt' } } });
    await pair.writeRemote('kept.txt', 'whole, old');
    await pair.writeRemote('online.txt', 'only on the device');
    expectSynced(await pair.sync());
    expect(isPlaceholder(pair.local('online.txt'))).toBe(true);
    await pair.writeRemote('kept.txt', 'whole, new');
    await pair.writeRemote('online.txt', 'still only there');
    expectSynced(await pair.sync());
    await pair.removeRemote('online.txt');
    expectSynced(await pair.sync());
    expect(pair.readLocal('kept.txt')).toBe('whole, new');
    expect(pair.kept()).toEqual({ 'kept.txt': { kind: 'file', text: 'whole, old' } });
  });
});

describe('conflicts and the pair policy', () => {
  it('ask (the default): both copies stay, the conflict is recorded, nothing is kept', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair, { 'a.txt': 'base' });
    await conflictOn(pair, 'a.txt', true);
    expectSynced(await pair.sync());
    const [conflict] = pair.index.versions.conflicts();
    expect(conflict).toMatchObject({ originalPath: 'a.txt', madeHere: true, settled: null });
    expect(pair.readLocal('a.txt')).toBe('edited on the device');
    expect(pair.readLocal(conflict!.copyPath)).toBe('edited here');
    expect(pair.kept()).toEqual({});
  });

  it.for([
    { policy: 'device', deviceNewer: false, wins: 'edited on the device', loses: 'edited here' },
    { policy: 'this', deviceNewer: true, wins: 'edited here', loses: 'edited on the device' },
    { policy: 'newer', deviceNewer: true, wins: 'edited on the device', loses: 'edited here' },
    { policy: 'newer', deviceNewer: false, wins: 'edited here', loses: 'edited on the device' },
  ] as const)(
    '$policy (device newer: $deviceNewer): settled in the pass that finds it, the loser kept as a version',
    async ({ policy, deviceNewer, wins, loses }, { newPair }) => {
      const pair = await syncedPair(
        newPair,
        { 'a.txt': 'base', 'b.txt': 'other' },
        {
          keepDays: 30,
          capBytes: null,
          conflicts: policy,
        },
      );
      await conflictOn(pair, 'a.txt', deviceNewer);
      expectSynced(await pair.sync());
      expect(pair.localTree()).toEqual({
        'a.txt': { kind: 'file', text: wins },
        'b.txt': { kind: 'file', text: 'other' },
      });
      expect(await pair.remoteTree()).toEqual(pair.localTree());
      expect(pair.kept()).toEqual(expect.objectContaining({}));
      expect(Object.values(pair.kept())).toEqual([{ kind: 'file', text: loses }]);
      expect(pair.index.versions.conflicts()).toEqual([]);
      const again = await pair.syncCounting();
      expect(again.writes).toEqual([]);
    },
  );
});

describe('thinning', () => {
  it('removes the oldest versions while over the cap, files and rows alike', async ({ newPair }) => {
    const pair = await syncedPair(
      newPair,
      { 'a.txt': 'v1-----' },
      { keepDays: 30, capBytes: 20, conflicts: 'ask' },
    );
    for (const text of ['v2-----', 'v3-----', 'v4-----', 'v5-----']) {
      await pair.writeRemote('a.txt', text);
      expectSynced(await pair.sync());
    }
    // 7 bytes each: two fit in 20 bytes; the newest stay.
    const kept = pair.index.versions.ofPath('a.txt');
    expect(kept).toHaveLength(2);
    expect(storeFiles(pair)).toHaveLength(2);
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'v4-----' } });
  });

  it('removes versions older than the pair keeps them', async ({ newPair }) => {
    const pair = await syncedPair(
      newPair,
      { 'a.txt': 'old' },
      { keepDays: 1, capBytes: null, conflicts: 'ask' },
    );
    await pair.writeRemote('a.txt', 'new');
    expectSynced(await pair.sync());
    expect(pair.index.versions.ofPath('a.txt')).toHaveLength(1);
    // Aged by hand: kept two days ago.
    pair.index.versions.transaction(() => {
      for (const row of pair.index.versions.ofPath('a.txt')) {
        pair.index.versions.remove(row.id);
        pair.index.versions.add({ ...row, keptAtMs: Date.now() - 2 * 24 * HOUR });
      }
    });
    pair.restart();
    expectSynced(await pair.sync());
    expect(pair.index.versions.ofPath('a.txt')).toEqual([]);
    expect(storeFiles(pair)).toEqual([]);
  });
});
