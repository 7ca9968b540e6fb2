// Where a folder's control socket lives: in the profile, in a private temp folder when too long, a pipe on Windows.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFilePath } from '../../../../app/index/index-db.ts';
import {
  checkControlSocketDir,
  controlSocketPath,
  folderKey,
  MAX_SOCKET_PATH_BYTES,
  prepareControlSocketDir,
} from '../../../../app/live-service/control-socket-path.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-socket-path-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('controlSocketPath', () => {
  it('is <profile>/run/<key>.sock, the key being the index file’s', () => {
    const path = controlSocketPath('/home/a/.config/mch-sync', '/home/a/Photos');
    expect(path).toBe(`/home/a/.config/mch-sync/run/${folderKey('/home/a/Photos')}.sock`);
    expect(basename(indexFilePath('/p', '/home/a/Photos'))).toBe(`${folderKey('/home/a/Photos')}.db`);
    expect(folderKey('/home/a/Photos')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs between folders and is the same for one folder written two ways', () => {
    expect(controlSocketPath('/p', '/a')).not.toBe(controlSocketPath('/p', '/b'));
    expect(controlSocketPath('/p', '/a/x/../b')).toBe(controlSocketPath('/p', '/a/b'));
  });

  it('falls back to a per-user folder under the temp folder when the profile path is too long', () => {
    const profile = `/home/a/${'long-folder-name/'.repeat(6)}mch-sync`;
    const path = controlSocketPath(profile, '/home/a/Photos', { tmpdir: '/var/tmp', uid: 1234 });
    expect(path).toMatch(/^\/var\/tmp\/mch-sync-1234\/[0-9a-f]{16}\.sock$/);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    // Two profiles of one user share the temp folder, so the name depends on the profile too.
    expect(controlSocketPath(`${profile}2`, '/home/a/Photos', { tmpdir: '/var/tmp', uid: 1234 })).not.toBe(
      path,
    );
  });

  it('counts bytes, not characters', () => {
    const profile = `/home/a/${'é'.repeat(46)}`; // 92 bytes of é, 46 characters
    expect(controlSocketPath(profile, '/x', { tmpdir: '/tmp', uid: 1 })).toMatch(/^\/tmp\/mch-sync-1\//);
  });

  it('uses /tmp when even the temp folder is too long', () => {
    const path = controlSocketPath(`/${'p'.repeat(100)}`, '/x', { tmpdir: `/${'t'.repeat(100)}`, uid: 7 });
    expect(path).toMatch(/^\/tmp\/mch-sync-7\/[0-9a-f]{16}\.sock$/);
  });

  it('is a named pipe on Windows', () => {
    const path = controlSocketPath('C:\\Users\\a\\AppData\\Roaming\\mch-sync', 'C:\\Users\\a\\Photos', {
      platform: 'win32',
    });
    expect(path).toMatch(/^\\\\\.\\pipe\\mch-sync-[0-9a-f]{16}$/);
  });
});

describe.skipIf(process.platform === 'win32')('the socket folder', () => {
  it('is created with mode 0700, and narrowed back to it when wider', async () => {
    const socket = join(dir, 'profile', 'run', 'x.sock');
    await prepareControlSocketDir(socket);
    expect(lstatSync(dirname(socket)).mode & 0o777).toBe(0o700);
    chmodSync(dirname(socket), 0o755);
    await prepareControlSocketDir(socket);
    expect(lstatSync(dirname(socket)).mode & 0o777).toBe(0o700);
  });

  it('is not trusted when it is a symbolic link (someone else’s folder could be behind it)', async () => {
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'run'));
    const socket = join(dir, 'run', 'x.sock');
    await expect(prepareControlSocketDir(socket)).rejects.toMatchObject({ code: 'CONTROL_SOCKET_FAILED' });
    await expect(checkControlSocketDir(socket)).rejects.toMatchObject({ code: 'CONTROL_SOCKET_FAILED' });
  });

  it('is reported absent (no service) when it does not exist', async () => {
    await expect(checkControlSocketDir(join(dir, 'none', 'x.sock'))).resolves.toBeUndefined();
  });
});
