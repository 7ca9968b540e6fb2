// Watcher failures: each errno code gives a typed error whose message says what to do.
import { describe as group, expect, it } from 'vitest';
import { liveWatchError, rootChangedError } from '../../../../app/watcher/watch-errors.ts';

function errno(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code });
}

group('liveWatchError', () => {
  it('ENOSPC is the inotify watch limit, with the commands that raise it for good', () => {
    const error = liveWatchError(errno('ENOSPC'));
    expect(error).toMatchObject({ code: 'WATCH_LIMIT', reason: 'watch-limit' });
    expect(error.message).toContain('sudo sysctl fs.inotify.max_user_watches=524288');
    expect(error.message).toContain('/etc/sysctl.d/');
  });

  it('EMFILE is running out of open files, with how to raise that limit', () => {
    const error = liveWatchError(errno('EMFILE'));
    expect(error).toMatchObject({ code: 'TOO_MANY_OPEN_FILES', reason: 'too-many-files' });
    expect(error.message).toContain('ulimit -n');
  });

  it('any other failure asks for a rescan and keeps the cause', () => {
    const cause = errno('EIO');
    const error = liveWatchError(cause);
    expect(error).toMatchObject({ code: 'WATCHER_FAILED', reason: 'watcher-error', cause });
    expect(error.message).toContain('EIO');
  });

  it('a vanished root says nothing is deleted on the device', () => {
    expect(rootChangedError('/home/u/Sync')).toMatchObject({ code: 'ROOT_CHANGED', reason: 'root-changed' });
  });
});
