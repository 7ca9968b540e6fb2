// `mch-sync run --once` as a user runs it, against the real device: summaries, exit codes, the guard, the lock.
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { Readable } from 'node:stream';
import { acquireFolderLock, folderLockPath, lockSyncedFolder } from '../../../../app/profile/folder-lock.ts';
import { runCli } from '../../../../app/cli/main.ts';
import type { PassReport } from '../../../../app/sync/pass-report.ts';
import { walkRemote } from '../../../../app/sync/remote/remote-walk.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { folderNumbering, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

/** A new local folder `<home>/work-N/<name>` holding `texts`. */
const localFolder = folderNumbering();

function run(profile: SignedInProfile, args: readonly string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, 'run', ...args], { env: profile.env, timeoutMs: 60_000 });
}

const api = (device: TestDevice): ReturnType<typeof clientFor>['device'] => clientFor(device).device;

/** path → text of the remote folder at `/name`, or undefined when there is no such folder. */
async function remoteTexts(device: TestDevice, path: string): Promise<Record<string, string> | undefined> {
  let id = 'root';
  for (const name of path.split('/').filter((segment) => segment !== '')) {
    const found = await api(device).findByName(id, name);
    if (found === undefined) return undefined;
    id = found.id;
  }
  const walk = await walkRemote(api(device), id);
  const texts: Record<string, string> = {};
  for (const entry of walk.entries.values()) {
    if (entry.kind !== 'file') continue;
    texts[entry.path] = await (await device.fetchAs('alice', `/sdk/v2/files/${entry.id}/content`)).text();
  }
  return texts;
}

describe('mch-sync run --once', () => {
  it('uploads a new folder, exits 0 with a summary, and then has nothing to do', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Reports', {
      'a.txt': 'alpha',
      'b.txt': 'beta',
      'sub/c.txt': 'gamma',
    });
    const first = await run(profile, ['--folder', folder, '--once']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Synced: ${folder} and /Reports on the device match.`);
    expect(first.stdout).toMatch(/^uploaded: +3 \(/m);
    expect(first.stdout).toMatch(/^folders created: +1$/m);
    expect(await remoteTexts(device, '/Reports')).toEqual({
      'a.txt': 'alpha',
      'b.txt': 'beta',
      'sub/c.txt': 'gamma',
    });

    const second = await run(profile, ['--folder', folder, '--once']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`Nothing to do: ${folder} and /Reports on the device already match.\n`);
  });

  it('brings a remote change down', async ({ device, profile }) => {
    const folder = localFolder(profile.home, 'Shared', { 'notes.txt': 'v1' });
    expect((await run(profile, ['--folder', folder, '--once'])).code).toBe(0);
    const notes = await api(device).findByName(
      (await api(device).findByName('root', 'Shared'))?.id ?? '',
      'notes.txt',
    );
    await api(device).putContent(notes?.id ?? '', Buffer.from('v2 from elsewhere'));
    const down = await run(profile, ['--folder', folder, '--once']);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/^downloaded: +1 \(/m);
    expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).toBe('v2 from elsewhere');
  });

  it('syncs with the --remote-folder given, creating each missing folder of the path', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'local-name', { 'x.txt': 'x' });
    const result = await run(profile, [
      '--folder',
      folder,
      '--remote-folder',
      '/Backups/2026/laptop',
      '--once',
    ]);
    expect(result.code).toBe(0);
    expect(await remoteTexts(device, '/Backups/2026/laptop')).toEqual({ 'x.txt': 'x' });
    expect(await api(device).findByName('root', 'local-name')).toBeUndefined();
  });

  it('prints the pass report as JSON with --json', async ({ profile }) => {
    const folder = localFolder(profile.home, 'Json', { 'j.txt': 'json' });
    const result = await run(profile, ['--folder', folder, '--once', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as PassReport;
    expectSynced(report);
    expect(report.counts.uploaded).toBe(1);
    expect(report.hold).toBeNull();
  });

  it('lists what it left out on purpose and why, and still says the sides match', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Skips', {
      'keep.txt': 'keep',
      '.DS_Store': 'junk',
      '~$draft.docx': 'lock',
    });
    const result = await run(profile, ['--folder', folder, '--once']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Synced: ${folder} and /Skips on the device match.`);
    expect(result.stdout).toMatch(/^Left out on purpose \(2\):$/m);
    expect(result.stdout).toMatch(/^ {2}\.DS_Store: .+$/m);
    expect(result.stdout).toMatch(/^ {2}~\$draft\.docx: .+$/m);
    expect(await remoteTexts(device, '/Skips')).toEqual({ 'keep.txt': 'keep' });
  });
});

describe('the mass-delete guard', () => {
  it('holds a pass deleting 60 of 100 files with exit 3 and advice, then goes ahead with --confirm-deletes', async ({
    device,
    profile,
  }) => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 100; i += 1) texts[`f${String(i).padStart(3, '0')}.txt`] = `file ${i}`;
    const folder = localFolder(profile.home, 'Mass', texts);
    expect((await run(profile, ['--folder', folder, '--once'])).code).toBe(0);
    for (let i = 0; i < 60; i += 1) unlinkSync(join(folder, `f${String(i).padStart(3, '0')}.txt`));

    const held = await run(profile, ['--folder', folder, '--once']);
    expect(held.code).toBe(3);
    expect(held.stdout).toContain('Held: this run would delete many items, so nothing was deleted.');
    expect(held.stdout).toContain('on the device: 60 of 100 items');
    expect(held.stdout).toContain(
      `mch-sync --profile ${profile.profile} run --folder ${folder} --remote-folder /Mass --once --confirm-deletes`,
    );
    expect(Object.keys((await remoteTexts(device, '/Mass')) ?? {})).toHaveLength(100);

    const confirmed = await run(profile, ['--folder', folder, '--once', '--confirm-deletes']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(/^deleted: +60$/m);
    expect(Object.keys((await remoteTexts(device, '/Mass')) ?? {})).toHaveLength(40);
  }, 120_000);
});

describe('an emptied folder', () => {
  /**
   * A synced folder of 12 files, then every file deleted here. Fewer than the mass-delete guard's 50
   * items: what holds the pass is the folder being empty, not the number of deletes.
   */
  async function emptiedFolder(profile: SignedInProfile, name: string): Promise<string> {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 12; i += 1) texts[`f${String(i).padStart(3, '0')}.txt`] = `file ${i}`;
    const folder = localFolder(profile.home, name, texts);
    expect((await run(profile, ['--folder', folder, '--once'])).code).toBe(0);
    for (const entry of readdirSync(folder)) {
      if (entry !== '.mch-sync') rmSync(join(folder, entry), { recursive: true });
    }
    return folder;
  }

  it('is held with exit 3, nothing changed on either side, and the summary names both ways out', async ({
    device,
    profile,
  }) => {
    const folder = await emptiedFolder(profile, 'Emptied');
    const held = await run(profile, ['--folder', folder, '--once']);
    expect(held.code).toBe(3);
    expect(held.stdout).toContain(`Held: ${folder} is empty, so nothing was deleted or brought back.`);
    expect(held.stdout).toContain('12 of 12 items on the device');
    const command = `mch-sync --profile ${profile.profile} run --folder ${folder} --remote-folder /Emptied --once`;
    expect(held.stdout).toContain(`  ${command} --confirm-deletes`);
    expect(held.stdout).toContain(`  ${command} --restore`);
    expect(readdirSync(folder).filter((entry) => entry !== '.mch-sync')).toEqual([]);
    expect(Object.keys((await remoteTexts(device, '/Emptied')) ?? {})).toHaveLength(12);
    // Held again, not worn down by asking twice.
    expect((await run(profile, ['--folder', folder, '--once'])).code).toBe(3);

    const restored = await run(profile, ['--folder', folder, '--once', '--restore']);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^downloaded: +12 \(/m);
    expect(readFileSync(join(folder, 'f007.txt'), 'utf8')).toBe('file 7');
    expect((await run(profile, ['--folder', folder, '--once'])).stdout).toContain('Nothing to do');
  }, 120_000);

  it('deletes on the device with --confirm-deletes', async ({ device, profile }) => {
    const folder = await emptiedFolder(profile, 'EmptiedOnPurpose');
    const held = await run(profile, ['--folder', folder, '--once', '--json']);
    expect(held.code).toBe(3);
    expect((JSON.parse(held.stdout) as PassReport).hold).toMatchObject({
      reason: 'emptied-root',
      deletes: { remote: 12, remoteTotal: 12 },
    });
    const confirmed = await run(profile, ['--folder', folder, '--once', '--confirm-deletes']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(/^deleted: +12$/m);
    expect(await remoteTexts(device, '/EmptiedOnPurpose')).toEqual({});
    expect((await run(profile, ['--folder', folder, '--once'])).stdout).toContain('Nothing to do');
  }, 120_000);

  it('refuses --restore with --confirm-deletes, and either without --once', async ({ profile }) => {
    const folder = localFolder(profile.home, 'Choices');
    const both = await run(profile, ['--folder', folder, '--once', '--restore', '--confirm-deletes']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('choose one');
    expect((await run(profile, ['--folder', folder, '--restore'])).code).toBe(2);
  });
});

describe('refusals', () => {
  it('exits 1 for a missing local folder without touching the device', async ({ device, profile }) => {
    const folder = join(profile.home, 'not-there', 'Ghost');
    const result = await run(profile, ['--folder', folder, '--once']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`mch-sync: The folder ${folder} does not exist`);
    expect(await api(device).findByName('root', 'Ghost')).toBeUndefined();
  });

  it('refuses a second run on the same folder while the first holds the lock', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Locked', { 'l.txt': 'l' });
    // This test process plays the first run, holding the lock for as long as the test runs.
    const lock = lockSyncedFolder(profile.profile, folder);
    try {
      const second = await run(profile, ['--folder', folder, '--once']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`Another mch-sync run (process ${process.pid}`);
      expect(await api(device).findByName('root', 'Locked')).toBeUndefined();
    } finally {
      lock.release();
    }
  });

  it('takes over the lock file of an older mch-sync, a JSON record naming a live process', async ({
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Stale', { 's.txt': 's' });
    const lock = folderLockPath(profile.profile, folder);
    mkdirSync(join(lock, '..'), { recursive: true });
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, token: 't', folder, startedAt: '2026-11-23T10:00:00.000Z' }),
    );
    const result = await run(profile, ['--folder', folder, '--once']);
    expect(result.code).toBe(0);
    // Released: the next run may take it.
    acquireFolderLock(lock, { folder, profile: profile.profile }).release();
  });

  it('stops cleanly on Ctrl+C: exit 1, the lock released, and the next run syncs', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile.home, 'Interrupted', { 'i.txt': 'i' });
    const controller = new AbortController();
    controller.abort();
    let stderr = '';
    const code = await runCli(['--profile', profile.profile, 'run', '--folder', folder, '--once'], {
      stdout: () => {},
      stderr: (text) => (stderr += text),
      stdin: Readable.from(['']),
      env: profile.env,
      openBrowser: () => Promise.reject(new Error('no browser')),
      signal: controller.signal,
    });
    expect(code).toBe(1);
    expect(stderr).toContain('stopped (Ctrl+C)');
    lockSyncedFolder(profile.profile, folder).release();
    const again = await run(profile, ['--folder', folder, '--once']);
    expect(again.code).toBe(0);
    expect(await remoteTexts(device, '/Interrupted')).toEqual({ 'i.txt': 'i' });
  });

  it.for([
    [['--folder', '/tmp', '--json'], '--confirm-deletes, --restore and --json go with --once'],
    [['--once', '--remote-folder', '/X'], '--remote-folder goes with --folder.'],
    [
      ['--folder', '/tmp', '--once', '--remote-folder', 'a//b'],
      '--remote-folder: The remote folder "a//b" has an empty name.',
    ],
    [
      ['--folder', '/tmp', '--once', '--remote-folder', '/a/../b'],
      '--remote-folder must not contain "." or ".."',
    ],
    [['--folder', '/tmp', '--once', '--watch'], "Unknown option '--watch'"],
  ] as const)('exits 2 with the usage for %j', async ([args, message], { profile }) => {
    const result = await run(profile, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: mch-sync [--profile DIR] run [--folder DIR');
  });
});
