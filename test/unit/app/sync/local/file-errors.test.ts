// The one errno mapping of the sync: each system code becomes a stable code and words by what the user can do.
import { describe, expect, it } from 'vitest';
import { errnoOf, fileError, fileErrorOf } from '../../../../../app/sync/local/file-errors.ts';
import { remedyOf, unsyncedItem } from '../../../../../app/sync/pass-report.ts';
import { FileError } from '../../../../../app/sync/local/file-errors.ts';

describe('fileErrorOf', () => {
  it.each([
    ['ENOSPC', 'read', 'DISK_FULL', 'needs-you'],
    ['EDQUOT', 'write', 'DISK_FULL', 'needs-you'],
    ['EROFS', 'trash', 'READ_ONLY', 'needs-you'],
    ['EACCES', 'read', 'PERMISSION_DENIED', 'needs-you'],
    ['EPERM', 'move', 'PERMISSION_DENIED', 'needs-you'],
    ['EIO', 'read', 'DISK_ERROR', 'needs-you'],
    ['ENAMETOOLONG', 'list', 'PATH_TOO_LONG', 'never-as-is'],
    ['EILSEQ', 'write', 'NAME_NOT_ALLOWED', 'never-as-is'],
    ['EINVAL', 'create-folder', 'NAME_NOT_ALLOWED', 'never-as-is'],
    ['EINVAL', 'read', 'FILE_ERROR', 'retry-later'],
    ['EFBIG', 'write', 'FILE_TOO_LARGE', 'never-as-is'],
    ['EBUSY', 'trash', 'FILE_BUSY', 'retry-later'],
    ['EMFILE', 'read', 'TOO_MANY_OPEN_FILES', 'retry-later'],
    ['ENOENT', 'move', 'CHANGED_MEANWHILE', 'retry-later'],
    ['EWHATEVER', 'read', 'FILE_ERROR', 'retry-later'],
  ] as const)('%s while doing %s is %s, which is %s', (errno, action, code, remedy) => {
    const error = fileErrorOf(errno, action);
    expect(error).toBeInstanceOf(FileError);
    expect(error).toMatchObject({ code, errno });
    expect(remedyOf(unsyncedItem(error.code, 'x', error.message))).toBe(remedy);
  });

  it('names the space a download needs and what is free', () => {
    const error = fileErrorOf('ENOSPC', 'write', { space: { neededBytes: 3_000_000, freeBytes: 1_000_000 } });
    expect(error.message).toBe(
      "It cannot be written here: this computer's disk is full: it needs 3.0 MB and 1.0 MB is free. Free at least 2.0 MB more; the next run tries again.",
    );
  });

  it('says what was being done: reading a file, listing a folder, writing here, the trash', () => {
    expect(fileErrorOf('EACCES', 'read').message).toMatch(
      /^It cannot be read: permission denied\. .*chmod u\+r\)/,
    );
    expect(fileErrorOf('EACCES', 'list').message).toMatch(/^This folder cannot be read: .*chmod u\+rx\)/);
    expect(fileErrorOf('EACCES', 'write').message).toMatch(/^It cannot be written here: .*chmod u\+w\)/);
    expect(fileErrorOf('EROFS', 'trash').message).toMatch(
      /^It was deleted on the device, but it cannot be moved to the trash here: the disk is read-only/,
    );
  });
});

describe('fileError', () => {
  it('reads only file system errors: an error of the project with a code is none', () => {
    expect(errnoOf(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('EACCES');
    expect(errnoOf(Object.assign(new Error('x'), { code: 'NETWORK' }))).toBeUndefined();
    expect(errnoOf(fileErrorOf('EACCES', 'read'))).toBeUndefined();
    expect(fileError(new Error('plain'), 'read')).toBeUndefined();
  });
});
