// `mch-sync select`, `exclude`, `include` and `folders set --ask-over`, as a user types them, with `run --once` and with live sync running.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { serviceStatus } from '../../../helpers/on-demand-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import { pairFilePath } from '../../../../app/profile/folder-pairs.ts';

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A folder `<home>/<name>` holding Photos/2019, Photos/2024 and Docs, paired (by its first run) and synced once. */
async function syncedFolder(profile: SignedInProfile, name: string): Promise<string> {
  const folder = join(profile.home, name);
  for (const [path, text] of [
    ['Photos/2019/old.jpg', 'old photo'],
    ['Photos/2024/new.jpg', 'new photo'],
    ['Docs/readme.txt', 'read me'],
  ] as const) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
  return folder;
}

interface SelectJson {
  askOverBytes: number | null;
  folders: Array<{ path: string; state: string; bytes: number | null; files: number | null }>;
}

async function select(profile: SignedInProfile, folder: string): Promise<SelectJson> {
  const run = await mch(profile, ['select', '--folder', folder, '--json']);
  expectExit(run, 0);
  return JSON.parse(run.stdout) as SelectJson;
}

async function status(profile: SignedInProfile, folder: string): Promise<StatusJson> {
  const run = await mch(profile, ['status', '--folder', folder, '--json']);
  expectExit(run, 0);
  return JSON.parse(run.stdout) as StatusJson;
}

describe('mch-sync select, exclude and include', () => {
  it('shows the tree, excludes a folder keeping or removing its copy, and brings it back', async ({
    device,
    profile,
  }) => {
    const folder = await syncedFolder(profile, 'Selected');
    expect((await select(profile, folder)).folders).toEqual([
      { path: 'Docs', state: 'synced', bytes: 7, files: 1 },
      { path: 'Photos', state: 'synced', bytes: 18, files: 2 },
      { path: 'Photos/2019', state: 'synced', bytes: 9, files: 1 },
      { path: 'Photos/2024', state: 'synced', bytes: 9, files: 1 },
    ]);

    // On this computer: one of the two choices is needed.
    const unsaid = await mch(profile, ['exclude', join(folder, 'Photos/2019')]);
    expectExit(unsaid, 2);
    expect(unsaid.stderr).toContain('--remove-local');
    expectExit(await mch(profile, ['exclude', join(folder, 'Photos/2019'), '--keep-local']), 0);
    // A device path from the device's root, for a folder that may not be here.
    const byDevicePath = await mch(profile, [
      'exclude',
      '--folder',
      folder,
      '/Selected/Photos/2024',
      '--remove-local',
    ]);
    expectExit(byDevicePath, 0);
    expect(byDevicePath.stdout).toContain('the next `mch-sync run` does it');
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);

    expect(readFileSync(join(folder, 'Photos/2019/old.jpg'), 'utf8')).toBe('old photo');
    expect(existsSync(join(folder, 'Photos/2024'))).toBe(false);
    expect(existsSync(join(profile.home, '.local/share/Trash/files/2024/new.jpg'))).toBe(true);
    const api = clientFor(device).device;
    const photos = await api.findByName((await api.findByName('root', 'Selected'))?.id ?? '', 'Photos');
    const onDevice = await api.listAll(photos?.id ?? '');
    expect(onDevice.notModified ? [] : onDevice.files.map((file) => file.name).sort()).toEqual([
      '2019',
      '2024',
    ]);

    // Both only read: asked at once.
    const [tree, shown] = await Promise.all([select(profile, folder), status(profile, folder)]);
    expect(tree.folders).toEqual([
      { path: 'Docs', state: 'synced', bytes: 7, files: 1 },
      { path: 'Photos', state: 'partly', bytes: 0, files: 0 },
      { path: 'Photos/2019', state: 'excluded', bytes: null, files: null },
      { path: 'Photos/2024', state: 'excluded', bytes: null, files: null },
    ]);
    expect(shown.selection).toEqual({ excluded: 2, waiting: [], askOverBytes: 500_000_000 });
    expect(shown.issues).toContainEqual(expect.objectContaining({ path: 'Photos/2019', code: 'EXCLUDED' }));

    expectExit(await mch(profile, ['include', join(folder, 'Photos/2024')]), 0);
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    expect(readFileSync(join(folder, 'Photos/2024/new.jpg'), 'utf8')).toBe('new photo');

    // Gone from the device meanwhile, a folder excluded by name can still be included again.
    const gone = await api.findByName(photos?.id ?? '', '2019');
    await api.delete(gone?.id ?? '');
    expectExit(await mch(profile, ['include', join(folder, 'Photos/2019')]), 0);
    expect((await status(profile, folder)).selection?.excluded).toBe(0);
  }, 120_000);

  it('refuses a path outside the pair, the pair itself, a folder not on the device and a bad size, changing nothing', async ({
    profile,
  }) => {
    const folder = await syncedFolder(profile, 'Refusals');
    const record = readFileSync(pairFilePath(profile.profile, folder), 'utf8');
    // Each is refused and changes nothing, so they run at once; the record is compared after all of them.
    const [outside, root, missing, elsewhere, badSize, badCount] = await Promise.all([
      mch(profile, ['exclude', profile.home, '--keep-local']),
      mch(profile, ['exclude', folder, '--keep-local']),
      mch(profile, ['exclude', '--folder', folder, '/Refusals/Nowhere']),
      mch(profile, ['include', '--folder', folder, '/Other/Photos']),
      mch(profile, ['folders', 'set', '--folder', folder, '--ask-over', 'fast']),
      mch(profile, ['folders', 'set', '--folder', folder, '--ask-over-files', 'many']),
    ]);
    expectExit(outside, 1);
    expect(outside.stderr).toContain('is not inside a synced folder');
    expectExit(root, 1);
    expect(root.stderr).toContain("pair's folder itself cannot be excluded");
    expectExit(missing, 1);
    expect(missing.stderr).toContain('/Refusals/Nowhere is not on the device');
    expectExit(elsewhere, 1);
    expect(elsewhere.stderr).toContain('is not inside /Refusals');
    expectExit(badSize, 2);
    expect(badSize.stderr).toContain('is not a size');
    expectExit(badCount, 2);
    expect(badCount.stderr).toContain('is not a number of files');
    expect(readFileSync(pairFilePath(profile.profile, folder), 'utf8')).toBe(record);
  }, 120_000);

  it('holds a new device folder over the threshold until it is answered', async ({ device, profile }) => {
    const folder = await syncedFolder(profile, 'Asking');
    expectExit(await mch(profile, ['folders', 'set', '--folder', folder, '--ask-over', '20B']), 0);
    const both = await mch(profile, [
      'folders',
      'set',
      '--folder',
      folder,
      '--ask-over-files',
      '1000',
      '--json',
    ]);
    expectExit(both, 0);
    expect(JSON.parse(both.stdout)).toEqual({
      localRoot: folder,
      askOverBytes: 20,
      askOverFiles: 1000,
      versions: expect.objectContaining({ keepDays: 30, conflicts: 'ask' }) as unknown,
    });
    const api = clientFor(device).device;
    const root = await api.findByName('root', 'Asking');
    const big = await api.createFolder({ parentId: root?.id ?? '', name: 'Big' });
    await api.upload({ parentId: big.id, name: 'one.bin', content: Buffer.from('x'.repeat(30)) });
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    expect(existsSync(join(folder, 'Big'))).toBe(false);
    // Both only read: asked at once.
    const [held, shown] = await Promise.all([
      status(profile, folder),
      mch(profile, ['select', '--folder', folder]),
    ]);
    expect(held.selection?.waiting).toEqual([{ path: 'Big', id: big.id, bytes: 30, files: 1 }]);
    expect(shown.stdout).toContain('[?] Big  waiting for an answer (1 file, 30 B)');
    expectExit(await mch(profile, ['include', join(folder, 'Big')]), 0);
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    expect(readFileSync(join(folder, 'Big/one.bin'), 'utf8')).toBe('x'.repeat(30));
    expect((await status(profile, folder)).selection?.waiting).toEqual([]);
  }, 120_000);
});

describe('a selection change while live sync runs', () => {
  let child: ChildProcess | undefined;

  it('is applied at once: the excluded copy goes to the trash, the device keeps the folder', async ({
    device,
    profile,
  }) => {
    const folder = await syncedFolder(profile, 'LiveSelected');
    child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder], {
      env: profile.env,
    });
    try {
      // Asked over the service's control socket: a `status` command per poll would start a process each time.
      await waitFor('live sync', async () =>
        (await serviceStatus(profile, folder)) === undefined ? undefined : true,
      );
      const excluded = await mch(profile, ['exclude', join(folder, 'Photos'), '--remove-local']);
      expectExit(excluded, 0);
      expect(excluded.stdout).toContain('the live sync does it now');
      await waitFor('the copy in the trash', () => (existsSync(join(folder, 'Photos')) ? undefined : true));
      const api = clientFor(device).device;
      const root = await api.findByName('root', 'LiveSelected');
      expect(await api.findByName(root?.id ?? '', 'Photos')).toBeDefined();
      // A change on the device inside it stays there.
      const photos = await api.findByName(root?.id ?? '', 'Photos');
      await api.upload({ parentId: photos?.id ?? '', name: 'later.jpg', content: Buffer.from('later') });
      expectExit(await mch(profile, ['include', join(folder, 'Photos')]), 0);
      await waitFor('the folder back', () =>
        existsSync(join(folder, 'Photos/later.jpg')) ? true : undefined,
      );
      expect(readFileSync(join(folder, 'Photos/2019/old.jpg'), 'utf8')).toBe('old photo');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child?.once('exit', resolve));
    }
  }, 120_000);
});
