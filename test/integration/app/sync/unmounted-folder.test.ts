// A synced folder on its own file system (a USB disk): unmounted, written into, remounted; held, never read as deletes, in a pass and live.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { MCH_SYNC_BIN, runMchSync } from '../../../helpers/mch-sync.ts';
import { signedInProfile } from '../../../helpers/signed-in-profile.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { bindMount, mountTmpfs, mountUnavailable, unmount, unmountAll } from '../../../helpers/mounts.ts';
import { files, SyncPair } from '../../../helpers/sync-pair.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

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
    expectSynced(await pair.sync());
    const other = newPair({ remoteFolder: pair.remoteFolder });
    expectSynced(await other.sync());

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
    expectSynced(await pair.sync());
    disk.unplug();
    expect((await pair.sync()).hold?.reason).toBe('folder-changed');
    disk.plugBack();
    const back = await pair.syncCounting();
    expectSynced(back.report);
    expect(back.writes).toEqual([]);
  });

  it('another disk plugged in at its place is held as another folder', async () => {
    const pair = newPair();
    const disk = onDisk(pair);
    for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
    expectSynced(await pair.sync());
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

describe.skipIf(unavailable !== undefined)('mch-sync run (live) on a disk that is ejected', () => {
  it('lets the disk go (no file of it kept open), holds the pair with a bare mount point, and syncs on once it is back', async () => {
    const signedIn = await signedInProfile(device, 'mch-sync-eject-');
    cleanups.push(() => signedIn.remove());
    const disk = join(signedIn.home, 'disk');
    const folder = join(signedIn.home, 'Stick');
    mountTmpfs(disk);
    mkdirSync(join(disk, 'stick'));
    mkdirSync(folder);
    bindMount(join(disk, 'stick'), folder);
    cleanups.push(() => {
      unmountAll(folder);
      unmountAll(disk);
    });
    for (let n = 0; n < 5; n++) writeFileSync(join(disk, 'stick', `f${n}.txt`), `text ${n}`);
    const child = spawn(
      process.execPath,
      [MCH_SYNC_BIN, '--profile', signedIn.profile, 'run', '--folder', folder],
      {
        env: signedIn.env,
      },
    );
    cleanups.push(async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    });
    const status = async (): Promise<StatusJson> => {
      const run = await runMchSync(['--profile', signedIn.profile, 'status', '--folder', folder, '--json'], {
        env: signedIn.env,
      });
      return JSON.parse(run.stdout) as StatusJson;
    };
    const api = clientFor(device).device;
    const names = async (folderId: string): Promise<string[]> => {
      const listing = await api.listAll(folderId);
      return 'files' in listing ? listing.files.map((file) => file.name).sort() : [];
    };
    const remote = await waitFor('the remote folder', () => api.findByName('root', 'Stick'));
    await waitFor('five files on the device', async () =>
      (await names(remote.id)).length === 5 ? true : undefined,
    );
    await waitFor('the service at rest', async () => ((await status()).state === 'idle' ? true : undefined));

    // Ejected while the service runs: the unmount succeeds (a busy disk would fail with EBUSY).
    unmount(folder);
    writeFileSync(join(folder, 'stray.txt'), 'written into the bare mount point');
    const held = await waitFor('the held state', async () => {
      await runMchSync(['--profile', signedIn.profile, 'resume', '--folder', folder], { env: signedIn.env });
      const now = await status();
      return now.state === 'held' ? now : undefined;
    });
    expect(held.detail).toContain('is on another disk or file system');
    expect(await names(remote.id)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);

    // Back: synced on with no answer, and what was written meanwhile on the disk goes up.
    rmSync(join(folder, 'stray.txt'));
    bindMount(join(disk, 'stick'), folder);
    writeFileSync(join(folder, 'after.txt'), 'after');
    await waitFor('after.txt on the device', async () => {
      await runMchSync(['--profile', signedIn.profile, 'resume', '--folder', folder], { env: signedIn.env });
      return (await api.findByName(remote.id, 'after.txt')) ?? undefined;
    });
    expect(await names(remote.id)).toHaveLength(6);
  }, 120_000);
});
