// Selective sync against the real device: excluded folders are never listed, downloaded, changed or deleted, and nothing is lost either side.
import { existsSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import { memorySelection, type MemorySelection } from '../../../helpers/selection-store.ts';
import type { SyncPair } from '../../../helpers/sync-pair.ts';

/** A pair holding `keep/`, `photos/2019/` and `photos/2024/`, synced, with a selection kept in memory. */
async function syncedPair(
  newPair: NewPair,
  selection: MemorySelection = memorySelection(),
): Promise<{ pair: SyncPair; selection: MemorySelection }> {
  const pair = newPair({ engine: { selection } });
  pair.writeLocal('keep/a.txt', 'alpha');
  pair.writeLocal('photos/2019/old.jpg', 'old photo');
  pair.writeLocal('photos/2019/deep/older.jpg', 'older photo');
  pair.writeLocal('photos/2024/new.jpg', 'new photo');
  expectSynced(await pair.sync());
  return { pair, selection };
}

/** The listing requests of a pass that asked for the folder `id`. */
function listingsOf(requests: string[], id: string): string[] {
  return requests.filter((request) => request.startsWith('GET ') && request.includes(`ids=${id}`));
}

describe('an excluded folder', () => {
  it('keeps its local copy when asked, unsynced and marked, and is never listed again', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'keep');
    const report = await pair.sync();
    expect(report.status).toBe('synced');
    expect(report.issues).toContainEqual(
      expect.objectContaining({ path: 'photos/2019', code: 'EXCLUDED', kind: 'skipped' }),
    );
    expect(pair.readLocal('photos/2019/old.jpg')).toBe('old photo');
    expect(pair.index.rowsWithin('photos/2019')).toEqual([]);
    // The device keeps everything, and changes there stay there.
    await pair.writeRemote('photos/2019/later.jpg', 'added elsewhere');
    const { report: after, requests } = await pair.syncCounting();
    expect(after.status).toBe('synced');
    expect(listingsOf(requests, id)).toEqual([]);
    expect(existsSync(pair.local('photos/2019/later.jpg'))).toBe(false);
    expect(Object.keys(await pair.remoteTree())).toEqual(
      expect.arrayContaining(['photos/2019/old.jpg', 'photos/2019/deep/older.jpg', 'photos/2019/later.jpg']),
    );
  });

  it('goes to the trash when the local copy is to be removed, the device keeping it', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'remove');
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes).toEqual([]);
    expect(existsSync(pair.local('photos/2019'))).toBe(false);
    expect(pair.trashed()).toMatchObject({ '2019/old.jpg': { kind: 'file', text: 'old photo' } });
    expect(await pair.remoteTree()).toMatchObject({ 'photos/2019/deep/older.jpg': { kind: 'file' } });
    expect((await pair.sync()).status).toBe('synced');
  });

  it('sends up what is unsynced in it before its local copy goes', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    pair.writeLocal('photos/2019/unsynced.jpg', 'only here');
    pair.writeLocal('photos/2019/old.jpg', 'edited here');
    await pair.writeRemote('photos/2019/remote-new.jpg', 'new on the device');
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'remove');
    const { report, requests } = await pair.syncCounting();
    expectSynced(report);
    // What is new on the device does not come down into a copy about to go.
    expect(requests.filter((request) => /^GET .*\/content$/.test(request))).toEqual([]);
    expect(Object.keys(pair.trashed()).some((path) => path.endsWith('remote-new.jpg'))).toBe(false);
    const remote = await pair.remoteTree();
    expect(remote['photos/2019/unsynced.jpg']).toEqual({ kind: 'file', text: 'only here' });
    expect(remote['photos/2019/old.jpg']).toEqual({ kind: 'file', text: 'edited here' });
    expect(existsSync(pair.local('photos/2019'))).toBe(false);
  });

  it('stays on the device when its local parent is deleted (nextcloud#1898)', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'remove');
    expectSynced(await pair.sync());
    pair.removeLocal('photos');
    const report = await pair.sync();
    expect(report.hold).toBeNull();
    const remote = await pair.remoteTree();
    expect(remote['photos/2019/old.jpg']).toEqual({ kind: 'file', text: 'old photo' });
    expect(remote['photos/2019/deep/older.jpg']).toEqual({ kind: 'file', text: 'older photo' });
    // What was not excluded went as the user asked; the parent stays, for what it still holds.
    expect(remote['photos/2024/new.jpg']).toBeUndefined();
    expect(existsSync(pair.local('photos/2019'))).toBe(false);
    expect((await pair.sync()).status).toBe('synced');
    expect((await pair.remoteTree())['photos/2019/old.jpg']).toBeDefined();
  });

  it('moves with its parent renamed here, and stays excluded where it went', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'remove');
    expectSynced(await pair.sync());
    pair.renameLocal('photos', 'pictures');
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes.filter((write) => write.startsWith('PATCH '))).toHaveLength(1);
    expect(writes.filter((write) => write.startsWith('DELETE '))).toEqual([]);
    expect((await pair.remoteTree())['pictures/2019/old.jpg']).toEqual({ kind: 'file', text: 'old photo' });
    // The next walk meets it at its new place: the exclusion follows it there.
    expectSynced(await pair.sync());
    expect(selection.current.excluded).toEqual([{ path: 'pictures/2019', id, localCopy: 'remove' }]);
    expect(existsSync(pair.local('pictures/2019'))).toBe(false);
  });

  it('keeps its kept copy unsynced when that copy or its parent is renamed here', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'keep');
    expectSynced(await pair.sync());
    const before = await pair.remoteTree();
    pair.renameLocal('photos', 'pictures');
    const { writes } = await pair.syncCounting();
    // One rename of the parent; nothing of the kept copy goes up as new.
    expect(writes.filter((write) => !write.startsWith('PATCH '))).toEqual([]);
    pair.renameLocal('pictures/2019', 'pictures/old-2019');
    const again = await pair.syncCounting();
    expect(again.writes).toEqual([]);
    expect(again.report.issues).toContainEqual(
      expect.objectContaining({ path: 'pictures/old-2019', code: 'EXCLUDED' }),
    );
    const after = await pair.remoteTree();
    expect(Object.keys(after).sort()).toEqual(
      Object.keys(before)
        .map((path) => path.replace(/^photos/, 'pictures'))
        .sort(),
    );
    expect(selection.current.excluded).toEqual([{ path: 'pictures/2019', id, localCopy: 'keep' }]);
  });

  it('forgets a kept copy the user deleted, so its inode cannot leave a new folder out', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'keep');
    expectSynced(await pair.sync());
    expect(pair.index.getMeta('selection')).toContain('keptCopy');
    pair.removeLocal('photos/2019');
    expectSynced(await pair.sync());
    expect(pair.index.getMeta('selection')).not.toContain('keptCopy');
    expect((await pair.remoteTree())['photos/2019/old.jpg']).toEqual({ kind: 'file', text: 'old photo' });
  });

  it('keeps a device file moved into it as a version here, and brings one moved out of it', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'remove');
    expectSynced(await pair.sync());
    await pair.moveRemote('keep/a.txt', 'photos/2019/a.txt');
    await pair.moveRemote('photos/2019/old.jpg', 'keep/old.jpg');
    expectSynced(await pair.sync());
    expect(existsSync(pair.local('keep/a.txt'))).toBe(false);
    expect(pair.kept()).toMatchObject({ 'keep/a.txt': { kind: 'file', text: 'alpha' } });
    expect(pair.readLocal('keep/old.jpg')).toBe('old photo');
    expect((await pair.remoteTree())['photos/2019/a.txt']).toEqual({ kind: 'file', text: 'alpha' });
  });

  it('refuses a local file moved into its kept copy, the device keeping it where it was', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'keep');
    await pair.sync();
    pair.renameLocal('keep/a.txt', 'photos/2019/a.txt');
    const report = await pair.sync();
    expect(report.issues).toContainEqual(
      expect.objectContaining({ path: 'keep/a.txt', code: 'MOVED_INTO_EXCLUDED' }),
    );
    expect((await pair.remoteTree())['keep/a.txt']).toEqual({ kind: 'file', text: 'alpha' });
    expect(pair.readLocal('photos/2019/a.txt')).toBe('alpha');
    // Moved back, it is synced as it was.
    pair.renameLocal('photos/2019/a.txt', 'keep/a.txt');
    const back = await pair.syncCounting();
    expectSynced(back.report);
    expect(back.writes).toEqual([]);
  });
});

describe('an excluded folder changed by another client', () => {
  it('renamed on the device: a new folder made here at its old name goes up in the same pass (seed 1495)', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'remove');
    expectSynced(await pair.sync());
    await pair.moveRemote('photos/2019', 'photos/Old 2019');
    pair.writeLocal('photos/2019/fresh.txt', 'made here');
    expectSynced(await pair.sync());
    expect((await pair.remoteTree())['photos/2019/fresh.txt']).toEqual({ kind: 'file', text: 'made here' });
    expect(selection.current.excluded).toEqual([{ path: 'photos/Old 2019', id, localCopy: 'remove' }]);
    expect(existsSync(pair.local('photos/Old 2019'))).toBe(false);
    const after = await pair.syncCounting();
    expect(after.writes).toEqual([]);
  });

  it('replaced on the device by a file of its name: the file syncs like any other (seed 500)', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'remove');
    expectSynced(await pair.sync());
    await pair.other.delete(await pair.remoteId('photos/2019'));
    await pair.writeRemote('photos/2019', 'a file now');
    expectSynced(await pair.sync());
    expect(pair.readLocal('photos/2019')).toBe('a file now');
    pair.writeLocal('photos/2019', 'edited here');
    expectSynced(await pair.sync());
    expect((await pair.remoteTree())['photos/2019']).toEqual({ kind: 'file', text: 'edited here' });
  });

  it('replaced by a file while its copy is kept here: the copy keeps the name, and the pass says so (seed 272)', async ({
    newPair,
  }) => {
    const { pair, selection } = await syncedPair(newPair);
    selection.exclude('photos/2019', await pair.remoteId('photos/2019'), 'keep');
    expectSynced(await pair.sync());
    await pair.other.delete(await pair.remoteId('photos/2019'));
    await pair.writeRemote('photos/2019', 'a file now');
    const report = await pair.sync();
    expect(report.issues).toContainEqual(
      expect.objectContaining({ path: 'photos/2019', code: 'KEPT_COPY_HOLDS_NAME', kind: 'failed' }),
    );
    expect(pair.readLocal('photos/2019/old.jpg')).toBe('old photo');
    expect((await pair.remoteTree())['photos/2019']).toEqual({ kind: 'file', text: 'a file now' });
  });
});

describe('including a folder again', () => {
  it('brings its content down', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'remove');
    expectSynced(await pair.sync());
    await pair.writeRemote('photos/2019/later.jpg', 'added elsewhere');
    selection.include(id);
    expectSynced(await pair.sync());
    expect(pair.readLocal('photos/2019/later.jpg')).toBe('added elsewhere');
    expect(pair.readLocal('photos/2019/deep/older.jpg')).toBe('older photo');
  });

  it('merges a kept copy: equal files are adopted, a different one is kept beside', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair);
    const id = await pair.remoteId('photos/2019');
    selection.exclude('photos/2019', id, 'keep');
    expectSynced(await pair.sync());
    pair.writeLocal('photos/2019/old.jpg', 'changed while excluded');
    selection.include(id);
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    const local = pair.localTree();
    expect(local['photos/2019/deep/older.jpg']).toEqual({ kind: 'file', text: 'older photo' });
    const texts = Object.entries(local)
      .filter(([path]) => path.startsWith('photos/2019/old'))
      .map(([, item]) => (item.kind === 'file' ? item.text : ''));
    expect(texts.sort()).toEqual(['changed while excluded', 'old photo']);
    // The equal file was not sent again.
    expect(writes.filter((write) => write.includes('older'))).toEqual([]);
  });
});

describe('a new device folder over the threshold', () => {
  it('waits, excluded, until it is answered', async ({ newPair }) => {
    const { pair, selection } = await syncedPair(newPair, memorySelection({ askOverBytes: 20 }));
    await pair.writeRemote('big/one.bin', 'x'.repeat(15));
    await pair.writeRemote('big/two.bin', 'y'.repeat(15));
    await pair.writeRemote('small/s.txt', 'tiny');
    expectSynced(await pair.sync());
    expect(selection.current.waiting).toEqual([
      { path: 'big', id: await pair.remoteId('big'), bytes: 30, files: 2 },
    ]);
    expect(existsSync(pair.local('big'))).toBe(false);
    expect(pair.readLocal('small/s.txt')).toBe('tiny');
    const waitingIssue: unknown = expect.objectContaining({
      path: 'big',
      code: 'WAITING_FOR_ANSWER',
      kind: 'skipped',
    });
    const again = await pair.sync();
    expectSynced(again);
    expect(again.issues).toContainEqual(waitingIssue);
    expect(existsSync(pair.local('big'))).toBe(false);
    // Answered "leave it out", it is said no more; answered "sync it" later, it comes down.
    selection.exclude('big', await pair.remoteId('big'), 'keep');
    expect((await pair.sync()).issues).not.toContainEqual(waitingIssue);
    expect((await pair.sync()).issues).not.toContainEqual(waitingIssue);
    selection.include(await pair.remoteId('big'));
    expectSynced(await pair.sync());
    expect(pair.readLocal('big/two.bin')).toBe('y'.repeat(15));
  });
});
