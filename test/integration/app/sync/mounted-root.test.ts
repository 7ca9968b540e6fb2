// A synced folder at the root of a mounted disk: its `.Trash-<uid>` and `lost+found` never reach the device.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { files, type PairOptions, type Tree, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectLocalText, expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

const uid = process.getuid?.() ?? -1;
/** The trash a delete on this disk goes to (freedesktop.org trash spec 1.0, "Trash directories"). */
const TRASH = `.Trash-${uid}`;

function mountTmpfs(dir: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', dir], { stdio: 'pipe' });
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Something still has a file open there: detach it now, the kernel frees it when that ends.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

/** Why a tmpfs cannot be mounted here, or undefined; tried once on a folder of its own. */
function mountProblem(): string | undefined {
  if (process.platform !== 'linux') return 'skipped: mounting a tmpfs needs Linux';
  if (uid !== 0) return 'skipped: mounting a tmpfs needs root (CI runs as root)';
  const probe = mkdtempSync(join(tmpdir(), 'mch-mount-probe-'));
  try {
    mountTmpfs(probe);
  } catch (error) {
    rmSync(probe, { recursive: true, force: true });
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error);
    return `skipped: mount -t tmpfs failed (${detail})`;
  }
  unmount(probe);
  rmSync(probe, { recursive: true, force: true });
  return undefined;
}

const mounted: string[] = [];
const livePairs: LivePair[] = [];

afterEach(async () => {
  // The service lets go of the folder first; then the disk goes, and only then its mount point.
  for (const live of livePairs) await live.live.stop();
  for (const dir of mounted.splice(0)) unmount(dir);
  for (const live of livePairs.splice(0)) await live.close();
});

/** A pair whose synced folder is the root of a fresh tmpfs. */
function mountedPair(newPair: NewPair, options: PairOptions = {}): SyncPair {
  const pair = newPair(options);
  mountTmpfs(pair.localRoot);
  mounted.push(pair.localRoot);
  return pair;
}

/** Another computer on the same device folder (an ordinary folder). */
function otherComputer(newPair: NewPair, of: SyncPair): SyncPair {
  const pair = newPair({ remoteFolder: of.remoteFolder });
  return pair;
}

/** The local tree without the disk's trash: what the user sees as the synced items. */
function userTree(pair: SyncPair): Tree {
  return Object.fromEntries(
    Object.entries(pair.localTree()).filter(([path]) => path !== TRASH && !path.startsWith(`${TRASH}/`)),
  );
}

/** As a file manager deletes on that disk: the `.trashinfo` first, then the item renamed into `files/`. */
function trashByHand(pair: SyncPair, path: string): void {
  const name = path.slice(path.lastIndexOf('/') + 1);
  mkdirSync(pair.local(`${TRASH}/files`), { recursive: true });
  mkdirSync(pair.local(`${TRASH}/info`), { recursive: true });
  writeFileSync(
    pair.local(`${TRASH}/info/${name}.trashinfo`),
    `[Trash Info]\nPath=${path}\nDeletionDate=2026-05-06T07:08:09\n`,
  );
  renameSync(pair.local(path), pair.local(`${TRASH}/files/${name}`));
}

const problem = mountProblem();

describe.skipIf(problem !== undefined)(
  `a synced folder at the root of a mounted file system (${problem ?? 'tmpfs mounted as root'})`,
  () => {
    it('a device delete is kept as a version on that disk, which is never uploaded nor reaches another computer', async ({
      newPair,
    }) => {
      const laptop = mountedPair(newPair);
      laptop.writeLocal('a.txt', 'alpha');
      laptop.writeLocal('docs/b.txt', 'beta');
      expectSynced(await laptop.sync());
      const desktop = otherComputer(newPair, laptop);
      expectSynced(await desktop.sync());

      await laptop.removeRemote('docs/b.txt');
      const deleted = await laptop.syncCounting();
      expectSynced(deleted.report);
      expect(deleted.writes).toEqual([]);
      expect(laptop.kept()).toEqual({ 'docs/b.txt': { kind: 'file', text: 'beta' } });
      expect(existsSync(laptop.local(TRASH))).toBe(false);
      const later = await laptop.syncCounting();
      expect(later.writes).toEqual([]);
      const remote = files({ 'a.txt': 'alpha' });
      remote['docs'] = { kind: 'folder' };
      expect(await laptop.remoteTree()).toEqual(remote);
      await desktop.sync();
      expect(desktop.localTree()).toEqual(remote);
    });

    it('with versions off, a device delete puts the file in the disk’s trash, which is never uploaded nor reaches another computer', async ({
      newPair,
    }) => {
      const laptop = mountedPair(newPair, { engine: { versions: 'off' } });
      laptop.writeLocal('a.txt', 'alpha');
      laptop.writeLocal('docs/b.txt', 'beta');
      expectSynced(await laptop.sync());
      const desktop = otherComputer(newPair, laptop);
      expectSynced(await desktop.sync());

      await laptop.removeRemote('docs/b.txt');
      const deleted = await laptop.syncCounting();
      expectSynced(deleted.report);
      expect(deleted.writes).toEqual([]);
      expect(readFileSync(laptop.local(`${TRASH}/files/b.txt`), 'utf8')).toBe('beta');
      expect(readFileSync(laptop.local(`${TRASH}/info/b.txt.trashinfo`), 'utf8')).toContain(
        'Path=docs/b.txt\n',
      );

      // The next passes see the trash folder and leave it alone: nothing is sent.
      const later = await laptop.syncCounting();
      expect(later.writes).toEqual([]);
      expect(later.report.issues.filter((issue) => issue.kind !== 'skipped')).toEqual([]);
      const remote = files({ 'a.txt': 'alpha' });
      remote['docs'] = { kind: 'folder' };
      expect(await laptop.remoteTree()).toEqual(remote);

      await desktop.sync();
      expect(desktop.localTree()).toEqual(remote);
      expect(existsSync(desktop.local(TRASH))).toBe(false);
    });

    it('never uploads the disk’s lost+found', async ({ newPair }) => {
      const pair = mountedPair(newPair);
      // What fsck leaves on ext2/3/4: root's folder, mode 0700, files named by inode.
      mkdirSync(pair.local('lost+found'), { mode: 0o700 });
      writeFileSync(pair.local('lost+found/#1234'), 'recovered');
      pair.writeLocal('a.txt', 'alpha');
      // Made first, so that the pass's only create is a.txt's upload.
      await pair.remoteRootId();
      const { report, writes } = await pair.syncCounting();
      expectSynced(report);
      expect(writes).toEqual(['POST /sdk/v2/files']);
      await expectRemoteFiles(pair, { 'a.txt': 'alpha' });
      expectLocalText(pair, 'lost+found/#1234', 'recovered');
    });

    it('a folder left holding only the disk’s trash is emptied: held, nothing deleted or uploaded', async ({
      newPair,
    }) => {
      const pair = mountedPair(newPair);
      pair.writeLocal('a.txt', 'alpha');
      pair.writeLocal('b.txt', 'beta');
      expectSynced(await pair.sync());
      trashByHand(pair, 'a.txt');
      trashByHand(pair, 'b.txt');
      const { report, writes } = await pair.syncCounting();
      expect(report.hold?.reason).toBe('emptied-root');
      expect(writes).toEqual([]);
      await expectRemoteFiles(pair, { 'a.txt': 'alpha', 'b.txt': 'beta' });
    });

    it('live: a device delete is kept as a version, and the watcher sends nothing of it', async ({
      device,
      newPair,
    }) => {
      const live = new LivePair(device);
      livePairs.push(live);
      mountTmpfs(live.pair.localRoot);
      mounted.push(live.pair.localRoot);
      live.pair.writeLocal('a.txt', 'alpha');
      live.pair.writeLocal('docs/b.txt', 'beta');
      await live.start({ synced: true });

      const mark = live.mark();
      await live.pair.removeRemote('docs/b.txt');
      await waitFor('the file kept as a version', () =>
        live.pair.kept()['docs/b.txt'] === undefined ? undefined : true,
      );
      // Long enough for the watcher's batch (300 ms) and a few polls (500 ms) to have run.
      const passes = live.passes.length;
      await waitFor('three more passes', () => (live.passes.length >= passes + 3 ? true : undefined));
      await live.live.whenIdle();
      expect(live.writesSince(mark)).toEqual([]);
      const remote = files({ 'a.txt': 'alpha' });
      remote['docs'] = { kind: 'folder' };
      expect(await live.pair.remoteTree()).toEqual(remote);

      // The user deletes a.txt in the file manager: it moves into the same trash, a delete on the device.
      const before = live.mark();
      trashByHand(live.pair, 'a.txt');
      await waitFor('the delete on the device', async () =>
        (await live.pair.remoteAt('a.txt')) === undefined ? true : undefined,
      );
      await sleep(1_500);
      await live.live.whenIdle();
      const writes = live.writesSince(before);
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/^DELETE /);
      expect(await live.pair.remoteTree()).toEqual({ docs: { kind: 'folder' } });

      const desktop = otherComputer(newPair, live.pair);
      await desktop.sync();
      expect(desktop.localTree()).toEqual({ docs: { kind: 'folder' } });
      expect(userTree(live.pair)).toEqual({ docs: { kind: 'folder' } });
    }, 120_000);

    it('live: a folder emptied into the disk’s trash is held', async ({ device }) => {
      const live = new LivePair(device);
      livePairs.push(live);
      mountTmpfs(live.pair.localRoot);
      mounted.push(live.pair.localRoot);
      live.pair.writeLocal('a.txt', 'alpha');
      live.pair.writeLocal('b.txt', 'beta');
      await live.start({ synced: true });
      const mark = live.mark();
      trashByHand(live.pair, 'a.txt');
      trashByHand(live.pair, 'b.txt');
      await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
      expect(live.writesSince(mark)).toEqual([]);
      await expectRemoteFiles(live.pair, { 'a.txt': 'alpha', 'b.txt': 'beta' });
    }, 120_000);
  },
);

describe('a trash folder an older client put on the device', () => {
  it('never comes down to a new computer and stays on the device', async ({ newPair }) => {
    const pair = newPair();
    await pair.writeRemote('.Trash-1000/files/old.txt', 'old');
    await pair.writeRemote('.Trash-1000/info/old.txt.trashinfo', '[Trash Info]\nPath=old.txt\n');
    await pair.writeRemote('keep.txt', 'kept');
    const first = await pair.syncCounting();
    expectSynced(first.report);
    // One download: keep.txt's.
    expect(first.writes).toEqual([`GET /sdk/v2/files/${await pair.remoteId('keep.txt')}/content`]);
    expect(first.report.issues).toContainEqual(
      expect.objectContaining({ kind: 'skipped', path: '.Trash-1000', code: 'NOT_SYNCED_NAME' }),
    );
    expect(pair.localTree()).toEqual(files({ 'keep.txt': 'kept' }));
    expect((await pair.syncCounting()).writes).toEqual([]);
    expect(await pair.remoteAt('.Trash-1000/files/old.txt')).toBeDefined();
  });

  it('is not deleted on the device when the computer that synced it empties its trash', async ({
    newPair,
  }) => {
    const pair = newPair();
    // What an older client left: the trash folder synced both ways, with rows in the index.
    pair.writeLocal('T/files/old.txt', 'old');
    pair.writeLocal('keep.txt', 'kept');
    expectSynced(await pair.sync());
    const id = await pair.remoteId('T');
    const moved = await pair.other.patch(id, { name: '.Trash-1000' });
    renameSync(pair.local('T'), pair.local('.Trash-1000'));
    pair.index.moveSubtree({
      remoteId: id,
      toPath: '.Trash-1000',
      toName: '.Trash-1000',
      toParentRemoteId: await pair.remoteRootId(),
      eTag: moved.eTag,
    });
    expect((await pair.syncCounting()).writes).toEqual([]);

    pair.removeLocal('.Trash-1000');
    const { report, writes } = await pair.syncCounting();
    expectSynced(report);
    expect(writes).toEqual([]);
    expect(await pair.remoteAt('.Trash-1000/files/old.txt')).toBeDefined();
    expect(pair.localTree()).toEqual(files({ 'keep.txt': 'kept' }));
  });
});
