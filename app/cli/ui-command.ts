// `mch-sync ui [--port N] [--no-open]`: the window in a browser, served by the headless host on loopback, with every folder pair syncing, until stopped.
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { installRoot } from '../app-files.ts';
import { autostartFor } from '../desktop/autostart.ts';
import { profileKeyOf, SHARE_WORDS } from '../integrate/entry-description.ts';
import { ownCommand, profileWords } from '../integrate/entry-command.ts';
import { defaultProfileDir } from '../profile/profile-dir.ts';
import type { SystemSwitch } from '../system/system-switch.ts';
import { startUiHost, type UiHost } from '../ui-host/ui-host.ts';
import type { WindowRoute } from '../../common/window-route.ts';
import { StateError } from '../file-state/state-errors.ts';
import { UiCore } from '../ui/ui-core.ts';
import { terminalSafe } from '../search/terminal-text.ts';
import { ownBinPath } from './own-bin.ts';
import { UsageError, type CommandContext } from './terminal/cli-context.ts';

export const UI_USAGE = `Usage: mch-sync [--profile DIR] ui [--port N] [--no-open]

Shows the app's window in your browser: sign-in, folder pairs, status, activity, issues, shares,
search and settings. Every folder pair of the profile syncs live while it runs. The window is served
on 127.0.0.1 only, at an address with a secret of this run; the address is printed and opened in
the system browser. Ctrl+C (or SIGTERM) stops every pass cleanly.

Options:
  --port N    the port to listen on, 0 to 65535 (default, and 0: any free one)
  --no-open   print the address without opening a browser
  -h, --help  show this help`;

type Values = Record<string, string | boolean | undefined>;

/**
 * What the window's system switches do in the headless host. The file-manager entries run
 * `mch-sync share --copy --notify`. Start at login runs `mch-sync run` (every pair, live), not `ui
 * --no-open`: the window of a login-started host would be at an address with a secret nobody saw,
 * so what a person expects of it, their folders syncing from login on, is exactly `run`; `mch-sync
 * status` and `mch-sync ui` (once `run` is stopped) show it. Linux only: elsewhere the app does it.
 */
export function headlessSwitches(
  profileDir: string,
  env: NodeJS.ProcessEnv,
): { shareCommand: string[]; autostart: SystemSwitch | null } {
  const home = env['HOME'] ?? homedir();
  const defaultProfile = profileDir === defaultProfileDir(env, process.platform, home);
  const base = [
    ...ownCommand({ execPath: process.execPath, binPath: ownBinPath() }),
    ...profileWords(profileDir, defaultProfile),
  ];
  const autostart = autostartFor({
    platform: process.platform,
    env,
    home,
    entry: {
      appId: defaultProfile ? 'mch-sync-run' : `mch-sync-run-${profileKeyOf(profileDir)}`,
      name: 'mch-sync',
      comment: 'Keeps your synced folders in sync with your device',
      icon: 'folder-remote',
      command: [...base, 'run'],
    },
  });
  return { shareCommand: [...base, ...SHARE_WORDS], autostart };
}

/** The built renderer (`npm run build:renderer`): `dist/renderer/` of this installation, for the sources and the compiled app alike. */
export function rendererDir(): string {
  return join(installRoot(), 'dist', 'renderer') + sep;
}

export async function runUi(context: CommandContext, values: Values): Promise<number> {
  const port = readPort(values['port']);
  // Set once the host listens; the core (and its state socket) starts first.
  let shown: UiHost | undefined;
  const core = await UiCore.open({
    profileDir: context.profileDir,
    env: context.deps.env,
    ...headlessSwitches(context.profileDir, context.deps.env),
    openExternal: context.deps.openBrowser,
    showWindow: (route) => showInBrowser(context, shown, route),
    ...(context.deps.keychain === undefined ? {} : { keychain: context.deps.keychain }),
    log: (level, message) => {
      if (level !== 'info')
        context.deps.stderr(`mch-sync: ${level === 'warn' ? 'warning: ' : ''}${terminalSafe(message)}\n`);
    },
  });
  try {
    const host = await startUiHost({
      service: core,
      rendererDir: rendererDir(),
      port,
      // Into the window's log (the Logs folder Settings shows), where its errors say to look, and from
      // there to stderr.
      log: (line) => core.log(/ failed|could not| not JSON/.test(line) ? 'error' : 'warn', line),
    });
    shown = host;
    try {
      context.print(`The window is at ${host.openUrl}`);
      context.print('(the address holds a secret of this run: do not share it). Ctrl+C stops.');
      if (values['no-open'] !== true) {
        await context.deps.openBrowser(host.openUrl).catch((error: unknown) => {
          context.warn(`no browser was opened (${(error as Error).message}): open the address above.`);
        });
      }
      await stopped(context.deps.signal);
    } finally {
      shown = undefined;
      await host.close();
    }
  } finally {
    await core.close();
  }
  context.print('Stopped. The next run continues from here.');
  return 0;
}

/**
 * The file manager's "Show in mch-sync" and "Why is this not synced?": a tab of the system browser at
 * the route, through the opener of the start (also with --no-open, which is about the start only: here
 * the person asked for the window). A browser has no tab this host could bring forward, so each ask
 * opens one.
 */
async function showInBrowser(
  context: CommandContext,
  host: UiHost | undefined,
  route: WindowRoute,
): Promise<void> {
  if (host === undefined) {
    throw new StateError(
      'STATE_NO_WINDOW',
      'The window of `mch-sync ui` is not ready yet: try again in a moment.',
    );
  }
  try {
    await context.deps.openBrowser(host.routeUrl(route));
  } catch (error) {
    // The address holds this run's secret: said where `mch-sync ui` printed it, never in a file manager's message.
    throw new StateError(
      'STATE_NO_WINDOW',
      `No browser could be opened (${(error as Error).message}): open the address \`mch-sync ui\` printed, then ${route.view === 'issues' ? 'Issues' : 'Status'}.`,
      { cause: error },
    );
  }
}

/** `--port N`: 0 (the default) is any free port, as for the device's own `--port 0`. */
function readPort(value: string | boolean | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65_535) {
    throw new UsageError('--port takes a number from 0 to 65535 (0: any free port).', UI_USAGE);
  }
  return port;
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined || signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
