// Where the profile lives: flag, then MCH_PROFILE, then the platform's config folder.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProfileDir, resolveProfileDir } from '../../../../app/profile/profile-dir.ts';

describe('resolveProfileDir', () => {
  it('prefers --profile, then MCH_PROFILE, and makes the path absolute', () => {
    const env = { MCH_PROFILE: '/srv/mch' };
    expect(resolveProfileDir({ flag: 'rel/profile', env })).toBe(resolve('rel/profile'));
    expect(resolveProfileDir({ env })).toBe('/srv/mch');
    expect(resolveProfileDir({ env: { MCH_PROFILE: '' }, platform: 'linux', home: '/home/a' })).toBe(
      '/home/a/.config/mch-sync',
    );
  });
});

describe('defaultProfileDir', () => {
  it('follows XDG_CONFIG_HOME on Linux, ignoring a relative one', () => {
    expect(defaultProfileDir({ XDG_CONFIG_HOME: '/x/config' }, 'linux', '/home/a')).toBe(
      '/x/config/mch-sync',
    );
    expect(defaultProfileDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/a')).toBe(
      '/home/a/.config/mch-sync',
    );
    expect(defaultProfileDir({}, 'freebsd', '/home/a')).toBe('/home/a/.config/mch-sync');
  });

  it('uses Application Support on macOS and APPDATA on Windows', () => {
    expect(defaultProfileDir({}, 'darwin', '/Users/a')).toBe('/Users/a/Library/Application Support/mch-sync');
    expect(defaultProfileDir({ APPDATA: '/c/Users/a/AppData/Roaming' }, 'win32', '/c/Users/a')).toBe(
      '/c/Users/a/AppData/Roaming/mch-sync',
    );
  });
});
