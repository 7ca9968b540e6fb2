// An on-demand pair against the real device: device files come down as placeholders, which sync as files but never as content.
import { openSync, closeSync, statSync, writeSync, existsSync, truncateSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import { isTransfer, type SyncPair } from '../../../helpers/sync-pair.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { nativeFileAttributes } from '../../../../app/sync/local/native-scan.ts';
import { PLACEHOLDER_XATTR } from '../../../../app/mount/hydration-protocol.ts';
import type { RemoteEntry } from '../../../../app/model/items.ts';
import { memorySelection } from '../../../helpers/selection-store.ts';

/** An on-demand pair whose device folder holds two files, synced once: both are placeholders here. */
async function onDemandPair(
  newPair: NewPair,
  keepsContent: (remote: RemoteEntry) => boolean = () => false,
): Promise<SyncPair> {
  const pair = newPair({ engine: { onDemand: { keepsContent } } });
  await pair.writeRemote('notes/a.txt', 'alpha content', Date.UTC(2024, 0, 2, 3, 4, 5, 678));
  await pair.writeRemote('big.bin', 'x'.repeat(100_000));
  expectSynced(await pair.sync());
  return pair;
}

/** What the mount's download does: the content written into the placeholder, its mtime put back, the mark last. */
function hydrate(pair: SyncPair, path: string, text: string, options: { finish?: boolean } = {}): void {
  const absolute = pair.local(path);
  // The mount's download finds the item by the placeholder's inode, and puts its row's mtime back.
  const row = pair.index.byInode(statSync(absolute).ino.toString())[0];
  if (!isPlaceholder(absolute) || row?.localMtimeNs === null || row === undefined)
    throw new Error(`${path} is not a placeholder`);
  const fd = openSync(absolute, 'r+');
  try {
    writeSync(fd, text, 0);
    if (options.finish === false) return;
    const attributes = nativeFileAttributes();
    attributes?.setMtimeNs(fd, row.localMtimeNs);
    attributes?.removeAttribute(fd, PLACEHOLDER_XATTR);
  } finally {
    closeSync(fd);
  }
}

describe('an on-demand pair', () => {
  it('gets placeholders of the real size and time, no content, and passes quietly after', async ({
    newPair,
  }) => {
    const pair = await onDemandPair(newPair);
    const stats = statSync(pair.local('notes/a.txt'));
    expect(stats.size).toBe('alpha content'.length);
    expect(stats.mtimeMs).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    // Sparse, and the mark held inside the inode: no block at all.
    expect(statSync(pair.local('big.bin')).blocks).toBe(0);
    expect(isPlaceholder(pair.local('notes/a.txt'))).toBe(true);
    // Nothing was downloaded, and nothing goes up again.
    expect(pair.client.requests().filter((request) => /\/content/.test(request))).toEqual([]);
    const { report, writes } = await pair.syncCounting();
    expect(report.status).toBe('synced');
    expect(writes).toEqual([]);
  });

  it('renames and deletes placeholders on the device with one request each, never uploading them', async ({
    newPair,
  }) => {
    const pair = await onDemandPair(newPair);
    pair.renameLocal('notes/a.txt', 'notes/renamed.txt');
    pair.removeLocal('big.bin');
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes.filter(isTransfer)).toEqual([]);
    expect(writes.map((request) => request.split(' ')[0]).sort()).toEqual(['DELETE', 'PATCH']);
    const remote = await pair.remoteTree();
    expect(remote['notes/renamed.txt']).toEqual({ kind: 'file', text: 'alpha content' });
    expect(remote['big.bin']).toBeUndefined();
  });

  it('follows a device edit with a new placeholder, and a device delete leaves nothing in the trash', async ({
    newPair,
  }) => {
    const pair = await onDemandPair(newPair);
    await pair.writeRemote('notes/a.txt', 'alpha, edited on another computer');
    await pair.removeRemote('big.bin');
    expectSynced(await pair.sync());
    expect(statSync(pair.local('notes/a.txt')).size).toBe('alpha, edited on another computer'.length);
    expect(isPlaceholder(pair.local('notes/a.txt'))).toBe(true);
    expect(pair.index.byPath('notes/a.txt')?.eTag).toBe((await pair.remoteAt('notes/a.txt'))?.eTag);
    expect(existsSync(pair.local('big.bin'))).toBe(false);
    expect(pair.trashed()).toEqual({});
    expect((await pair.remoteTree())['notes/a.txt']).toEqual({
      kind: 'file',
      text: 'alpha, edited on another computer',
    });
  });

  it('reads a placeholder filled in place as synced, during and after, and sends an edit of it', async ({
    newPair,
  }) => {
    const pair = await onDemandPair(newPair);
    // Half way: the mark is there, the mtime moved.
    hydrate(pair, 'big.bin', 'x'.repeat(50_000), { finish: false });
    const during = await pair.syncCounting();
    expect(during.report.status).toBe('synced');
    expect(during.writes).toEqual([]);
    hydrate(pair, 'big.bin', 'x'.repeat(100_000));
    expect(isPlaceholder(pair.local('big.bin'))).toBe(false);
    const after = await pair.syncCounting();
    expect(after.report.status).toBe('synced');
    expect(after.writes).toEqual([]);
    pair.writeLocal('big.bin', 'edited here');
    expectSynced(await pair.sync());
    expect((await pair.remoteTree())['big.bin']).toEqual({ kind: 'file', text: 'edited here' });
  });

  it('says a placeholder is online only, not downloaded', async ({ newPair }) => {
    const actions: string[] = [];
    const pair = newPair({
      engine: {
        onDemand: { keepsContent: () => false },
        events: { onActivity: (entry) => actions.push(`${entry.action} ${entry.path}`) },
      },
    });
    await pair.writeRemote('a.txt', 'alpha');
    expectSynced(await pair.sync());
    expect(actions).toEqual(['online-only a.txt']);
  });

  it('keeps a file whole that the policy keeps, and sends a new local file up', async ({ newPair }) => {
    const pair = await onDemandPair(newPair, (remote) => remote.name === 'a.txt');
    expect(pair.readLocal('notes/a.txt')).toBe('alpha content');
    expect(isPlaceholder(pair.local('notes/a.txt'))).toBe(false);
    expect(isPlaceholder(pair.local('big.bin'))).toBe(true);
    pair.writeLocal('notes/new.txt', 'made here');
    expectSynced(await pair.sync());
    expect((await pair.remoteTree())['notes/new.txt']).toEqual({ kind: 'file', text: 'made here' });
  });

  it('brings a folder kept here down whole, and what arrives in it later, at the next pass', async ({
    newPair,
  }) => {
    const kept = new Set<string>();
    const parentOf = (remote: RemoteEntry, up: (id: string) => string | undefined): boolean => {
      for (let id: string | undefined = remote.id; id !== undefined; id = up(id))
        if (kept.has(id)) return true;
      return false;
    };
    const pair = newPair({
      engine: { onDemand: { keepsContent: parentOf, keptVersion: () => [...kept].join() } },
    });
    await pair.writeRemote('notes/a.txt', 'alpha content');
    await pair.writeRemote('big.bin', 'x'.repeat(100_000));
    expectSynced(await pair.sync());
    expect(isPlaceholder(pair.local('notes/a.txt'))).toBe(true);
    expectSynced(await pair.sync());
    // Pinned: the pass that follows plans everything, and the placeholder below comes down.
    kept.add(await pair.remoteId('notes'));
    expectSynced(await pair.sync());
    expect(isPlaceholder(pair.local('notes/a.txt'))).toBe(false);
    expect(pair.readLocal('notes/a.txt')).toBe('alpha content');
    expect(isPlaceholder(pair.local('big.bin'))).toBe(true);
    await pair.writeRemote('notes/later.txt', 'arrived later');
    expectSynced(await pair.sync());
    expect(pair.readLocal('notes/later.txt')).toBe('arrived later');
    const { writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
  });

  it('leaves no placeholder in the trash when the copy of an excluded folder is removed, the whole files kept there', async ({
    newPair,
  }) => {
    const selection = memorySelection();
    const pair = newPair({ engine: { onDemand: { keepsContent: () => false }, selection } });
    await pair.writeRemote('photos/opened.jpg', 'opened here');
    await pair.writeRemote('photos/online.jpg', 'only on the device');
    expectSynced(await pair.sync());
    hydrate(pair, 'photos/opened.jpg', 'opened here');
    selection.exclude('photos', await pair.remoteId('photos'), 'remove');
    expectSynced(await pair.sync());
    expect(existsSync(pair.local('photos'))).toBe(false);
    expect(pair.trashed()).toEqual({
      photos: { kind: 'folder' },
      'photos/opened.jpg': { kind: 'file', text: 'opened here' },
    });
  });

  it('sends a placeholder overwritten whole as the new content, under If-Match', async ({ newPair }) => {
    const pair = await onDemandPair(newPair);
    // What the mount does for `echo x > file`: truncated, then the mark removed, then written.
    const absolute = pair.local('notes/a.txt');
    const fd = openSync(absolute, 'r+');
    nativeFileAttributes()?.removeAttribute(fd, PLACEHOLDER_XATTR);
    closeSync(fd);
    pair.writeLocal('notes/a.txt', 'replaced here');
    expectSynced(await pair.sync());
    expect((await pair.remoteTree())['notes/a.txt']).toEqual({ kind: 'file', text: 'replaced here' });
  });

  it("does not take a placeholder on a removed one's inode for that file moved (soak seed 51)", async ({
    newPair,
  }) => {
    const pair = newPair({ engine: { onDemand: { keepsContent: () => false } } });
    await pair.writeRemote('A.txt', 'a'.repeat(41));
    expectSynced(await pair.sync());
    // The device deletes A.txt and makes a file d; a crashed pass removed A.txt's placeholder and wrote
    // d's, which got the freed inode, before either row was written: A.txt's row holds d's inode.
    await pair.removeRemote('A.txt');
    const dTime = Date.UTC(2025, 5, 6, 7, 8, 9);
    await pair.writeRemote('d', '51:r4 abcdefghij\n', dTime);
    pair.renameLocal('A.txt', 'd');
    truncateSync(pair.local('d'), 17);
    const fd = openSync(pair.local('d'), 'r+');
    try {
      nativeFileAttributes()?.setMtimeNs(fd, BigInt(dTime) * 1_000_000n);
    } finally {
      closeSync(fd);
    }
    // Quiet within two passes, d a placeholder of the device's file, nothing refused as a local change.
    const first = await pair.sync();
    expect(first.issues.filter((issue) => issue.code === 'LOCAL_CHANGED')).toEqual([]);
    expectSynced(await pair.sync());
    expect(isPlaceholder(pair.local('d'))).toBe(true);
    expect(statSync(pair.local('d')).size).toBe(17);
    expect(existsSync(pair.local('A.txt'))).toBe(false);
    const remote = await pair.remoteTree();
    expect(remote['d']).toEqual({ kind: 'file', text: '51:r4 abcdefghij\n' });
    expect(remote['A.txt']).toBeUndefined();
  });
});
