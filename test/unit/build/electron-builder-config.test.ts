// electron-builder.yml passes electron-builder's own schema and agrees with the files in build/ it names.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';

const projectDir = join(import.meta.dirname, '..', '..', '..');
const config = await getConfig(projectDir, 'electron-builder.yml', null);

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is checked by a validator that rejects a misspelt option', async () => {
    const wrong = { ...config, nsis: { ...config.nsis, perMachin: false } };
    await expect(validateConfiguration(wrong, new DebugLogger(false))).rejects.toThrow(
      /Invalid configuration object/,
    );
  });

  it('builds the installers of desktop-app.md §7', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toBe('nsis');
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, include: 'build/installer.nsh' });
    expect(config.mac?.target).toBe('dmg');
    expect(config.mac?.extendInfo).toMatchObject({ LSUIElement: true });
    expect(config.directories?.output).toBe('dist/packages');
  });

  it('names files that exist', () => {
    const named = [
      config.linux?.icon,
      config.win?.icon,
      config.mac?.icon,
      config.nsis?.include,
      'build/icons/tray',
      'build/linux/mch-sync.desktop',
      'build/macos/Copy Share Link.workflow/Contents/Info.plist',
    ];
    for (const path of named) expect(existsSync(join(projectDir, String(path))), String(path)).toBe(true);
  });

  it('unpacks every native module from the asar', () => {
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/*.node',
        'node_modules/better-sqlite3/**',
        'node_modules/@napi-rs/keyring*/**',
        'dist/app/native/**',
      ]),
    );
  });

  it('gives the installed desktop entry the words of build/linux/mch-sync.desktop', () => {
    const entry = Object.fromEntries(
      readFileSync(join(projectDir, 'build/linux/mch-sync.desktop'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const linux = config.linux ?? {};
    expect(linux.description).toBe(entry['Comment']);
    expect(`${linux.category ?? ''};`).toBe(entry['Categories']);
    expect(linux.executableName).toBe(entry['Exec']);
    expect(linux.executableName).toBe(entry['Icon']);
    for (const key of ['Name', 'GenericName', 'Keywords', 'StartupNotify', 'X-GNOME-UsesNotifications']) {
      expect(linux.desktop?.entry?.[key], key).toBe(entry[key]);
    }
  });
});
