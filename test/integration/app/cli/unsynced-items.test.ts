// `mch-sync run --once` never says the sides match while items are unsynced: each is listed by what the user can do.
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import type { PassReport } from '../../../../app/sync/pass-report.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { mountTmpfs, mountUnavailable, unmountAll } from '../../../helpers/mounts.ts';
import { folderNumbering, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import {
  permissionsUnavailable,
  runMchSyncBound,
  runMchSyncWithUmask,
} from '../../../helpers/unprivileged.ts';

/** A new empty local folder `<home>/work-N/<name>`, synced with `/<name>` (each test its own name). */
const localFolder = folderNumbering();

const runArgs = (profile: SignedInProfile, folder: string, ...more: string[]): string[] => [
  '--profile',
  profile.profile,
  'run',
  '--folder',
  folder,
  '--once',
  ...more,
];

function run(profile: SignedInProfile, folder: string, ...more: string[]): Promise<CliRun> {
  return runMchSync(runArgs(profile, folder, ...more), { env: profile.env, timeoutMs: 60_000 });
}

function reportOf(result: CliRun): PassReport {
  return JSON.parse(result.stdout) as PassReport;
}

const api = (device: TestDevice): ReturnType<typeof clientFor>['device'] => clientFor(device).device;

/** The id of the device folder `/name`. */
async function remoteFolderId(device: TestDevice, name: string): Promise<string> {
  const found = await api(device).findByName('root', name);
  if (found === undefined) throw new Error(`no /${name} on the device`);
  return found.id;
}

/** Writes `/folder/name` on the device (another computer's change); returns its id. */
async function writeRemote(
  device: TestDevice,
  folder: string,
  name: string,
  content: string | Buffer,
): Promise<string> {
  const parentId = await remoteFolderId(device, folder);
  const existing = await api(device).findByName(parentId, name);
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  if (existing !== undefined) {
    await api(device).putContent(existing.id, bytes);
    return existing.id;
  }
  return (await api(device).create({ parentId, name, content: bytes })).id;
}

/**
 * Makes the device folder `/folder` (another computer's), so a test's first run meets what it is about
 * at once instead of after a run that only pairs the folder; returns its id.
 */
async function newRemoteFolder(device: TestDevice, folder: string): Promise<string> {
  return (await api(device).createFolder({ parentId: 'root', name: folder })).id;
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe.skipIf(mountUnavailable() !== undefined)('a full disk here', () => {
  it('names the file and the space it needs, never the device id; exits 1, with --json too', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'FullDisk');
    mountTmpfs(folder, 1);
    try {
      await newRemoteFolder(device, 'FullDisk');
      const id = await writeRemote(device, 'FullDisk', 'big.bin', Buffer.alloc(3_000_000, 7));
      const result = await run(profile, folder);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /^Not all synced: 1 item is not synced between .+ and \/FullDisk on the device \(1 needs you\); listed below\.$/m,
      );
      expect(result.stdout).toMatch(/^Needs you \(1\):$/m);
      expect(result.stdout).toMatch(
        /^ {2}big\.bin: It cannot be written here: this computer's disk is full: it needs 3\.0 MB and .+ is free\. Free at least .+ more; the next run tries again\. \[DISK_FULL\]$/m,
      );
      expect(result.stdout).not.toContain(id);
      expect(result.stdout).not.toContain('NETWORK');
      expect(result.stdout).not.toContain(' match.');
      // The partial download was removed: the space it took is free again.
      expect(readdirSync(folder).filter((name) => name !== '.mch-sync')).toEqual([]);

      const json = await run(profile, folder, '--json');
      expect(json.code).toBe(1);
      expect(reportOf(json)).toMatchObject({
        status: 'errors',
        issues: [{ kind: 'failed', remedy: 'needs-you', path: 'big.bin', code: 'DISK_FULL' }],
      });
    } finally {
      unmountAll(folder);
    }
  });
});

describe.skipIf(mountUnavailable() !== undefined)('a read-only disk here', () => {
  it('says the disk is read-only (EROFS, never ENOENT) for a download and for a delete to the trash', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'ReadOnlyDisk');
    mountTmpfs(folder, 4);
    try {
      writeFileSync(join(folder, 'old.txt'), 'old');
      expect((await run(profile, folder)).code).toBe(0);
      await api(device).delete(
        (await api(device).findByName(await remoteFolderId(device, 'ReadOnlyDisk'), 'old.txt'))?.id ?? '',
      );
      await writeRemote(device, 'ReadOnlyDisk', 'new.txt', 'new');
      const remount = spawnSync('mount', ['-o', 'remount,ro', folder], { encoding: 'utf8' });
      expect(remount.stderr).toBe('');

      const result = await run(profile, folder);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        '  new.txt: It cannot be written here: the disk is read-only (mounted read-only?). Make it writable; the next run tries again. [READ_ONLY]',
      );
      expect(result.stdout).toContain(
        '  old.txt: It was deleted on the device, but it cannot be moved to the trash here: the disk is read-only',
      );
      expect(result.stdout).not.toContain('ENOENT');
      expect(readFileSync(join(folder, 'old.txt'), 'utf8')).toBe('old');
    } finally {
      unmountAll(folder);
    }
  });
});

describe.skipIf(mountUnavailable() !== undefined)('a read-only disk synced for the first time', () => {
  it('goes up, though no marker or state folder can be written on it, and the next run is quiet', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'ReadOnlyFirst');
    mountTmpfs(folder, 4);
    try {
      writeFileSync(join(folder, 'photo.txt'), 'from a read-only card');
      const remount = spawnSync('mount', ['-o', 'remount,ro', folder], { encoding: 'utf8' });
      expect(remount.stderr).toBe('');
      const first = await run(profile, folder);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(
        await api(device).findByName(await remoteFolderId(device, 'ReadOnlyFirst'), 'photo.txt'),
      ).toBeDefined();
      const again = await run(profile, folder);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Nothing to do');
    } finally {
      unmountAll(folder);
    }
  });
});

describe.skipIf(permissionsUnavailable() !== undefined)('permissions', () => {
  const runBound = (profile: SignedInProfile, folder: string, ...more: string[]): Promise<CliRun> =>
    runMchSyncBound(runArgs(profile, folder, ...more), { env: profile.env, timeoutMs: 60_000 });

  it('lists an unreadable file and folder under "Needs you", exits 1, and plans no extra round', async ({
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Unreadable', {
      'ok.txt': 'ok',
      'secret.txt': 's',
      'locked/in.txt': 'in',
    });
    chmodSync(join(folder, 'secret.txt'), 0o000);
    chmodSync(join(folder, 'locked'), 0o000);
    try {
      const result = await runBound(profile, folder);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('(2 need you); listed below.');
      expect(result.stdout).toContain(
        '  locked: This folder cannot be read: permission denied. Give yourself permission to read it (chmod u+rx), or leave it out with a pattern in .mchignore. [PERMISSION_DENIED]',
      );
      expect(result.stdout).toContain(
        '  secret.txt: It cannot be read: permission denied. Give yourself permission to read it (chmod u+r), or leave it out with a pattern in .mchignore. [PERMISSION_DENIED]',
      );
      const json = await runBound(profile, folder, '--json');
      expect(json.code).toBe(1);
      const report = reportOf(json);
      expect(report.issues.map(({ kind, remedy, path }) => ({ kind, remedy, path }))).toEqual([
        { kind: 'failed', remedy: 'needs-you', path: 'locked' },
        { kind: 'failed', remedy: 'needs-you', path: 'secret.txt' },
      ]);
      // Waiting does not help: no round is planned again for it.
      expect(report.rounds).toBe(1);
    } finally {
      chmodSync(join(folder, 'locked'), 0o755);
      chmodSync(join(folder, 'secret.txt'), 0o644);
    }
  });

  it('says a read-only folder could not take the downloads: the stale file and the new one, exit 1', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Inbox', { 'a.txt': 'v1' });
    expect((await run(profile, folder)).code).toBe(0);
    await writeRemote(device, 'Inbox', 'a.txt', 'v2');
    await writeRemote(device, 'Inbox', 'b.txt', 'new');
    chmodSync(folder, 0o555);
    try {
      const result = await runBound(profile, folder);
      expect(result.code).toBe(1);
      const cannot =
        'It cannot be written here: permission denied. Give yourself permission to write in its folder (chmod u+w); the next run tries again. [PERMISSION_DENIED]';
      expect(result.stdout).toContain(`  a.txt: ${cannot}`);
      expect(result.stdout).toContain(`  b.txt: ${cannot}`);
      expect(result.stdout).not.toContain('.mch-dl-');
      expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('v1');
    } finally {
      chmodSync(folder, 0o755);
    }
    const after = await run(profile, folder);
    expect(after.code).toBe(0);
    expect(readFileSync(join(folder, 'b.txt'), 'utf8')).toBe('new');
  });
});

describe('names and paths that cannot sync as they are', () => {
  it('lists a path over 4,096 bytes under "Cannot sync as it is", not as tried again', async ({
    profile,
  }) => {
    const folder = localFolder(profile.home, 'LongPath');
    // Made one level at a time from inside the last one: no call of the shell names the whole path.
    const level = 'd'.repeat(250);
    const made = spawnSync(
      '/bin/sh',
      ['-c', `for i in $(seq 20); do mkdir ${level} && cd ${level}; done; echo x > f.txt`],
      {
        cwd: folder,
      },
    );
    try {
      expect(made.status).toBe(0);
      const result = await run(profile, folder, '--json');
      expect(result.code).toBe(1);
      const issue = reportOf(result).issues.find((found) => found.code === 'PATH_TOO_LONG');
      expect(issue).toMatchObject({ kind: 'failed', remedy: 'never-as-is' });
      expect(issue?.message).toContain('Rename it or move it higher up to sync it.');
    } finally {
      // rm(1) walks down by descriptor; Node's rmSync names whole paths, which this tree outgrows.
      spawnSync('rm', ['-rf', level], { cwd: folder });
    }
  });

  it('says a backslash name is refused by mch-sync, not by the device', async ({ profile }) => {
    const folder = localFolder(profile.home, 'Backslash', { 'a\\b.txt': 'x', 'fine.txt': 'y' });
    const result = await run(profile, folder);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Cannot sync as it is \(1\):$/m);
    expect(result.stdout).toContain(
      '  a\\b.txt: Its name contains "\\", which mch-sync does not sync: Windows reads it as a folder separator. Rename it to sync it. [INVALID_NAME]',
    );
    expect(result.stdout).not.toContain('the device refuses');
  });
});

describe('counts', () => {
  it('counts a deleted folder with everything it held, on the device and here', async ({ profile }) => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 60; i += 1) texts[`sub/f${i}.txt`] = `f${i}`;
    for (let i = 0; i < 40; i += 1) texts[`g${i}.txt`] = `g${i}`;
    const folder = localFolder(profile.home, 'Counted', texts);
    expect((await run(profile, folder)).code).toBe(0);
    rmSync(join(folder, 'sub'), { recursive: true });
    expect((await run(profile, folder)).code).toBe(3);
    const confirmed = await run(profile, folder, '--confirm-deletes');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(/^deleted: +61$/m);
  });
});

describe('permissions of downloaded files', () => {
  it('gives downloads the umask of the process, as the user’s own files; the profile stays private', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Modes', { 'mine.txt': 'made here' });
    const args = runArgs(profile, folder);
    const folderId = await newRemoteFolder(device, 'Modes');
    const sub = await api(device).createFolder({ parentId: folderId, name: 'sub' });
    await api(device).create({
      parentId: sub.id,
      name: 'theirs.txt',
      content: Buffer.from('from elsewhere'),
    });
    // One run uploads mine.txt and downloads sub/theirs.txt.
    expect((await runMchSyncWithUmask('027', args, { env: profile.env })).code).toBe(0);
    expect(readFileSync(join(folder, 'sub', 'theirs.txt'), 'utf8')).toBe('from elsewhere');
    expect(mode(join(folder, 'sub', 'theirs.txt'))).toBe(0o640);
    expect(mode(join(folder, 'sub'))).toBe(0o750);
    expect(mode(profile.profile)).toBe(0o700);
    expect(mode(join(profile.profile, 'index'))).toBe(0o700);
  });
});

describe('the device id never shows', () => {
  it('names a refused item on the device by its folder, not by its id', async ({ device, profile }) => {
    const folder = localFolder(profile.home, 'Refused', { 'ok.txt': 'ok' });
    await newRemoteFolder(device, 'Refused');
    const id = await writeRemote(device, 'Refused', 'plain.txt', 'x');
    device.running.context.db.prepare('UPDATE items SET name = ? WHERE id = ?').run('a\\b.txt', id);
    const result = await run(profile, folder);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '  a\\b.txt: On the device: its name contains "\\", which mch-sync does not bring here (Windows reads it as a folder separator). Rename it on the device to sync it. [REMOTE_ITEM_REFUSED]',
    );
    expect(result.stdout).not.toContain(id);
  });
});
