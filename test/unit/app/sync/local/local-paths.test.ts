// Local paths from plan paths: anything that could leave the sync folder is refused.
import { describe, expect, it } from 'vitest';
import { isUnchanged, localPath, UnsafePathError } from '../../../../../app/sync/local/local-paths.ts';
import { msOfNs } from '../../../../../app/model/items.ts';
import type { LocalEntry } from '../../../../../app/model/items.ts';

describe('localPath', () => {
  it('joins safe relative paths under the root', () => {
    expect(localPath('/sync/root', 'a/b c/é.txt')).toBe('/sync/root/a/b c/é.txt');
  });

  it.each(['', '..', '../x', 'a/../../x', './a', 'a//b', 'a/', '/abs', 'a\\..\\x', 'nul\u0000x', '.'])(
    'refuses %j',
    (path) => {
      expect(() => localPath('/sync/root', path)).toThrow(UnsafePathError);
    },
  );
});

describe('isUnchanged', () => {
  const file: LocalEntry = { path: 'a', kind: 'file', inode: '7', size: 3, mtimeNs: 5n };

  it('needs the same inode, and for a file the same size and mtime', () => {
    expect(isUnchanged(file, { ...file })).toBe(true);
    expect(isUnchanged(file, { ...file, inode: '8' })).toBe(false);
    expect(isUnchanged(file, { ...file, size: 4 })).toBe(false);
    expect(isUnchanged(file, { ...file, mtimeNs: 6n })).toBe(false);
    expect(isUnchanged(file, undefined)).toBe(false);
    const folder: LocalEntry = { ...file, kind: 'folder', size: 0 };
    expect(isUnchanged(folder, { ...folder, mtimeNs: 99n })).toBe(true);
  });

  it('rounds nanoseconds to the nearest millisecond the device keeps', () => {
    expect(msOfNs(1_700_000_000_123_499_999n)).toBe(1_700_000_000_123);
    expect(msOfNs(1_700_000_000_677_999_000n)).toBe(1_700_000_000_678);
  });
});
