// A synced folder on its own file system (a USB disk): unmounted, written into, remounted; held, never read as deletes, in a pass and live.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { LivePair, waitFor } from '../../helpers/live-pair.ts';
import { bindMount, mountTmpfs, mountUnavailable, unmount, unmountAll } from '../../helpers/mounts.ts';
import { files, SyncPair } from '../../helpers/sync-pair.ts';

const unavailable = mountUnavailable();
let device: TestDevice;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  device = await startTestDevice();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await device?.stop();
});

/** 20 files: under the mass-delete guard, so only the folder's identity can hold a pass. */
const TEXTS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 20 }, (_, n) => [`d${n % 3}/f${n}.txt`, `text ${n}`]),
);

/**
 * The pair's folder as a disk: a tmpfs (`disk`) whose folder `synced` is bind-mounted on the pair's
 * folder, so unmounting the bind is pulling the disk, and binding again is plugging it back.
 */
function onDisk(pair: SyncPair): { unplug: () => void; plugBack: () => void } {
  const disk = join(pair.dir, 'disk');
  mountTmpfs(disk);
  const synced = join(disk, 'synced');
  mkdirSync(synced);
  bindMount(synced, pair.localRoot);
  cleanups.push(() => {
    unmountAll(pair.localRoot);
    unmountAll(disk);
  });
  return { unplug: () => unmount(pair.localRoot), plugBack: () => bindMount(synced, pair.localRoot) };
}

function newPair(options: { remoteFolder?: string } = {}): SyncPair {
  const pair = new SyncPair(device, options);
  cleanups.push(() => pair.close());
  return pair;
}

describe.skipIf(unavailable !== undefined)('a synced folder on a disk that is unplugged', () => {
  it('is held, also after a file is written into the bare mount point, and nothing changes anywhere', async () => {
    const pair = newPair();
    const disk = onDisk(pair);
    for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
    expect((await pair.sync()).status).toBe('synced');
    const other = newPair({ remoteFolder: pair.remoteFolder });
    expect((await other.sync()).status).toBe('synced');

    disk.unplug();
    const unplugged = await pair.syncCounting();
    // An empty mount point is held as another folder, before the emptied-folder rule is asked.
    expect(unplugged.report.hold?.reason).toBe('folder-changed');
    expect(unplugged.report.hold?.advice).toContain('is on another disk or file system');
    expect(unplugged.writes).toEqual([]);

    // Any program writing into the bare mount point: still held, no device deletes.
    writeFileSync(join(pair.localRoot, 'stray.txt'), 'written while unplugged');
    const written = await pair.syncCounting();
    expect(written.report.hold?.reason).toBe('folder-changed');
    expect(written.writes).toEqual([]);
    expect(await pair.remoteTree()).toEqual(files(TEXTS));
    // The other computer keeps every file, and moves nothing to its trash.
    const otherPass = await other.sync();
    expect(otherPass.counts.deleted).toBe(0);
    expect(other.localTree()).toEqual(files(TEXTS));
  });

  it('plugged back, it syncs on with no answer and nothing re-sent', async () => {
    const pair = newPair();
    const disk = onDisk(pair);
    for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
    expect((await pair.sync()).status).toBe('synced');
    disk.unplug();
    expect((await pair.sync()).hold?.reason).toBe('folder-changed');
    disk.plugBack();
    const back = await pair.syncCounting();
    expect(back.report.status).toBe('synced');
    expect(back.writes).toEqual([]);
  });

  it('another disk plugged in at its place is held as another folder', async () => {
    const pair = newPair();
    const disk = onDisk(pair);
    for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
    expect((await pair.sync()).status).toBe('synced');
    disk.unplug();
    mountTmpfs(pair.localRoot);
    writeFileSync(join(pair.localRoot, 'f0.txt'), 'another disk');
    const { report, writes } = await pair.syncCounting();
    expect(report.hold?.reason).toBe('folder-changed');
    expect(writes).toEqual([]);
    unmount(pair.localRoot);
  });

  it('live: held while unplugged and written into, then syncs and watches again once plugged back', async () => {
    const live = new LivePair(device);
    cleanups.push(() => live.close());
    const disk = onDisk(live.pair);
    for (const [path, text] of Object.entries(TEXTS)) live.pair.writeLocal(path, text);
    await live.start({ synced: true });
    const mark = live.mark();

    disk.unplug();
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    expect(live.live.hold()?.reason).toBe('folder-changed');
    writeFileSync(join(live.pair.localRoot, 'stray.txt'), 'written while unplugged');
    // Two more passes (polls every 500 ms) see the stray file: still held, still nothing written.
    const passes = live.passes.length;
    await waitFor('two more passes', () => (live.passes.length >= passes + 2 ? true : undefined));
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    expect(live.writesSince(mark)).toEqual([]);
    expect(await live.pair.remoteTree()).toEqual(files(TEXTS));

    disk.plugBack();
    expect(await live.waitUntilSynced('synced again')).toEqual(
      Object.fromEntries(
        Object.entries(files(TEXTS)).map(([p, i]) => [p, i.kind === 'file' ? i.text : 'folder']),
      ),
    );
    expect(live.writesSince(mark)).toEqual([]);
    // A change made after it came back is seen and synced.
    live.pair.writeLocal('after.txt', 'made after the disk came back');
    await live.waitUntilSynced('the new file synced');
    expect(await live.pair.remoteAt('after.txt')).toBeDefined();
  }, 120_000);
});
