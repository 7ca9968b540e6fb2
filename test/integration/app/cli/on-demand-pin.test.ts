// Pin, unpin, free and the cache limit of an on-demand folder, as a user meets them: real mounts, the real device, `mch-sync` in child processes.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { pairFilePath } from '../../../../app/profile/folder-pairs.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';
import {
  liveSync,
  mch,
  serviceLogs,
  serviceStatus,
  status,
  waitFor,
} from '../../../helpers/on-demand-cli.ts';

const run = promisify(execFile);

async function mchJson<T>(profile: SignedInProfile, args: string[], code = 0): Promise<T> {
  const result = await mch(profile, [...args, '--json']);
  expectExit(result, code);
  return JSON.parse(result.stdout) as T;
}

/** Asks the running live sync for a pass, as `pin` does. */
async function syncNow(profile: SignedInProfile, folder: string): Promise<void> {
  const answer = await askService(controlSocketPath(profile.profile, folder), { op: 'sync-now' });
  expect(answer?.ok).toBe(true);
}

/** The service's log, for a failure's message. */
function logs(profile: SignedInProfile): string {
  try {
    return serviceLogs(profile);
  } catch {
    return '(no logs)';
  }
}

/** A held-open file through the mount: `sh -c 'exec 3<FILE; sleep N'` (a child: never this process). */
function holdOpen(path: string, seconds: number): { done: Promise<void> } {
  const child = spawn('sh', ['-c', `exec 3<"$1"; sleep ${seconds}`, 'sh', path], { stdio: 'ignore' });
  return { done: new Promise((resolve) => child.once('exit', () => resolve())) };
}

interface FreeJson {
  folder: string;
  unpinned: string[];
  freed: number;
  bytesFreed: number;
  busy: string[];
  changed: string[];
  failed: string[];
  running: boolean;
}

async function onDemandPair(
  profile: SignedInProfile,
  name: string,
): Promise<{ folder: string; cache: string }> {
  const folder = join(profile.home, name);
  mkdirSync(folder);
  expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
  return { folder, cache: readPairOnDemand(profile.profile, folder)?.cache ?? '' };
}

describe('pin, unpin and free in an on-demand folder', () => {
  it('pins a folder (its files and one that arrives later come down whole), unpins, frees in place keeping the inode, and refuses open and edited files', async ({
    device,
    profile,
  }) => {
    const api = clientFor(device).device;
    const { folder, cache } = await onDemandPair(profile, 'Device');
    const root = await api.createFolder({ parentId: 'root', name: 'Device' });
    const docs = await api.createFolder({ parentId: root.id, name: 'Docs' });
    await api.create({ parentId: docs.id, name: 'a.txt', content: Buffer.from('alpha') });
    await api.create({ parentId: docs.id, name: 'b.txt', content: Buffer.from('bravo bravo') });
    await api.upload({ parentId: root.id, name: 'top.bin', content: Buffer.alloc(100_000, 3) });

    const live = await liveSync(profile, folder);
    try {
      await waitFor('the placeholders', () =>
        isPlaceholder(join(cache, 'Docs/a.txt')) && isPlaceholder(join(cache, 'top.bin')) ? true : undefined,
      );
      // pin: recorded, and the live service brings them down whole.
      const pinned = await mchJson<{ pinned: string[]; running: boolean }>(profile, [
        'pin',
        join(folder, 'Docs'),
      ]);
      expect(pinned).toMatchObject({ pinned: ['Docs'], running: true });
      expect(readPairOnDemand(profile.profile, folder)?.pinned).toEqual([{ path: 'Docs', id: docs.id }]);
      await waitFor('Docs whole', () =>
        !isPlaceholder(join(cache, 'Docs/a.txt')) && !isPlaceholder(join(cache, 'Docs/b.txt'))
          ? true
          : undefined,
      );
      expect(readFileSync(join(cache, 'Docs/a.txt'), 'utf8')).toBe('alpha');
      expect(isPlaceholder(join(cache, 'top.bin'))).toBe(true);

      // What arrives later below the pinned folder comes down whole.
      await api.create({ parentId: docs.id, name: 'c.txt', content: Buffer.from('charlie') });
      await syncNow(profile, folder);
      await waitFor('the new file whole', async () => {
        const there = await stat(join(cache, 'Docs/c.txt')).catch(() => undefined);
        return there !== undefined && !isPlaceholder(join(cache, 'Docs/c.txt')) ? true : undefined;
      });

      // Pinned already, by itself or by its folder; a file a pinned folder keeps cannot be unpinned alone.
      expect(await mchJson(profile, ['pin', join(folder, 'Docs/a.txt')])).toMatchObject({
        pinned: [],
        already: [{ path: 'Docs/a.txt', by: 'Docs' }],
      });
      const unpinChild = await mch(profile, ['unpin', join(folder, 'Docs/a.txt')]);
      expectExit(unpinChild, 2);
      expect(unpinChild.stderr).toContain('is kept because Docs is pinned');

      // status: what is here, on the device only, pinned, and the cache's use (counted by a whole pass).
      const counted = await waitFor('the count after the downloads', async () => {
        const now = await status(profile, folder);
        return now.onDemand?.use?.whole.files === 3 ? now : undefined;
      });
      expect(counted.onDemand).toMatchObject({
        use: {
          whole: { files: 3, bytes: 5 + 11 + 7 },
          placeholders: { files: 1, bytes: 100_000 },
        },
        pinned: [{ path: 'Docs' }],
        cacheLimitBytes: 10_000_000_000,
        cacheUsedBytes: 23,
      });
      const words = await mch(profile, ['status', '--folder', folder]);
      expect(words.stdout).toMatch(/on this computer:\s+3 files, 23 B/);
      expect(words.stdout).toMatch(/device only:\s+1 file, 100 kB/i);

      // free Docs while b.txt is open in a program: the others are freed in place, b.txt is busy.
      const inodeA = (await stat(join(cache, 'Docs/a.txt'))).ino;
      const held = holdOpen(join(folder, 'Docs/b.txt'), 5);
      await sleep(500);
      const freed = await mchJson<FreeJson>(profile, ['free', join(folder, 'Docs')], 1);
      expect(freed).toMatchObject({
        unpinned: ['Docs'],
        freed: 2,
        bytesFreed: 12,
        busy: ['Docs/b.txt'],
        changed: [],
        running: true,
      });
      expect(isPlaceholder(join(cache, 'Docs/a.txt'))).toBe(true);
      expect((await stat(join(cache, 'Docs/a.txt'))).ino).toBe(inodeA);
      expect((await stat(join(cache, 'Docs/a.txt'))).size).toBe(5);
      expect(isPlaceholder(join(cache, 'Docs/b.txt'))).toBe(false);
      expect(readPairOnDemand(profile.profile, folder)?.pinned).toEqual([]);
      await held.done;

      // Opened again, a freed file downloads again.
      expect(await readFile(join(folder, 'Docs/a.txt'), 'utf8')).toBe('alpha');

      // An edit not synced yet is never freed.
      expectExit(await mch(profile, ['pause', '--folder', folder]), 0);
      await appendFile(join(folder, 'Docs/b.txt'), ' edited');
      const edited = await mchJson<FreeJson>(profile, ['free', join(folder, 'Docs/b.txt')], 1);
      expect(edited).toMatchObject({ freed: 0, changed: ['Docs/b.txt'] });
      expect(readFileSync(join(cache, 'Docs/b.txt'), 'utf8')).toBe('bravo bravo edited');
      expectExit(await mch(profile, ['resume', '--folder', folder]), 0);
      await waitFor('the edit on the device', async () => {
        const found = await api.findByName(docs.id, 'b.txt');
        return found?.size === 'bravo bravo edited'.length ? true : undefined;
      });
      // The pass that sent it also writes its row: stopped before, the row would still be the old one.
      await waitFor('the pass to end', async () => {
        const now = await serviceStatus(profile, folder);
        return now?.state === 'idle' && now.progress === null ? true : undefined;
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${live.output()}\n${logs(profile)}`, { cause: error });
    } finally {
      await live.stop();
    }

    // Without a running service: freed in place, under the folder's lock.
    await waitFor('the edit in the index', async () => {
      const result = await mch(profile, ['free', join(folder, 'Docs/b.txt'), '--json']);
      return result.code === 0 ? (JSON.parse(result.stdout) as FreeJson) : undefined;
    }).then((alone) => expect(alone).toMatchObject({ freed: 1, running: false }));
    expect(isPlaceholder(join(cache, 'Docs/b.txt'))).toBe(true);
    expect((await stat(join(cache, 'Docs/b.txt'))).size).toBe('bravo bravo edited'.length);
  }, 300_000);

  it('frees the least recently used files that are not pinned once the cache limit is passed', async ({
    device,
    profile,
  }) => {
    const api = clientFor(device).device;
    const { folder, cache } = await onDemandPair(profile, 'Limited');
    const root = await api.createFolder({ parentId: 'root', name: 'Limited' });
    for (const name of ['old.bin', 'older.bin', 'new.bin', 'kept.bin']) {
      await api.upload({ parentId: root.id, name, content: Buffer.alloc(100_000, name.length) });
    }
    const live = await liveSync(profile, folder);
    try {
      await waitFor('the placeholders', () => (isPlaceholder(join(cache, 'new.bin')) ? true : undefined));
      expectExit(await mch(profile, ['pin', join(folder, 'kept.bin')]), 0);
      // Read through the mount (never synchronously here: this process serves the device).
      for (const name of ['old.bin', 'older.bin', 'new.bin']) await readFile(join(folder, name));
      await waitFor('all whole', () =>
        ['old.bin', 'older.bin', 'new.bin', 'kept.bin'].every((name) => !isPlaceholder(join(cache, name)))
          ? true
          : undefined,
      );
      // Access times as if used long ago; the pinned file is the oldest of all and stays.
      await run('touch', ['-a', '-d', '2001-01-01', join(cache, 'kept.bin')]);
      await run('touch', ['-a', '-d', '2010-01-01', join(cache, 'older.bin')]);
      await run('touch', ['-a', '-d', '2015-01-01', join(cache, 'old.bin')]);
      await run('touch', ['-a', '-d', '2020-01-01', join(cache, 'new.bin')]);
      const set = await mchJson<{ cacheLimitBytes: number }>(profile, [
        'folders',
        'set',
        '--folder',
        folder,
        '--cache-limit',
        '150KB',
      ]);
      expect(set.cacheLimitBytes).toBe(150_000);
      await syncNow(profile, folder);
      await waitFor('the two least recently used freed', () =>
        isPlaceholder(join(cache, 'older.bin')) && isPlaceholder(join(cache, 'old.bin')) ? true : undefined,
      );
      expect(isPlaceholder(join(cache, 'new.bin'))).toBe(false);
      expect(isPlaceholder(join(cache, 'kept.bin'))).toBe(false);
      expect(logs(profile)).toContain('cache limit 150 kB passed: freed 2 least recently used files');
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${live.output()}\n${logs(profile)}`, { cause: error });
    } finally {
      await live.stop();
    }
  }, 300_000);

  it('refuses a path in no pair, in a pair not on demand, or not synced yet, and leaves the record byte for byte', async ({
    profile,
  }) => {
    const { folder } = await onDemandPair(profile, 'OnDemand');
    const plain = join(profile.home, 'Plain');
    mkdirSync(plain);
    expectExit(await mch(profile, ['folders', 'add', '--folder', plain]), 0);
    const record = pairFilePath(profile.profile, folder);
    const plainRecord = pairFilePath(profile.profile, plain);
    const before = [readFileSync(record), readFileSync(plainRecord)];
    for (const command of ['pin', 'unpin', 'free']) {
      const outside = await mch(profile, [command, join(profile.home, 'elsewhere.txt')]);
      expectExit(outside, 2);
      expect(outside.stderr).toContain('is not inside a synced folder');
      const notOnDemand = await mch(profile, [command, join(plain, 'a.txt')]);
      expectExit(notOnDemand, 2);
      expect(notOnDemand.stderr).toContain('mch-sync exclude');
      const notSynced = await mch(profile, [command, join(folder, 'new.txt')]);
      expectExit(notSynced, 2);
      expect(notSynced.stderr).toContain('is not synced yet');
    }
    const limit = await mch(profile, ['folders', 'set', '--folder', plain, '--cache-limit', '1GB']);
    expectExit(limit, 2);
    expect(limit.stderr).toContain('is not on demand');
    const badSize = await mch(profile, ['folders', 'set', '--folder', folder, '--cache-limit', 'lots']);
    expectExit(badSize, 2);
    expect(badSize.stderr).toContain('--cache-limit');
    expect([readFileSync(record), readFileSync(plainRecord)]).toEqual(before);
  }, 120_000);
});
