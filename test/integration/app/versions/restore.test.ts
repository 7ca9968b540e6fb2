// Restoring versions against the real device: the restored file syncs up over the device's, and a version that is a synced item's own inode comes out as a copy, never as that item moved.
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import { restoreVersion } from '../../../../app/versions/version-restore.ts';

describe('restore', () => {
  it('puts a version back over the file, which is kept in turn, and the next pass sends it up', async ({
    newPair,
  }) => {
    const pair = newPair();
    pair.writeLocal('a.txt', 'mine');
    expectSynced(await pair.sync());
    await pair.writeRemote('a.txt', 'theirs');
    expectSynced(await pair.sync());
    const place = { index: pair.index, root: pair.localRoot };
    const result = await restoreVersion(place, 'a.txt');
    expect(result).toMatchObject({ restoredTo: 'a.txt', number: 1, replacedKept: true });
    expect(pair.readLocal('a.txt')).toBe('mine');
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'theirs' } });
    expectSynced(await pair.sync());
    expect(await pair.remoteTree()).toEqual({ 'a.txt': { kind: 'file', text: 'mine' } });
  });

  it('restores the file a restore replaced elsewhere as a copy: the synced item keeps its place and id', async ({
    newPair,
  }) => {
    const pair = newPair();
    pair.writeLocal('a.txt', 'one');
    expectSynced(await pair.sync());
    await pair.writeRemote('a.txt', 'two');
    expectSynced(await pair.sync());
    const id = await pair.remoteId('a.txt');
    const place = { index: pair.index, root: pair.localRoot };
    // 'two' (synced, its inode the row's) is kept by a link as 'one' comes back...
    await restoreVersion(place, 'a.txt');
    // ...and put elsewhere before any pass: a copy, not the synced file's inode.
    await restoreVersion(place, 'a.txt', { to: pair.local('b.txt') });
    expectSynced(await pair.sync());
    expect(await pair.remoteTree()).toEqual({
      'a.txt': { kind: 'file', text: 'one' },
      'b.txt': { kind: 'file', text: 'two' },
    });
    expect(await pair.remoteId('a.txt')).toBe(id);
  });

  it('refuses a version that does not exist and a destination that exists, changing nothing', async ({
    newPair,
  }) => {
    const pair = newPair();
    pair.writeLocal('a.txt', 'one');
    pair.writeLocal('b.txt', 'there');
    expectSynced(await pair.sync());
    await pair.writeRemote('a.txt', 'two');
    expectSynced(await pair.sync());
    const place = { index: pair.index, root: pair.localRoot };
    await expect(restoreVersion(place, 'a.txt', { number: 2 })).rejects.toMatchObject({
      code: 'VERSION_NOT_FOUND',
    });
    await expect(restoreVersion(place, 'a.txt', { to: pair.local('b.txt') })).rejects.toMatchObject({
      code: 'DESTINATION_EXISTS',
    });
    expect(pair.readLocal('a.txt')).toBe('two');
    expect(pair.readLocal('b.txt')).toBe('there');
    expect(pair.kept()).toEqual({ 'a.txt': { kind: 'file', text: 'one' } });
  });
});
