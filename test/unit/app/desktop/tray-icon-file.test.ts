// trayIconFile: the platform's icon format, from build/ in development and from the resources when packed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trayIconFile } from '../../../../app/desktop/tray-icon-file.ts';

const base = { stem: 'tray-syncing', resourcesPath: '/opt/mch/resources', appPath: '/src/mch' };

describe('trayIconFile', () => {
  it.each<[NodeJS.Platform, boolean, string]>([
    ['linux', false, join('/src/mch', 'build', 'icons', 'tray', 'tray-syncing.png')],
    ['linux', true, join('/opt/mch/resources', 'icons', 'tray', 'tray-syncing.png')],
    ['darwin', true, join('/opt/mch/resources', 'icons', 'tray', 'tray-syncingTemplate.png')],
    ['win32', true, join('/opt/mch/resources', 'icons', 'tray', 'tray-syncing.ico')],
  ])('on %s (packed: %s) is %s', (platform, isPackaged, file) => {
    expect(trayIconFile({ ...base, platform, isPackaged })).toBe(file);
  });

  it('refuses a stem that is not a plain name', () => {
    expect(() => trayIconFile({ ...base, stem: '../../x', platform: 'linux', isPackaged: true })).toThrow();
  });
});
