// Tray support: tray or the window at start with why and how, decided from the probe; the probe itself on a real session bus.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import {
  probeStatusNotifierWatcher,
  traySupportOf,
  type TrayHostProbe,
  type ToolRunner,
} from '../../../../app/desktop/tray-support.ts';
import { runTool, ToolMissingError } from '../../../../app/system/run-tool.ts';
import { SYSTEM_PYTHON, missingGi } from '../../../helpers/python-gi.ts';

const noWatcher: TrayHostProbe = { statusNotifierWatcher: false, xembedTray: null };
const gnomeWayland = {
  XDG_SESSION_TYPE: 'wayland',
  XDG_CURRENT_DESKTOP: 'ubuntu:GNOME',
  WAYLAND_DISPLAY: 'wayland-0',
};

describe('traySupportOf', () => {
  it('Windows and macOS always have a tray', () => {
    for (const platform of ['win32', 'darwin'] as const) {
      expect(traySupportOf({ platform, env: {}, probe: noWatcher })).toEqual({
        kind: 'tray',
        host: 'platform',
      });
    }
  });

  it('Linux with a StatusNotifierWatcher on the bus: the tray', () => {
    const probe = { statusNotifierWatcher: true, xembedTray: null };
    expect(traySupportOf({ platform: 'linux', env: gnomeWayland, probe })).toEqual({
      kind: 'tray',
      host: 'status-notifier',
    });
  });

  it('Linux X11 without a watcher but with an XEmbed tray: the tray (Electron falls back to GtkStatusIcon)', () => {
    const probe = { statusNotifierWatcher: false, xembedTray: true };
    const env = { XDG_SESSION_TYPE: 'x11', XDG_CURRENT_DESKTOP: 'XFCE', DISPLAY: ':0' };
    expect(traySupportOf({ platform: 'linux', env, probe })).toEqual({ kind: 'tray', host: 'xembed' });
  });

  it('an XEmbed tray does not count on Wayland, told by the session type or by WAYLAND_DISPLAY', () => {
    const probe = { statusNotifierWatcher: false, xembedTray: true };
    expect(traySupportOf({ platform: 'linux', env: gnomeWayland, probe }).kind).toBe('window');
    expect(traySupportOf({ platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-1' }, probe }).kind).toBe(
      'window',
    );
  });

  it('GNOME without the extension: the window at start, saying why and naming the AppIndicator extension', () => {
    const support = traySupportOf({ platform: 'linux', env: gnomeWayland, probe: noWatcher });
    expect(support.kind).toBe('window');
    if (support.kind !== 'window') return;
    expect(support.title).toBe('No tray on this desktop');
    expect(support.message).toContain('nothing on the session D-Bus owns org.kde.StatusNotifierWatcher');
    expect(support.message).toContain('this window opens at start instead');
    expect(support.message).toContain('"AppIndicator and KStatusNotifierItem Support" extension');
    expect(support.message).toContain('gnome-shell-extension-appindicator');
  });

  it('tiling window managers get a bar with a tray or snixembed; other desktops the general advice', () => {
    const sway = traySupportOf({ platform: 'linux', env: { XDG_CURRENT_DESKTOP: 'sway' }, probe: noWatcher });
    expect(sway.kind === 'window' && sway.message).toContain('snixembed');
    const other = traySupportOf({
      platform: 'linux',
      env: { XDG_CURRENT_DESKTOP: 'Pantheon' },
      probe: noWatcher,
    });
    expect(other.kind === 'window' && other.message).toContain('add a system tray (StatusNotifierItem)');
    expect(other.kind === 'window' && other.message).not.toContain('AppIndicator');
  });

  it('a bus that could not be asked is said so, and still opens the window', () => {
    const probe = { statusNotifierWatcher: null, xembedTray: null };
    const support = traySupportOf({ platform: 'linux', env: {}, probe });
    expect(support.kind === 'window' && support.message).toContain('no session D-Bus answered');
  });
});

describe('probeStatusNotifierWatcher, decisions from the tool runs', () => {
  const runner =
    (
      results: Record<string, { code: number | null; stderr: string } | 'missing'>,
      seen: string[],
    ): ToolRunner =>
    async (command) => {
      seen.push(command);
      const result = results[command];
      if (result === undefined || result === 'missing') throw new ToolMissingError(command);
      return result;
    };

  it('falls back to gdbus when dbus-send is not installed', async () => {
    const seen: string[] = [];
    const run = runner({ 'dbus-send': 'missing', gdbus: { code: 0, stderr: '' } }, seen);
    expect(await probeStatusNotifierWatcher(run, {})).toBe(true);
    expect(seen).toEqual(['dbus-send', 'gdbus']);
  });

  it('is null when neither tool is there, or the bus does not answer', async () => {
    expect(await probeStatusNotifierWatcher(runner({}, []), {})).toBeNull();
    const seen: string[] = [];
    const noBus = { code: 1, stderr: 'Failed to open connection to "session" message bus' };
    expect(await probeStatusNotifierWatcher(runner({ 'dbus-send': noBus }, seen), {})).toBeNull();
    expect(seen).toEqual(['dbus-send']);
  });
});

/** A private session bus from dbus-run-session, alive until `end`; nothing is left behind. */
async function privateBus(): Promise<{ address: string; end: () => Promise<void> }> {
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', 'echo "$DBUS_SESSION_BUS_ADDRESS"; read _'], {
    // Its stderr only complains that it may not raise its fd limit here.
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout });
  const address = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dbus-run-session ended early (${code})`)));
  });
  const end = async (): Promise<void> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end('\n');
    await exited;
  };
  return { address, end };
}

/** Owns a bus name from python (PyGObject) until killed; resolves once the name is owned. */
async function ownName(address: string, name: string): Promise<ChildProcess> {
  const code = [
    'from gi.repository import Gio, GLib',
    `Gio.bus_own_name(Gio.BusType.SESSION, ${JSON.stringify(name)}, Gio.BusNameOwnerFlags.NONE, None,`,
    "  lambda *a: print('owned', flush=True), lambda *a: print('lost', flush=True))",
    'GLib.MainLoop().run()',
  ].join('\n');
  const child = spawn(SYSTEM_PYTHON, ['-c', code], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('error', reject);
  });
  if (line !== 'owned') throw new Error(`python could not own ${name}: ${line}`);
  return child;
}

describe('probeStatusNotifierWatcher on a real session bus', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a fresh bus has no watcher: false, through dbus-send and through gdbus', async () => {
    const bus = await privateBus();
    cleanups.push(bus.end);
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus.address };
    expect(await probeStatusNotifierWatcher(runTool, env)).toBe(false);
    const gdbusOnly: ToolRunner = (command, args, options) =>
      command === 'dbus-send'
        ? Promise.reject(new ToolMissingError(command))
        : runTool(command, args, options);
    expect(await probeStatusNotifierWatcher(gdbusOnly, env)).toBe(false);
  });

  it('no session bus to reach: null', async () => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/mch-sync-test-bus' };
    expect(await probeStatusNotifierWatcher(runTool, env)).toBeNull();
  });

  it.skipIf(missingGi() !== undefined)('a watcher owning its name on the bus: true', async () => {
    const bus = await privateBus();
    cleanups.push(bus.end);
    const owner = await ownName(bus.address, 'org.kde.StatusNotifierWatcher');
    cleanups.push(async () => {
      const exited = new Promise((resolve) => owner.once('exit', resolve));
      owner.kill('SIGTERM');
      await exited;
    });
    expect(
      await probeStatusNotifierWatcher(runTool, { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus.address }),
    ).toBe(true);
  });
});
