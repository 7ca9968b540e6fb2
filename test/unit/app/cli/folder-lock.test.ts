// The per-folder lock of `mch-sync run`: one holder at a time, released cleanly, taken over from a dead process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireFolderLock,
  FolderLockError,
  folderLockPath,
  processAlive,
} from '../../../../app/cli/folder-lock.ts';
import { indexFilePath } from '../../../../app/index/index-db.ts';

let dir: string;
let lockPath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-folder-lock-'));
  lockPath = join(dir, 'index', 'abc.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The id of a process that has ended. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined || processAlive(pid)) throw new Error('could not find a dead pid');
  return pid;
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('acquireFolderLock', () => {
  it('writes the holder into a new lock file and removes it on release', () => {
    const lock = acquireFolderLock(lockPath, { folder: '/data/Docs', pid: 4242, isProcessAlive: () => true });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: 4242, folder: '/data/Docs' });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
    // Only the lock: no draft files are left beside it.
    expect(readdirSync(join(dir, 'index'))).toEqual([]);
  });

  it('refuses a second holder while the first one runs, naming its process', () => {
    const first = acquireFolderLock(lockPath, { folder: '/data/Docs', pid: 111, isProcessAlive: () => true });
    const error = thrown(() =>
      acquireFolderLock(lockPath, { folder: '/data/Docs', isProcessAlive: () => true }),
    );
    expect(error).toBeInstanceOf(FolderLockError);
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid: 111 });
    expect((error as Error).message).toContain('Another mch-sync run (process 111 since ');
    expect((error as Error).message).toContain(`delete ${lockPath}`);
    first.release();
    acquireFolderLock(lockPath, { folder: '/data/Docs' }).release();
  });

  it('takes over the lock of a process that has ended', () => {
    const first = acquireFolderLock(lockPath, { folder: '/data/Docs', pid: deadPid() });
    const second = acquireFolderLock(lockPath, { folder: '/data/Docs' });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    // The old holder's release must not remove the lock that replaced it.
    first.release();
    expect(existsSync(lockPath)).toBe(true);
    second.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('takes over a lock file it cannot read as a lock', () => {
    const first = acquireFolderLock(lockPath, { folder: '/x' });
    first.release();
    writeFileSync(lockPath, 'not json');
    const lock = acquireFolderLock(lockPath, { folder: '/data/Docs' });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ folder: '/data/Docs' });
    lock.release();
  });

  it('treats the running process as alive', () => {
    expect(processAlive(process.pid)).toBe(true);
    const error = thrown(() => {
      acquireFolderLock(lockPath, { folder: '/a' });
      acquireFolderLock(lockPath, { folder: '/a' });
    });
    expect(error).toMatchObject({ code: 'FOLDER_BUSY', holderPid: process.pid });
  });

  it('fails with FOLDER_LOCK_FAILED when the profile cannot hold a lock', () => {
    writeFileSync(join(dir, 'file'), '');
    const error = thrown(() => acquireFolderLock(join(dir, 'file', 'abc.lock'), { folder: '/a' }));
    expect(error).toMatchObject({ code: 'FOLDER_LOCK_FAILED' });
    expect((error as Error).message).toContain("check the profile folder's permissions");
  });
});

describe('folderLockPath', () => {
  it('sits beside the index of the same folder', () => {
    expect(folderLockPath('/p', '/data/Docs')).toBe(
      indexFilePath('/p', '/data/Docs').replace(/\.db$/, '.lock'),
    );
    expect(folderLockPath('/p', '/data/Docs')).not.toBe(folderLockPath('/p', '/data/Other'));
  });
});
