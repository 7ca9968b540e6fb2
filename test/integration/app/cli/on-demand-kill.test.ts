// Files on demand under SIGKILL: the live service or the mount process killed while a file downloads on opening.
import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { isOurMount } from '../../../../app/mount/stale-mount.ts';
import { indexFilePath, openIndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import type { IndexEntry } from '../../../../app/model/items.ts';
import { liveSync, mch, waitFor } from '../../../helpers/on-demand-cli.ts';
import { createHash } from 'node:crypto';

/** Big enough that a download on loopback is still under way when the kill comes. */
const SIZE = 128 * 1024 * 1024;

function content(): Buffer {
  const block = createHash('sha256').update('on-demand kill').digest();
  const buffer = Buffer.alloc(SIZE);
  for (let at = 0; at < SIZE; at += block.length) block.copy(buffer, at);
  return buffer;
}

function rowOf(profile: SignedInProfile, folder: string, path: string): IndexEntry | undefined {
  const db = openIndexDb(indexFilePath(profile.profile, folder));
  try {
    return new IndexStore(db).byPath(path);
  } finally {
    db.close();
  }
}

/** `sha256sum` of the file through the mount, in a child process (this process serves the device). */
async function digestThrough(path: string): Promise<{ code: number | null; digest: string }> {
  const child = spawn('sha256sum', [path], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, digest: out.split(' ')[0] ?? '' };
}

/** An on-demand pair whose device folder holds one big file, synced live: the file is a placeholder. */
async function bigPlaceholder(
  profile: SignedInProfile,
  device: Parameters<typeof clientFor>[0],
  name: string,
): Promise<{ folder: string; cached: string; expected: string }> {
  const folder = join(profile.home, name);
  mkdirSync(folder);
  expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
  const api = clientFor(device).device;
  const root = await api.createFolder({ parentId: 'root', name });
  const bytes = content();
  await api.upload({ parentId: root.id, name: 'big.bin', content: bytes });
  const cache = readPairOnDemand(profile.profile, folder)?.cache ?? '';
  return {
    folder,
    cached: join(cache, 'big.bin'),
    expected: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** Waits until the download into the placeholder has begun (blocks appear), not yet ended. */
async function downloading(cached: string): Promise<void> {
  await waitFor('the download to begin', () =>
    statSync(cached).blocks * 512 > 4 * 1024 * 1024 ? true : undefined,
  );
}

describe('files on demand under SIGKILL', () => {
  it('keeps a placeholder, never a partial file, when the live service dies mid-download', async ({
    device,
    profile,
  }) => {
    const { folder, cached, expected } = await bigPlaceholder(profile, device, 'KillService');
    const first = await liveSync(profile, folder);
    const rowBefore = rowOf(profile, folder, 'big.bin');
    const reading = digestThrough(join(folder, 'big.bin'));
    await downloading(cached);
    first.child.kill('SIGKILL');
    await first.ended;
    // The reader gets an error, not bytes that are not the file's.
    const read = await reading;
    if (read.code === 0) expect(read.digest).toBe(expected);
    // The mount process saw its parent go and unmounted; the file is a placeholder still, or whole.
    await waitFor('the mount to go', async () => ((await isOurMount(folder)) ? undefined : true));
    const stats = statSync(cached);
    expect(stats.size).toBe(SIZE);
    if (isPlaceholder(cached)) expect(stats.ino.toString()).toBe(rowBefore?.inode);
    expect(rowOf(profile, folder, 'big.bin')).toEqual(rowBefore);
    const leftPlaceholder = isPlaceholder(cached);
    // The next start puts a half-filled placeholder back (its row's time, no bytes), then serves it whole.
    const second = await liveSync(profile, folder);
    try {
      if (leftPlaceholder) {
        const now = statSync(cached, { bigint: true });
        expect(now.mtimeNs).toBe(rowBefore?.localMtimeNs);
        expect(now.blocks).toBeLessThan(64n);
      }
      expect((await digestThrough(join(folder, 'big.bin'))).digest).toBe(expected);
      // The mark goes right after the last byte (the reader may be done first).
      await waitFor('the mark gone', () => (isPlaceholder(cached) ? undefined : true));
    } finally {
      await second.stop();
    }
    expect(rowOf(profile, folder, 'big.bin')?.eTag).toBe(rowBefore?.eTag);
  }, 240_000);

  it('mounts again when the mount process dies mid-download, and the file ends whole', async ({
    device,
    profile,
  }) => {
    const { folder, cached, expected } = await bigPlaceholder(profile, device, 'KillMount');
    const live = await liveSync(profile, folder);
    try {
      const reading = digestThrough(join(folder, 'big.bin'));
      await downloading(cached);
      const mountPid = await waitFor('the mount process', async () => {
        const { stdout } = await new Promise<{ stdout: string }>((resolve) => {
          const child = spawn('pgrep', ['-f', `mount-process.ts --source .* --mount ${folder} `]);
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.once('exit', () => resolve({ stdout: out }));
        });
        const pid = Number(stdout.trim().split('\n')[0]);
        return Number.isInteger(pid) && pid > 0 ? pid : undefined;
      });
      process.kill(mountPid, 'SIGKILL');
      await reading;
      // The service mounts the folder again, and the download it had begun ends whole.
      await waitFor(
        'the folder mounted again',
        async () => {
          try {
            return (await digestThrough(join(folder, 'big.bin'))).digest === expected ? true : undefined;
          } catch {
            return undefined;
          }
        },
        120_000,
      );
      expect(isPlaceholder(cached)).toBe(false);
    } finally {
      await live.stop();
    }
    expect(await isOurMount(folder)).toBe(false);
  }, 240_000);
});
