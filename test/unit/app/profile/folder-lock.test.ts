// The folder locks of `mch-sync run` and the window: one holder at a time, held by a live process only, never by a dead one, met by every profile and every spelling of the folder.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireFolderLock,
  FolderLockError,
  folderLockPath,
  holderRecordPath,
  lockSyncedFolder,
  folderOwnLockPath,
} from '../../../../app/profile/folder-lock.ts';
import { indexFilePath } from '../../../../app/index/index-db.ts';

/** Node's arguments for a holder process; with --expose-gc it collects the lock handle it dropped. */
const HOLDER_ARGS = [
  '--expose-gc',
  join(import.meta.dirname, '..', '..', '..', 'helpers', 'folder-lock-holder.ts'),
];

let dir: string;
let lockPath: string;
const options = { folder: '/data/Docs', profile: '/p' };
/** Processes a test started, and holders started through another process, killed after each test. */
let children: ChildProcess[];
let grandchildren: number[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-folder-lock-'));
  lockPath = join(dir, 'index', 'abc.lock');
  children = [];
  grandchildren = [];
});
afterEach(async () => {
  for (const pid of grandchildren) killQuietly(pid);
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

/** Starts `command args` and resolves once the holder it runs prints that it holds the lock. */
function startHolder(
  command: string,
  args: readonly string[],
): Promise<{ child: ChildProcess; holderPid: number }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the holder took no lock:\n${stdout}${stderr}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /locked (\d+)\n/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ child, holderPid: Number(match[1]) });
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the holder ended (${code ?? signal}) before taking the lock:\n${stderr}`));
    });
  });
}

/** The state letter of a process (`Z` for a zombie), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (command name) S ...": the name may hold spaces and parentheses, the state follows the last ')'.
      return stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
    } catch {
      return undefined;
    }
  }
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.stdout.trim().charAt(0) || undefined;
}

async function waitForState(pid: number, state: string): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if (processState(pid) === state) return;
    await sleep(10);
  }
  throw new Error(`process ${pid} stayed in state ${processState(pid)}, not ${state}`);
}

describe('acquireFolderLock', () => {
  it('refuses a second holder, also in the same process, until the first releases', () => {
    const first = acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' });
    const error = thrown(() => acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' }));
    expect(error).toBeInstanceOf(FolderLockError);
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid: process.pid });
    expect((error as Error).message).toContain(
      `Another mch-sync run (process ${process.pid}, profile /p, since `,
    );
    expect((error as Error).message).toContain('is syncing /data/Docs: wait for it to finish, or stop it.');
    first.release();
    first.release();
    acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' }).release();
  });

  it('records its holder beside the lock while it holds it, and leaves only the empty lock file', () => {
    const lock = acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' });
    expect(JSON.parse(readFileSync(holderRecordPath(lockPath), 'utf8'))).toMatchObject({
      pid: process.pid,
      folder: '/data/Docs',
    });
    // No journal and no draft beside them.
    expect(readdirSync(join(dir, 'index')).sort()).toEqual(['abc.lock', 'abc.lock.holder']);
    lock.release();
    expect(existsSync(holderRecordPath(lockPath))).toBe(false);
    // The lock file stays: removing it could let two runs lock two different files.
    expect(readdirSync(join(dir, 'index'))).toEqual(['abc.lock']);
  });

  it('is held by a live process in another run and freed when that process is killed', async () => {
    const { child, holderPid } = await startHolder(process.execPath, [
      ...HOLDER_ARGS,
      lockPath,
      '/data/Docs',
    ]);
    const error = thrown(() => acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' }));
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid });
    expect((error as Error).message).toContain(
      `Another mch-sync run (process ${holderPid}, profile /holder-profile, since `,
    );
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' }).release();
  });

  // Windows has no zombies: a killed process's handles, and so its locks, close with it.
  it.skipIf(process.platform === 'win32')(
    'blocks nothing once its holder is killed with SIGKILL, while the holder is a zombie nobody reaps',
    async () => {
      // sh starts the holder and becomes `sleep`, which never waits for its children: the killed holder
      // stays a zombie, its pid taken, for as long as the test runs.
      const { holderPid } = await startHolder('sh', [
        '-c',
        '"$@" & exec sleep 1000',
        'sh',
        process.execPath,
        ...HOLDER_ARGS,
        lockPath,
        '/data/Docs',
      ]);
      grandchildren.push(holderPid);
      expect(
        thrown(() => acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' })),
      ).toMatchObject({
        code: 'FOLDER_BUSY',
        holderPid,
      });
      process.kill(holderPid, 'SIGKILL');
      await waitForState(holderPid, 'Z');
      // What fooled the lock before: the pid of a zombie still answers kill(pid, 0).
      expect(() => process.kill(holderPid, 0)).not.toThrow();
      const lock = acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' });
      expect(JSON.parse(readFileSync(holderRecordPath(lockPath), 'utf8'))).toMatchObject({
        pid: process.pid,
      });
      lock.release();
    },
  );

  it('is not held by a record naming a live process that holds no lock (a reused pid)', () => {
    mkdirSync(join(dir, 'index'));
    writeFileSync(lockPath, '');
    writeFileSync(
      holderRecordPath(lockPath),
      JSON.stringify({ pid: process.ppid, folder: '/data/Docs', startedAt: '2026-11-23T10:00:00.000Z' }),
    );
    const lock = acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' });
    expect(JSON.parse(readFileSync(holderRecordPath(lockPath), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('takes over a lock file of the old format, a JSON record naming a live process', () => {
    mkdirSync(join(dir, 'index'));
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: process.ppid, token: 't', folder: '/x', startedAt: '2026-11-23T10:00:00.000Z' }),
    );
    const lock = acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' });
    expect(thrown(() => acquireFolderLock(lockPath, { folder: '/data/Docs', profile: '/p' }))).toMatchObject({
      code: 'FOLDER_BUSY',
    });
    lock.release();
  });

  it('fails with FOLDER_LOCK_FAILED when the profile cannot hold a lock', () => {
    writeFileSync(join(dir, 'file'), '');
    const error = thrown(() =>
      acquireFolderLock(join(dir, 'file', 'abc.lock'), { folder: '/a', profile: '/p' }),
    );
    expect(error).toMatchObject({ code: 'FOLDER_LOCK_FAILED' });
    expect((error as Error).message).toContain(`check that you may write in ${join(dir, 'file')}.`);
  });
});

describe('folderLockPath', () => {
  it('sits beside the index of the same folder, as in older versions', () => {
    expect(folderLockPath('/p', '/data/Docs')).toBe(
      indexFilePath('/p', '/data/Docs').replace(/\.db$/, '.lock'),
    );
    expect(folderLockPath('/p', '/data/Docs')).not.toBe(folderLockPath('/p', '/data/Other'));
  });

  it('is one file for every spelling of the folder: a link, a trailing slash, `..`', () => {
    const real = join(dir, 'real', 'Docs');
    mkdirSync(real, { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const lock = folderLockPath('/p', real);
    expect(folderLockPath('/p', join(dir, 'link', 'Docs'))).toBe(lock);
    expect(folderLockPath('/p', `${real}/`)).toBe(lock);
    expect(folderLockPath('/p', join(dir, 'real', 'Docs', '..', 'Docs'))).toBe(lock);
  });
});

describe('lockSyncedFolder', () => {
  let folder: string;
  beforeEach(() => {
    folder = join(dir, 'data', 'Docs');
    mkdirSync(folder, { recursive: true });
  });

  it("takes the profile's lock and the folder's own, named by its device and inode, and gives both back", () => {
    const lock = lockSyncedFolder(join(dir, 'p1'), folder);
    const stats = statSync(folder, { bigint: true });
    expect(lock.path).toBe(folderOwnLockPath(folder));
    expect(lock.path).toBe(
      join('/tmp', `mch-sync-${process.getuid?.() ?? 0}`, 'locks', `${stats.dev}-${stats.ino}.lock`),
    );
    expect(JSON.parse(readFileSync(holderRecordPath(lock.path), 'utf8'))).toMatchObject({
      pid: process.pid,
      folder,
      profile: join(dir, 'p1'),
      host: hostname(),
    });
    expect(thrown(() => acquireFolderLock(folderLockPath(join(dir, 'p1'), folder), options))).toMatchObject({
      code: 'FOLDER_BUSY',
    });
    lock.release();
    lockSyncedFolder(join(dir, 'p1'), folder).release();
    // Nothing is made or kept open in the folder: its disk can be ejected while the client runs.
    expect(existsSync(join(folder, '.mch-sync'))).toBe(false);
  });

  it('refuses another profile, naming the holder: pid, profile and since when', () => {
    const lock = lockSyncedFolder(join(dir, 'p1'), folder);
    const error = thrown(() => lockSyncedFolder(join(dir, 'p2'), folder));
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid: process.pid });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Another mch-sync run \\(process ${process.pid}, profile ${join(dir, 'p1')}, since \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    // The second profile's own lock was given back: only the folder is busy.
    acquireFolderLock(folderLockPath(join(dir, 'p2'), folder), options).release();
    lock.release();
    lockSyncedFolder(join(dir, 'p2'), folder).release();
  });

  it('refuses the same folder through a link, a trailing slash or `..`, in any profile', () => {
    symlinkSync(join(dir, 'data'), join(dir, 'link'));
    const lock = lockSyncedFolder(join(dir, 'p1'), folder);
    for (const [profile, spelling] of [
      [join(dir, 'p1'), join(dir, 'link', 'Docs')],
      [join(dir, 'p2'), join(dir, 'link', 'Docs')],
      [join(dir, 'p2'), `${folder}/`],
      [join(dir, 'p2'), join(folder, '..', 'Docs')],
    ] as const) {
      const error = thrown(() => lockSyncedFolder(profile, spelling));
      expect(error, `${profile} ${spelling}`).toMatchObject({ code: 'FOLDER_BUSY' });
    }
    const viaLink = thrown(() => lockSyncedFolder(join(dir, 'p2'), join(dir, 'link', 'Docs')));
    expect((viaLink as Error).message).toContain(`is syncing ${join(dir, 'link', 'Docs')} (as ${folder})`);
    lock.release();
  });

  it('is held by a run of another profile in another process, and free once it is killed', async () => {
    const { child, holderPid } = await startHolder(process.execPath, [
      ...HOLDER_ARGS,
      '--synced',
      join(dir, 'other-profile'),
      folder,
    ]);
    const error = thrown(() => lockSyncedFolder(join(dir, 'p1'), join(`${folder}/`)));
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid });
    expect((error as Error).message).toContain(`profile ${join(dir, 'other-profile')}`);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    lockSyncedFolder(join(dir, 'p1'), folder).release();
  });

  it('refuses a folder inside or around one another profile syncs, and gives its locks back', () => {
    const inside = join(folder, 'Notes');
    mkdirSync(inside);
    const outer = lockSyncedFolder(join(dir, 'p1'), folder);
    const nested = thrown(() => lockSyncedFolder(join(dir, 'p2'), join(dir, 'data', '.', 'Docs', 'Notes')));
    expect(nested).toMatchObject({ code: 'FOLDER_BUSY', holderPid: process.pid });
    expect((nested as Error).message).toContain(`is syncing ${folder}, which holds ${inside}: two processes`);
    outer.release();
    const inner = lockSyncedFolder(join(dir, 'p2'), inside);
    const around = thrown(() => lockSyncedFolder(join(dir, 'p1'), folder));
    expect((around as Error).message).toContain(`is syncing ${inside}, which is inside ${folder}`);
    inner.release();
    // Nothing was left held by the refused ones; a sibling folder was never a problem.
    mkdirSync(join(dir, 'data', 'Docs2'));
    const sibling = lockSyncedFolder(join(dir, 'p3'), join(dir, 'data', 'Docs2'));
    lockSyncedFolder(join(dir, 'p1'), folder).release();
    lockSyncedFolder(join(dir, 'p2'), inside).release();
    sibling.release();
  });

  it('is not kept from a folder by the record of a killed run of a folder around it', async () => {
    const inside = join(folder, 'Notes');
    mkdirSync(inside);
    const { child } = await startHolder(process.execPath, [
      ...HOLDER_ARGS,
      '--synced',
      join(dir, 'other'),
      folder,
    ]);
    expect(thrown(() => lockSyncedFolder(join(dir, 'p1'), inside))).toMatchObject({ code: 'FOLDER_BUSY' });
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // Its record stays behind; its lock went with it.
    lockSyncedFolder(join(dir, 'p1'), inside).release();
  });

  it('refuses a missing folder (a disk not mounted) without making it, and holds no lock after', () => {
    const missing = join(dir, 'media', 'disk', 'Docs');
    const error = thrown(() => lockSyncedFolder(join(dir, 'p1'), missing));
    expect(error).toMatchObject({ code: 'FOLDER_MISSING' });
    expect((error as Error).message).toBe(
      `The folder ${missing} does not exist (a disk that is not mounted?): nothing is synced until it is back.`,
    );
    expect(existsSync(join(dir, 'media'))).toBe(false);
    // Once the disk is there, the first process to come takes the folder's lock and any other meets it.
    mkdirSync(missing, { recursive: true });
    const lock = lockSyncedFolder(join(dir, 'p1'), missing);
    expect(thrown(() => lockSyncedFolder(join(dir, 'p2'), missing))).toMatchObject({ code: 'FOLDER_BUSY' });
    lock.release();
  });

  it('follows a folder that took the place of the locked one (renew), and refuses one another process holds', () => {
    const lock = lockSyncedFolder(join(dir, 'p1'), folder);
    const old = lock.path;
    renameSync(folder, `${folder}.old`);
    mkdirSync(folder);
    // Until renewed, the new folder is free: another profile could take it.
    const other = lockSyncedFolder(join(dir, 'p2'), folder);
    expect(thrown(() => lock.renew())).toMatchObject({ code: 'FOLDER_BUSY' });
    expect(lock.path).toBe(old);
    other.release();
    lock.renew();
    expect(lock.path).toBe(folderOwnLockPath(folder));
    expect(lock.path).not.toBe(old);
    // Now the new folder is held, and the old one is free again.
    expect(thrown(() => lockSyncedFolder(join(dir, 'p2'), folder))).toMatchObject({ code: 'FOLDER_BUSY' });
    lockSyncedFolder(join(dir, 'p3'), `${folder}.old`).release();
    lock.release();
  });

  it('keeps its folder of locks private (0700)', () => {
    const lock = lockSyncedFolder(join(dir, 'p1'), folder);
    const locks = dirname(lock.path);
    lock.release();
    expect(statSync(locks).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(locks)).mode & 0o777).toBe(0o700);
  });
});
