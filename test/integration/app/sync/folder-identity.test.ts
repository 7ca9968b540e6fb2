// A synced folder replaced, re-created or stripped of its marker is held whatever its size, with both ways out, and never read as deletes.
import {
  cpSync,
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
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { lockSyncedFolder, type SyncedFolderLock } from '../../../../app/profile/folder-lock.ts';
import { FOLDER_MARKER_FILE, META_FOLDER_IDENTITY } from '../../../../app/sync/local/folder-identity.ts';
import { LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { files, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectLocalText, expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

/** 20 files in a few folders: under the mass-delete guard's 50, so only the folder's identity can hold it. */
const TEXTS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 20 }, (_, n) => [`${n < 10 ? 'a' : 'b'}/f${n}.txt`, `text ${n}`]),
);

async function syncedPair(newPair: NewPair): Promise<SyncPair> {
  const pair = newPair();
  for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
  expectSynced(await pair.sync());
  return pair;
}

/** `mv root root.bak; mkdir root` and two files in the new folder, one at a synced path. */
function replaceRoot(pair: SyncPair): string {
  const aside = `${pair.localRoot}.bak`;
  renameSync(pair.localRoot, aside);
  mkdirSync(pair.localRoot);
  writeFileSync(join(pair.localRoot, 'other.txt'), 'new here');
  mkdirSync(join(pair.localRoot, 'a'));
  writeFileSync(join(pair.localRoot, 'a', 'f1.txt'), 'written anew');
  return aside;
}

describe('a synced folder replaced by another one', () => {
  it('is held with what changed and both ways out, and nothing is written anywhere', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const aside = replaceRoot(pair);
    try {
      const { report, writes } = await pair.syncCounting();
      expect(report.status).toBe('held');
      expect(report.hold?.reason).toBe('folder-changed');
      expect(report.hold?.advice).toContain('no longer holds its sync marker');
      expect(report.hold?.advice).toContain('--restore');
      expect(report.hold?.advice).toContain('--confirm-deletes');
      expect(writes).toEqual([]);
      expect(await pair.remoteTree()).toEqual(files(TEXTS));
      // A file written into it later changes nothing: still held, still nothing written.
      writeFileSync(join(pair.localRoot, 'third.txt'), 'more');
      const again = await pair.syncCounting();
      expect(again.report.hold?.reason).toBe('folder-changed');
      expect(again.writes).toEqual([]);
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });

  it('putting the synced folder back needs no answer', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const aside = replaceRoot(pair);
    expect((await pair.sync()).hold?.reason).toBe('folder-changed');
    rmSync(pair.localRoot, { recursive: true });
    renameSync(aside, pair.localRoot);
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes).toEqual([]);
  });

  it('restore keeps everything on both sides: nothing deleted, a file that differs keeps both versions', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair);
    const aside = replaceRoot(pair);
    try {
      expect((await pair.sync()).hold?.reason).toBe('folder-changed');
      const { report, writes } = await pair.syncCounting({ restore: true });
      expectSynced(report);
      expect(writes.filter((request) => request.startsWith('DELETE '))).toEqual([]);
      const remote = await pair.remoteTree();
      const local = pair.localTree();
      expect(local).toEqual(remote);
      // Every synced file is there again, the new one went up, and a1's two versions are both kept.
      for (const [path, text] of Object.entries(TEXTS)) {
        if (path !== 'a/f1.txt') expect(local[path]).toEqual({ kind: 'file', text });
      }
      expect(local['other.txt']).toEqual({ kind: 'file', text: 'new here' });
      const versions = Object.entries(local)
        .filter(([path]) => path.startsWith('a/f1'))
        .map(([, item]) => (item.kind === 'file' ? item.text : ''))
        .sort();
      expect(versions).toEqual(['text 1', 'written anew']);
      // And from then on it is the synced folder.
      expect((await pair.syncCounting()).writes).toEqual([]);
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });

  it('confirm syncs the folder as it is: what it lacks is deleted on the device', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const aside = replaceRoot(pair);
    try {
      expect((await pair.sync()).hold?.reason).toBe('folder-changed');
      const report = await pair.sync({ confirmDeletes: true });
      expectSynced(report);
      await expectRemoteFiles(pair, { 'other.txt': 'new here', 'a/f1.txt': 'written anew' });
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });

  it('an answer given for another hold does not answer this one', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const aside = replaceRoot(pair);
    try {
      const report = await pair.sync({ confirmDeletes: true, answers: 'mass-delete' });
      expect(report.hold?.reason).toBe('folder-changed');
      expect(await pair.remoteTree()).toEqual(files(TEXTS));
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });
});

describe('other changes of the folder', () => {
  it('a copy of the folder (marker and all) put in its place is held as a copy', async ({ newPair }) => {
    const pair = await syncedPair(newPair);
    const copy = `${pair.localRoot}.copy`;
    cpSync(pair.localRoot, copy, { recursive: true });
    rmSync(pair.localRoot, { recursive: true });
    renameSync(copy, pair.localRoot);
    const { report, writes } = await pair.syncCounting();
    expect(report.hold?.reason).toBe('folder-changed');
    expect(report.hold?.advice).toContain('is a copy, or was made again');
    expect(writes).toEqual([]);
    // Confirmed, the copy gets a marker of its own: the original (elsewhere) and the copy are told apart.
    const marker = join(pair.localRoot, '.mch-sync', FOLDER_MARKER_FILE);
    const before = readFileSync(marker, 'utf8');
    expectSynced(await pair.sync({ confirmDeletes: true }));
    expect(readFileSync(marker, 'utf8')).not.toBe(before);
    expect(await pair.remoteTree()).toEqual(files(TEXTS));
  });

  it('a folder whose .mch-sync was deleted by hand is held until answered, then marked again', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair);
    rmSync(join(pair.localRoot, '.mch-sync'), { recursive: true });
    expect((await pair.sync()).hold?.reason).toBe('folder-changed');
    const report = await pair.sync({ confirmDeletes: true });
    expectSynced(report);
    expect(report.counts.deleted).toBe(0);
    expectSynced(await pair.sync());
  });

  it('the same folder on a renumbered device (a USB port, a reboot) syncs on, recorded anew', async ({
    newPair,
  }) => {
    const pair = await syncedPair(newPair);
    const recorded = JSON.parse(pair.index.getMeta(META_FOLDER_IDENTITY) ?? '{}') as { device: string };
    pair.index.setMeta(META_FOLDER_IDENTITY, JSON.stringify({ ...recorded, device: '987654' }));
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes).toEqual([]);
    const again = JSON.parse(pair.index.getMeta(META_FOLDER_IDENTITY) ?? '{}') as { device: string };
    expect(again.device).toBe(statSync(pair.localRoot, { bigint: true }).dev.toString());
  });

  it("a process's lock follows the synced folder once it is back, so another profile cannot take it", async ({
    newPair,
  }) => {
    const profiles = mkdtempSync(join(tmpdir(), 'mch-identity-profiles-'));
    // The engine gets the lock the way a host hands it over; the process "starts" below.
    const held: { lock?: SyncedFolderLock } = {};
    const pair = newPair({ engine: { folderLock: { renew: () => held.lock?.renew() } } });
    for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
    expectSynced(await pair.sync());
    const aside = replaceRoot(pair);
    // The process starts now: its lock names whatever is at the path, not the synced folder.
    const lock = lockSyncedFolder(join(profiles, 'first'), pair.localRoot);
    held.lock = lock;
    try {
      expect((await pair.sync()).hold?.reason).toBe('folder-changed');
      rmSync(pair.localRoot, { recursive: true });
      renameSync(aside, pair.localRoot);
      expectSynced(await pair.sync());
      let refused: unknown;
      try {
        lockSyncedFolder(join(profiles, 'second'), pair.localRoot).release();
      } catch (error) {
        refused = error;
      }
      expect(refused).toMatchObject({ code: 'FOLDER_BUSY' });
    } finally {
      lock.release();
      rmSync(aside, { recursive: true, force: true });
      rmSync(profiles, { recursive: true, force: true });
    }
  });

  it('a new pair records its folder on the first pass; an empty new folder is no change', async ({
    newPair,
  }) => {
    const pair = newPair();
    expectSynced(await pair.sync());
    expect(readFileSync(join(pair.localRoot, '.mch-sync', FOLDER_MARKER_FILE), 'utf8')).toMatch(
      /^\{"id":"[0-9a-f]{32}"\}\n$/,
    );
    pair.writeLocal('x.txt', 'x');
    expectSynced(await pair.sync());
  });
});

describe('live: a synced folder replaced while the service runs', () => {
  it('is held with nothing written; restored, it is merged and watched from then on', async ({ device }) => {
    const live = new LivePair(device);
    try {
      for (const [path, text] of Object.entries(TEXTS)) live.pair.writeLocal(path, text);
      await live.start({ synced: true });
      const mark = live.mark();
      const aside = replaceRoot(live.pair);
      try {
        await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
        expect(live.live.hold()?.reason).toBe('folder-changed');
        // Edits in the old folder (still watched by its inode) do not reach the device either.
        writeFileSync(join(aside, 'a', 'f2.txt'), 'edited in the old folder');
        const passes = live.passes.length;
        await waitFor('two more passes', () => (live.passes.length >= passes + 2 ? true : undefined));
        expect(live.writesSince(mark)).toEqual([]);
        expect(await live.pair.remoteTree()).toEqual(files(TEXTS));

        live.live.restore();
        await live.waitUntilSynced('merged');
        expect(live.writesSince(mark).filter((request) => request.startsWith('DELETE '))).toEqual([]);
        expectLocalText(live.pair, 'other.txt', 'new here');
        expectLocalText(live.pair, 'b/f15.txt', 'text 15');
        // The new folder is watched: a file made in it now goes up without a poll asking.
        live.pair.writeLocal('later.txt', 'made after the answer');
        await live.waitUntilSynced('the later file synced');
        expect(await live.pair.remoteAt('later.txt')).toBeDefined();
      } finally {
        rmSync(aside, { recursive: true, force: true });
      }
    } finally {
      await live.close();
    }
  }, 120_000);
});
