// Remote deletes move local items to a trash: the freedesktop.org home trash, ~/.Trash, or the folder trash.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BugError } from '../../../../../common/errors.ts';
import { mountPointOf, moveToTopdirTrash } from '../../../../../app/sync/trash/freedesktop-trash.ts';
import {
  moveToTrash,
  TrashError,
  type MoveToTrashOptions,
} from '../../../../../app/sync/trash/local-trash.ts';

let temp: string;
let root: string;
let home: string;
let dataHome: string;
/** 2026-03-04 05:06:07 local time. */
const deletedAt = new Date(2026, 2, 4, 5, 6, 7).getTime();

function write(path: string, content: string | Buffer = 'x'): string {
  const absolute = join(root, path);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, content);
  return absolute;
}

function options(extra: Partial<MoveToTrashOptions> = {}): MoveToTrashOptions {
  return {
    syncRoot: root,
    platform: 'linux',
    env: { HOME: home, XDG_DATA_HOME: dataHome },
    now: () => deletedAt,
    ...extra,
  };
}

/** The keys of a `.trashinfo` file, after checking its group header. */
function parseTrashInfo(path: string): Record<string, string> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  expect(lines[0]).toBe('[Trash Info]');
  return Object.fromEntries(
    lines.slice(1).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'mch-trash-'));
  root = join(temp, 'sync');
  home = join(temp, 'home');
  dataHome = join(home, 'data');
  mkdirSync(root);
  mkdirSync(home);
});

afterEach(() => {
  chmodSync(temp, 0o700);
  rmSync(temp, { recursive: true, force: true });
});

describe('moveToTrash on Linux (freedesktop.org home trash)', () => {
  it('moves a file to files/ with a .trashinfo holding its absolute path and the local deletion time', async () => {
    const content = randomBytes(64 * 1024);
    const source = write('docs/report.bin', content);

    const result = await moveToTrash(source, options());

    const trash = join(dataHome, 'Trash');
    expect(result).toEqual({ kind: 'os-trash', location: join(trash, 'files', 'report.bin') });
    expect(existsSync(source)).toBe(false);
    expect(readFileSync(result.location).equals(content)).toBe(true);
    const info = parseTrashInfo(join(trash, 'info', 'report.bin.trashinfo'));
    expect(info).toEqual({ Path: source, DeletionDate: '2026-03-04T05:06:07' });
  });

  it('creates the trash folders private to the user when they are missing', async () => {
    const result = await moveToTrash(write('a.txt'), options());
    expect(result.kind).toBe('os-trash');
    for (const folder of ['Trash', 'Trash/files', 'Trash/info']) {
      expect(lstatSync(join(dataHome, folder)).mode & 0o777).toBe(0o700);
    }
  });

  it('moves a whole folder with everything in it, byte for byte', async () => {
    write('album/one.jpg', 'first');
    write('album/deep/two.jpg', 'second');
    const result = await moveToTrash(join(root, 'album'), options());

    expect(result.location).toBe(join(dataHome, 'Trash', 'files', 'album'));
    expect(existsSync(join(root, 'album'))).toBe(false);
    expect(readFileSync(join(result.location, 'one.jpg'), 'utf8')).toBe('first');
    expect(readFileSync(join(result.location, 'deep', 'two.jpg'), 'utf8')).toBe('second');
    expect(parseTrashInfo(join(dataHome, 'Trash', 'info', 'album.trashinfo'))['Path']).toBe(
      join(root, 'album'),
    );
  });

  it('gives a second item of the same name name.2, with its own .trashinfo', async () => {
    const first = await moveToTrash(write('a/notes.txt', 'one'), options());
    const second = await moveToTrash(write('b/notes.txt', 'two'), options());

    const trash = join(dataHome, 'Trash');
    expect(first.location).toBe(join(trash, 'files', 'notes.txt'));
    expect(second.location).toBe(join(trash, 'files', 'notes.txt.2'));
    expect(readFileSync(first.location, 'utf8')).toBe('one');
    expect(readFileSync(second.location, 'utf8')).toBe('two');
    expect(parseTrashInfo(join(trash, 'info', 'notes.txt.2.trashinfo'))['Path']).toBe(
      join(root, 'b', 'notes.txt'),
    );
  });

  it('never replaces an entry of files/ that has no .trashinfo', async () => {
    mkdirSync(join(dataHome, 'Trash', 'files'), { recursive: true });
    writeFileSync(join(dataHome, 'Trash', 'files', 'notes.txt'), 'stray');

    const result = await moveToTrash(write('notes.txt', 'mine'), options());

    expect(result.location).toBe(join(dataHome, 'Trash', 'files', 'notes.txt.2'));
    expect(readFileSync(join(dataHome, 'Trash', 'files', 'notes.txt'), 'utf8')).toBe('stray');
    expect(readdirSync(join(dataHome, 'Trash', 'info'))).toEqual(['notes.txt.2.trashinfo']);
  });

  it('percent-encodes spaces and non-ASCII names in Path= and keeps the name as it is in files/', async () => {
    const name = 'Résumé été 日本 #1%.txt';
    const source = write(`my folder/${name}`, 'text');

    const result = await moveToTrash(source, options());

    expect(basename(result.location)).toBe(name);
    const path = parseTrashInfo(join(dataHome, 'Trash', 'info', `${name}.trashinfo`))['Path'] ?? '';
    expect(path).toMatch(/^[A-Za-z0-9\-_.!~*'()%/]+$/);
    expect(path).toContain('my%20folder/R%C3%A9sum%C3%A9%20%C3%A9t%C3%A9%20');
    expect(decodeURIComponent(path)).toBe(source);
  });

  it('takes a name that starts with two dots', async () => {
    const result = await moveToTrash(write('..hidden'), options());
    expect(result.location).toBe(join(dataHome, 'Trash', 'files', '..hidden'));
  });

  it('uses $HOME/.local/share/Trash when XDG_DATA_HOME is unset or not absolute', async () => {
    const result = await moveToTrash(
      write('a.txt'),
      options({ env: { HOME: home, XDG_DATA_HOME: 'relative/data' } }),
    );
    expect(result.location).toBe(join(home, '.local', 'share', 'Trash', 'files', 'a.txt'));
  });

  it('moves a symlink as the link itself, never its target', async () => {
    const target = write('target.txt', 'kept');
    symlinkSync(target, join(root, 'link'));

    const result = await moveToTrash(join(root, 'link'), options());

    expect(lstatSync(result.location).isSymbolicLink()).toBe(true);
    expect(readlinkSync(result.location)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('kept');
  });
});

describe('the top-directory trash (files on another device than the home trash)', () => {
  const uid = process.getuid?.() ?? 0;

  it('creates $topdir/.Trash-$uid with mode 0700 and writes Path= relative to the top directory', async () => {
    const source = write('sub dir/a.txt', 'content');
    const dev = lstatSync(source).dev;

    const location = await moveToTopdirTrash(source, dev, temp, { uid, now: deletedAt });

    const trash = join(temp, `.Trash-${uid}`);
    expect(location).toBe(join(trash, 'files', 'a.txt'));
    expect(lstatSync(trash).mode & 0o777).toBe(0o700);
    expect(readFileSync(location, 'utf8')).toBe('content');
    expect(parseTrashInfo(join(trash, 'info', 'a.txt.trashinfo'))['Path']).toBe('sync/sub%20dir/a.txt');
  });

  it('uses $topdir/.Trash/$uid when an administrator made .Trash sticky', async () => {
    mkdirSync(join(temp, '.Trash'));
    chmodSync(join(temp, '.Trash'), 0o1777);
    const source = write('a.txt');

    const location = await moveToTopdirTrash(source, lstatSync(source).dev, temp, { uid, now: deletedAt });

    expect(location).toBe(join(temp, '.Trash', String(uid), 'files', 'a.txt'));
  });

  it('ignores a .Trash without the sticky bit', async () => {
    mkdirSync(join(temp, '.Trash'));
    const source = write('a.txt');

    const location = await moveToTopdirTrash(source, lstatSync(source).dev, temp, { uid, now: deletedAt });

    expect(location).toBe(join(temp, `.Trash-${uid}`, 'files', 'a.txt'));
  });

  it('finds the mount point as the highest ancestor on the same device', async () => {
    const source = write('deep/er/a.txt');
    const top = await mountPointOf(source, lstatSync(source).dev);
    expect(source.startsWith(top)).toBe(true);
    expect(lstatSync(top).dev).toBe(lstatSync(source).dev);
    if (top !== '/') expect(lstatSync(dirname(top)).dev).not.toBe(lstatSync(source).dev);
  });
});

describe('moveToTrash falls back to <syncRoot>/.mch-sync/trash/', () => {
  const stamp = new Date(deletedAt).toISOString().replaceAll(':', '-');

  it('when XDG_DATA_HOME is a file, keeping the relative path under a timestamp', async () => {
    writeFileSync(dataHome, 'not a folder');
    const source = write('docs/2026/plan.txt', 'plan');

    const result = await moveToTrash(source, options());

    const expected = join(root, '.mch-sync', 'trash', stamp, 'docs', '2026', 'plan.txt');
    expect(result).toEqual({ kind: 'folder-trash', location: expected });
    expect(readFileSync(expected, 'utf8')).toBe('plan');
    expect(existsSync(source)).toBe(false);
  });

  it('when the trash has a file where its info/ folder should be', async () => {
    mkdirSync(join(dataHome, 'Trash'), { recursive: true });
    writeFileSync(join(dataHome, 'Trash', 'info'), 'not a folder');
    const result = await moveToTrash(write('a.txt'), options());
    expect(result.kind).toBe('folder-trash');
    expect(readFileSync(join(dataHome, 'Trash', 'info'), 'utf8')).toBe('not a folder');
  });

  // Root ignores permissions, so this one runs only as an ordinary user.
  it.skipIf(process.getuid?.() === 0)('when the trash folder is read-only', async () => {
    mkdirSync(join(dataHome, 'Trash', 'info'), { recursive: true });
    mkdirSync(join(dataHome, 'Trash', 'files'));
    chmodSync(join(dataHome, 'Trash', 'info'), 0o500);
    try {
      const result = await moveToTrash(write('a.txt'), options());
      expect(result.kind).toBe('folder-trash');
    } finally {
      chmodSync(join(dataHome, 'Trash', 'info'), 0o700);
    }
  });

  it('on Windows, where the Recycle Bin needs native code', async () => {
    const result = await moveToTrash(write('a/b.txt'), options({ platform: 'win32' }));
    expect(result).toEqual({
      kind: 'folder-trash',
      location: join(root, '.mch-sync', 'trash', stamp, 'a', 'b.txt'),
    });
  });

  it('never over an item already there: the next one goes to <timestamp>-2', async () => {
    const first = await moveToTrash(write('a/b.txt', 'one'), options({ platform: 'win32' }));
    const second = await moveToTrash(write('a/b.txt', 'two'), options({ platform: 'win32' }));

    expect(second.location).toBe(join(root, '.mch-sync', 'trash', `${stamp}-2`, 'a', 'b.txt'));
    expect(readFileSync(first.location, 'utf8')).toBe('one');
    expect(readFileSync(second.location, 'utf8')).toBe('two');
  });

  it('moves a whole folder and keeps its content byte for byte', async () => {
    const content = randomBytes(10_000);
    write('photos/raw/1.dng', content);
    const result = await moveToTrash(join(root, 'photos'), options({ platform: 'win32' }));
    expect(readFileSync(join(result.location, 'raw', '1.dng')).equals(content)).toBe(true);
  });
});

describe('moveToTrash on macOS', () => {
  it('moves into ~/.Trash, naming a second item "name 2.ext"', async () => {
    mkdirSync(join(home, '.Trash'));
    const first = await moveToTrash(write('a/photo.jpg', 'one'), options({ platform: 'darwin' }));
    const second = await moveToTrash(write('b/photo.jpg', 'two'), options({ platform: 'darwin' }));

    expect(first).toEqual({ kind: 'os-trash', location: join(home, '.Trash', 'photo.jpg') });
    expect(second.location).toBe(join(home, '.Trash', 'photo 2.jpg'));
    expect(readFileSync(second.location, 'utf8')).toBe('two');
  });

  it('uses the folder trash when there is no ~/.Trash', async () => {
    const result = await moveToTrash(write('a.txt'), options({ platform: 'darwin' }));
    expect(result.kind).toBe('folder-trash');
  });
});

describe('moveToTrash failures', () => {
  it('says TRASH_SOURCE_MISSING when there is nothing to move', async () => {
    const error: unknown = await moveToTrash(join(root, 'gone.txt'), options()).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TrashError);
    expect((error as TrashError).code).toBe('TRASH_SOURCE_MISSING');
  });

  it('throws TRASH_FAILED and leaves the item in place when no trash can take it', async () => {
    writeFileSync(dataHome, 'not a folder');
    writeFileSync(join(root, '.mch-sync'), 'not a folder either');
    const source = write('keep.txt', 'still here');

    const error: unknown = await moveToTrash(source, options()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrashError);
    expect((error as TrashError).code).toBe('TRASH_FAILED');
    expect(readFileSync(source, 'utf8')).toBe('still here');
  });

  it('refuses a path outside the sync root, and the root itself, as a bug', async () => {
    const outside = join(temp, 'outside.txt');
    writeFileSync(outside, 'x');
    await expect(moveToTrash(outside, options())).rejects.toBeInstanceOf(BugError);
    await expect(moveToTrash(root, options())).rejects.toBeInstanceOf(BugError);
    expect(existsSync(outside)).toBe(true);
  });
});
