// Whether a tray icon can show on this desktop (Linux: a StatusNotifier host or an XEmbed tray), else the window opens at start and says why (desktop-app.md §3).
import type { ToolOptions, ToolRun } from '../system/run-tool.ts';
import { ToolMissingError } from '../system/run-tool.ts';

/** What the glue found out about the desktop; null where it could not tell. */
export interface TrayHostProbe {
  /** `org.kde.StatusNotifierWatcher` is owned on the session bus (Electron's first choice on Linux). */
  statusNotifierWatcher: boolean | null;
  /**
   * An XEmbed system tray owns `_NET_SYSTEM_TRAY_S<screen>` on X11: Electron falls back to a
   * GtkStatusIcon there (electron#36815). Null when not looked at: nothing here reads X selections.
   */
  xembedTray: boolean | null;
}

export interface TraySupportInput {
  platform: NodeJS.Platform;
  /** `XDG_SESSION_TYPE` (`wayland`, `x11`), `XDG_CURRENT_DESKTOP` (`ubuntu:GNOME`, `KDE`, `sway`...), `DISPLAY`, `WAYLAND_DISPLAY`. */
  env: Readonly<Record<string, string | undefined>>;
  probe: TrayHostProbe;
}

export type TraySupport =
  | { kind: 'tray'; host: 'platform' | 'status-notifier' | 'xembed' }
  /**
   * No tray can be seen: the window opens at start with this message instead of the app running
   * invisibly. main/ still creates the tray (free, and it shows if a host appears or the probe missed
   * one) and keeps the app running when the window closes, as with a tray.
   */
  | { kind: 'window'; title: string; message: string };

export function traySupportOf(input: TraySupportInput): TraySupport {
  const { platform, env, probe } = input;
  // Windows' notification area and macOS's menu bar are always there.
  if (platform !== 'linux') return { kind: 'tray', host: 'platform' };
  if (probe.statusNotifierWatcher === true) return { kind: 'tray', host: 'status-notifier' };
  // GtkStatusIcon is an X11 window embedded in the tray: it cannot show on a Wayland session.
  if (probe.xembedTray === true && !isWayland(env)) return { kind: 'tray', host: 'xembed' };
  return { kind: 'window', title: 'No tray on this desktop', message: noTrayMessage(env, probe) };
}

function isWayland(env: TraySupportInput['env']): boolean {
  if (env['XDG_SESSION_TYPE'] !== undefined) return env['XDG_SESSION_TYPE'] === 'wayland';
  return env['WAYLAND_DISPLAY'] !== undefined && env['WAYLAND_DISPLAY'] !== '';
}

function noTrayMessage(env: TraySupportInput['env'], probe: TrayHostProbe): string {
  const desktops = (env['XDG_CURRENT_DESKTOP'] ?? '').toLowerCase().split(':');
  const why =
    probe.statusNotifierWatcher === null
      ? 'mch-sync could not ask this desktop whether it shows tray icons (no session D-Bus answered), '
      : 'This desktop shows no tray icons (nothing on the session D-Bus owns org.kde.StatusNotifierWatcher), ';
  const keep =
    'so this window opens at start instead. Closing it keeps your folders syncing; start mch-sync again to see it.';
  let how: string;
  if (desktops.includes('gnome')) {
    how =
      'To get a tray icon on GNOME, install and turn on the "AppIndicator and KStatusNotifierItem Support" ' +
      'extension (Debian and Ubuntu: the package gnome-shell-extension-appindicator; then log out and in).';
  } else if (desktops.some((name) => ['sway', 'i3', 'hyprland', 'river'].includes(name))) {
    how =
      'To get a tray icon, use a bar with a StatusNotifierItem tray (waybar\'s "tray" module) or, with an ' +
      'XEmbed tray, run snixembed.';
  } else {
    how = 'To get a tray icon, add a system tray (StatusNotifierItem) to your panel.';
  }
  return `${why}${keep} ${how}`;
}

/** runTool of app/system/run-tool.ts, or a stand-in with its signature. */
export type ToolRunner = (
  command: string,
  args: readonly string[],
  options?: ToolOptions,
) => Promise<ToolRun>;

const WATCHER = 'org.kde.StatusNotifierWatcher';

/**
 * Asks the session bus whether the watcher's name has an owner. GetNameOwner rather than
 * NameHasOwner, because its answer is in the exit code (the error NameHasNoOwner when there is
 * none), and run-tool keeps no stdout. Neither call starts a service that is only activatable. Tries
 * dbus-send (package dbus-bin), then gdbus (libglib2.0-bin); null when neither runs or the bus does
 * not answer.
 */
export async function probeStatusNotifierWatcher(
  run: ToolRunner,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean | null> {
  const attempts: Array<[string, string[]]> = [
    [
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.GetNameOwner',
        `string:${WATCHER}`,
      ],
    ],
    [
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.freedesktop.DBus',
        '--object-path',
        '/org/freedesktop/DBus',
        '--method',
        'org.freedesktop.DBus.GetNameOwner',
        WATCHER,
      ],
    ],
  ];
  for (const [command, args] of attempts) {
    let result: ToolRun;
    try {
      result = await run(command, args, { env, timeoutMs: 5_000 });
    } catch (error) {
      if (error instanceof ToolMissingError) continue;
      throw error;
    }
    if (result.code === 0) return true;
    if (result.stderr.includes('NameHasNoOwner')) return false;
    // No bus (no DBUS_SESSION_BUS_ADDRESS, a dead bus): the other tool would not reach it either.
    return null;
  }
  return null;
}
