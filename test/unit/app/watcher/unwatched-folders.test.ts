// Folders left unwatched by the inotify limit are remembered from the watcher's errors and read by polls.
import { describe as group, expect, it } from 'vitest';
import { UnwatchedFolders } from '../../../../app/watcher/unwatched-folders.ts';

/** The error Node's fs.watch throws when the limit is reached, as chokidar 6 hands it over. */
function limitError(path: string): Error {
  return Object.assign(
    new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`),
    {
      code: 'ENOSPC',
      path,
    },
  );
}

group('UnwatchedFolders', () => {
  it('remembers the folder of each watch-limit error, relative to the root', () => {
    const unwatched = new UnwatchedFolders('/home/u/Sync');
    expect(unwatched.note(limitError('/home/u/Sync/photos/2024'))).toBe(true);
    expect(unwatched.note(limitError('/home/u/Sync/docs'))).toBe(true);
    expect(unwatched.affectedPaths()).toEqual(['docs', 'photos/2024']);
  });

  it('a folder under one already listed adds nothing to read', () => {
    const unwatched = new UnwatchedFolders('/home/u/Sync');
    unwatched.note(limitError('/home/u/Sync/photos'));
    unwatched.note(limitError('/home/u/Sync/photos/2024'));
    expect(unwatched.size).toBe(2);
    expect(unwatched.affectedPaths()).toEqual(['photos']);
  });

  it('many unwatched folders collapse to fewer subtrees, up to the whole folder', () => {
    const unwatched = new UnwatchedFolders('/home/u/Sync');
    for (let index = 0; index < 200; index += 1) unwatched.note(limitError(`/home/u/Sync/top/f${index}`));
    expect(unwatched.affectedPaths()).toEqual(['top']);
  });

  it('other errors, and paths outside the root, are not recorded', () => {
    const unwatched = new UnwatchedFolders('/home/u/Sync');
    const emfile = Object.assign(new Error('EMFILE'), { code: 'EMFILE', path: '/home/u/Sync/a' });
    expect(unwatched.note(emfile)).toBe(false);
    expect(unwatched.note(limitError('/home/u/Other/a'))).toBe(false);
    expect(unwatched.note(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))).toBe(false);
    expect(unwatched.affectedPaths()).toEqual([]);
  });

  it('a relative path is read against the root (chokidar with cwd)', () => {
    const unwatched = new UnwatchedFolders('/home/u/Sync');
    expect(unwatched.note(limitError('music'))).toBe(true);
    expect(unwatched.affectedPaths()).toEqual(['music']);
  });
});
