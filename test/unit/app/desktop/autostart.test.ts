// Start at login: the Linux autostart entry as GLib and desktop-file-validate read it, its install and removal, and the login-item port of macOS and Windows.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  autostartDir,
  autostartFor,
  LinuxAutostart,
  LoginItemAutostart,
  renderAutostartEntry,
  type AutostartEntry,
} from '../../../../app/desktop/autostart.ts';
import { appCommand } from '../../../../app/desktop/app-command.ts';
import { missingGi, pythonJson } from '../../../helpers/python-gi.ts';

const work = mkdtempSync(join(tmpdir(), 'mch-autostart-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENTRY: AutostartEntry = {
  appId: 'mch-sync',
  name: 'MCH Sync',
  comment: 'Keeps your folders in sync with your device',
  icon: 'mch-sync',
  command: ['/opt/My Apps/MCH "Sync"/mch-sync', '--profile', "/home/ann/it's 100% $HOME ✓", '--hidden'],
};

let homes = 0;
function newHome(): string {
  homes += 1;
  const home = join(work, `home-${homes}`);
  mkdirSync(home);
  return home;
}

// The entry as GLib reads it: key file values (escapes undone), then Exec as launchers split it
// (%% is a literal %, then g_shell_parse_argv).
const READ_ENTRY = `
import json, sys
import gi
gi.require_version("GLib", "2.0")
from gi.repository import GLib
key_file = GLib.KeyFile()
key_file.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
group = "Desktop Entry"
values = {key: key_file.get_string(group, key) for key in key_file.get_keys(group)[0]}
argv = GLib.shell_parse_argv(values["Exec"].replace("%%", "%"))[1]
print(json.dumps({"groups": key_file.get_groups()[0], "values": values, "argv": argv}))
`;

describe('the Linux autostart entry', () => {
  it('goes to $XDG_CONFIG_HOME/autostart, else ~/.config/autostart (a relative value is ignored)', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/x/conf' }, '/home/ann')).toBe('/x/conf/autostart');
    expect(autostartDir({}, '/home/ann')).toBe('/home/ann/.config/autostart');
    expect(autostartDir({ XDG_CONFIG_HOME: 'rel' }, '/home/ann')).toBe('/home/ann/.config/autostart');
  });

  it.skipIf(missingGi() !== undefined)(
    `reads back through GLib's key-file parser with the same argv (${missingGi() ?? 'gi found'})`,
    () => {
      const path = join(work, 'read.desktop');
      writeFileSync(path, renderAutostartEntry(ENTRY));
      const read = pythonJson<{ groups: string[]; values: Record<string, string>; argv: string[] }>(
        READ_ENTRY,
        [path],
      );
      expect(read.groups).toEqual(['Desktop Entry']);
      expect(read.values).toMatchObject({
        Type: 'Application',
        Name: 'MCH Sync',
        Icon: 'mch-sync',
        Terminal: 'false',
        'X-GNOME-Autostart-enabled': 'true',
      });
      expect(read.argv).toEqual(ENTRY.command);
    },
  );

  it.skipIf(!existsSync('/usr/bin/desktop-file-validate'))('passes desktop-file-validate', () => {
    const path = join(work, 'mch-sync.desktop');
    writeFileSync(path, renderAutostartEntry(ENTRY));
    const run = spawnSync('/usr/bin/desktop-file-validate', [path], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('installs once, is on, and removes cleanly, each any number of times', async () => {
    const home = newHome();
    const env = { XDG_CONFIG_HOME: join(home, 'conf') };
    const autostart = new LinuxAutostart({ entry: ENTRY, env, home });
    expect(autostart.path).toBe(join(home, 'conf', 'autostart', 'mch-sync.desktop'));
    expect(await autostart.isEnabled()).toBe(false);
    await autostart.setEnabled(false);
    await autostart.setEnabled(true);
    await autostart.setEnabled(true);
    expect(readdirSync(join(home, 'conf', 'autostart'))).toEqual(['mch-sync.desktop']);
    expect(readFileSync(autostart.path, 'utf8')).toBe(renderAutostartEntry(ENTRY));
    expect(await autostart.isEnabled()).toBe(true);
    await autostart.setEnabled(false);
    await autostart.setEnabled(false);
    expect(readdirSync(join(home, 'conf', 'autostart'))).toEqual([]);
    expect(await autostart.isEnabled()).toBe(false);
  });

  it('rewrites an entry of an app that moved, and sees one switched off by the desktop as off', async () => {
    const home = newHome();
    const old = new LinuxAutostart({
      entry: { ...ENTRY, command: ['/old/mch-sync', '--hidden'] },
      env: {},
      home,
    });
    await old.setEnabled(true);
    const now = new LinuxAutostart({ entry: ENTRY, env: {}, home });
    await now.setEnabled(true);
    expect(readFileSync(now.path, 'utf8')).toBe(renderAutostartEntry(ENTRY));
    writeFileSync(now.path, readFileSync(now.path, 'utf8').replace('enabled=true', 'enabled=false'));
    expect(await now.isEnabled()).toBe(false);
    writeFileSync(now.path, `${renderAutostartEntry(ENTRY)}Hidden=true\n`);
    expect(await now.isEnabled()).toBe(false);
    await now.setEnabled(true);
    expect(await now.isEnabled()).toBe(true);
  });
});

describe('macOS and Windows: login items through the glue', () => {
  it('asks for --hidden when turned on, nothing when off, and reads the port', async () => {
    const calls: Array<[boolean, string[]]> = [];
    let open = false;
    const port = {
      setLoginItem: (value: boolean, args: string[]) => {
        calls.push([value, args]);
        open = value;
      },
      getLoginItem: () => open,
    };
    const autostart = autostartFor({
      platform: 'win32',
      entry: ENTRY,
      env: {},
      home: '/h',
      loginItems: port,
    });
    expect(autostart).toBeInstanceOf(LoginItemAutostart);
    await autostart?.setEnabled(true);
    expect(await autostart?.isEnabled()).toBe(true);
    await autostart?.setEnabled(false);
    expect(calls).toEqual([
      [true, ['--hidden']],
      [false, []],
    ]);
    expect(await autostart?.isEnabled()).toBe(false);
  });

  it('has no switch without the glue (the headless host on macOS or Windows)', () => {
    expect(autostartFor({ platform: 'darwin', entry: ENTRY, env: {}, home: '/h' })).toBeNull();
    expect(autostartFor({ platform: 'linux', entry: ENTRY, env: {}, home: '/h' })).toBeInstanceOf(
      LinuxAutostart,
    );
  });
});

describe("the app's own command", () => {
  const base = { execPath: '/opt/MCH/mch-sync', appPath: '/opt/MCH/resources/app.asar', env: {} };

  it('is the executable when packaged, the AppImage file when run from one, Electron and the folder in development', () => {
    expect(appCommand({ ...base, isPackaged: true })).toEqual(['/opt/MCH/mch-sync']);
    expect(
      appCommand({ ...base, isPackaged: true, env: { APPIMAGE: '/home/ann/Apps/MCH Sync.AppImage' } }),
    ).toEqual(['/home/ann/Apps/MCH Sync.AppImage']);
    expect(
      appCommand({
        execPath: '/src/node_modules/electron/dist/electron',
        appPath: '/src',
        env: {},
        isPackaged: false,
      }),
    ).toEqual(['/src/node_modules/electron/dist/electron', '/src']);
  });
});
