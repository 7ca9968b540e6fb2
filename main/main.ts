// The Electron entry: one instance (a second start's --share forwarded here), the core against the profile, the window, the tray, notifications, start at login, and every pass stopped cleanly on quit.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, protocol, session, shell } from 'electron';
import type { ViewName } from '../common/contract.ts';
import type { WindowRoute } from '../common/window-route.ts';
import { readSystemProxy } from '../app/api/http/pac-answer.ts';
import { appCommand } from '../app/desktop/app-command.ts';
import { autostartFor, HIDDEN_ARG } from '../app/desktop/autostart.ts';
import { APP_SHARE_WORDS } from '../app/integrate/file-manager-entries.ts';
import {
  parseLaunchArgs,
  readShareRequestData,
  ShareBatcher,
  shareRequestData,
} from '../app/desktop/launch-args.ts';
import { profileFlagOf } from '../app/desktop/profile-arg.ts';
import { QUICK_ACTION_NAME, QuickActionSwitch } from '../app/desktop/quick-action.ts';
import { ShareAction } from '../app/desktop/share-action.ts';
import { shellTargetOf } from '../app/desktop/shell-target.ts';
import { trayIconFile } from '../app/desktop/tray-icon-file.ts';
import { probeStatusNotifierWatcher, traySupportOf } from '../app/desktop/tray-support.ts';
import { resolveProfileDir } from '../app/profile/profile-dir.ts';
import { limitHeapGrowth } from '../app/system/heap-growth.ts';
import { runTool } from '../app/system/run-tool.ts';
import { UiCore } from '../app/ui/ui-core.ts';
import { APP_ORIGIN, APP_SCHEME_PRIVILEGES, serveRenderer } from './app-protocol.ts';
import { forwardEvents, registerContractIpc, type MainLog } from './ipc.ts';
import { Notifier } from './notifications.ts';
import { hardenSession, hardenWebContents } from './security.ts';
import { runTrayAction } from './tray-actions.ts';
import { feedTray } from './tray-feed.ts';
import { AppTray } from './tray.ts';
import { createAppWindow } from './window.ts';

// The engine runs in this process: its heap grows as the CLI's does (app/system/heap-growth.ts).
limitHeapGrowth();
const MAIN_DIR = dirname(fileURLToPath(import.meta.url));
const log: MainLog = (level, message) => process.stderr.write(`mch-sync: ${level}: ${message}\n`);
const argv = process.argv.slice(1);
const launch = parseLaunchArgs(argv, process.cwd());
const profileFlag = profileFlagOf(argv);
const profileDir = resolveProfileDir({ flag: profileFlag, env: process.env });
// Chromium's own files go inside the profile, not beside it in the same default folder (Electron's
// userData is <appData>/mch-sync too); the lock is then one per profile, and a share reaches the
// instance of its own profile.
app.setPath('userData', join(profileDir, 'electron'));

// Checked before anything starts: a second start only hands its share request to the first
// (electron#20322: the data, not the reordered argv) and ends.
if (!app.requestSingleInstanceLock(shareRequestData(launch))) {
  app.exit(0);
} else {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { appOrigin: APP_ORIGIN, openInBrowser: openInBrowser, log }),
  );
  // A tray app: no window open is no reason to quit.
  app.on('window-all-closed', () => {});
  if (process.platform === 'darwin') app.dock?.hide();
  app.whenReady().then(start, (error: unknown) => fail(error));
}

function openInBrowser(url: string): void {
  shell.openExternal(url).catch((error: unknown) => log('warn', `no browser opened: ${String(error)}`));
}

/** UiCore's opener: share links and sign-in pages to the browser, synced paths to their application. */
async function openWithSystem(target: string): Promise<void> {
  const chosen = shellTargetOf(target);
  if (chosen.kind === 'url') return shell.openExternal(chosen.url);
  const failure = await shell.openPath(chosen.path);
  if (failure !== '') throw new Error(failure);
}

async function start(): Promise<void> {
  const platform = process.platform;
  const command = appCommand({
    execPath: process.execPath,
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    env: process.env,
  });
  const withProfile = profileFlag === undefined ? command : [...command, '--profile', profileDir];
  const autostart = autostartFor({
    platform,
    entry: {
      appId: 'mch-sync',
      name: 'MCH Sync',
      comment: 'Keeps your folders in sync with your device',
      // The icon the packages install (electron-builder.yml: linux.executableName).
      icon: 'mch-sync-app',
      command: [...withProfile, HIDDEN_ARG],
    },
    env: process.env,
    home: app.getPath('home'),
    loginItems: {
      setLoginItem: (open, args) => app.setLoginItemSettings({ openAtLogin: open, args }),
      getLoginItem: () => app.getLoginItemSettings().openAtLogin,
    },
  });
  // The file manager's "Show in mch-sync" may ask before the window exists (the core starts first).
  const shown: { at?: (route: WindowRoute) => void } = {};
  // The system's proxy through Chromium's resolver (settings, PAC, WPAD); a manual or variable proxy wins.
  const systemProxy = await readSystemProxy((url) => session.defaultSession.resolveProxy(url), process.env);
  const core = await UiCore.open({
    profileDir,
    env: process.env,
    ...(systemProxy === undefined ? {} : { systemProxy }),
    openExternal: openWithSystem,
    showWindow: (route) => {
      if (shown.at === undefined) return Promise.reject(new Error('the window is not made yet'));
      shown.at(route);
      return Promise.resolve();
    },
    log,
    autostart,
    shareCommand: [...withProfile, ...APP_SHARE_WORDS],
    // macOS: the Quick Action shipped in the app's resources (build/macos in development).
    ...(platform === 'darwin'
      ? {
          fileManagerEntries: new QuickActionSwitch({
            source: app.isPackaged
              ? join(process.resourcesPath, QUICK_ACTION_NAME)
              : join(app.getAppPath(), 'build', 'macos', QUICK_ACTION_NAME),
            home: app.getPath('home'),
          }),
        }
      : {}),
  });
  await core.applySystemSettings().catch((error: unknown) => log('warn', `settings: ${String(error)}`));

  hardenSession(session.defaultSession, { log });
  serveRenderer(protocol, join(MAIN_DIR, '..', 'renderer'));
  const stopIpc = registerContractIpc({ ipcMain, service: core, appOrigin: APP_ORIGIN, log });
  const appWindow = createAppWindow({ preload: join(MAIN_DIR, 'preload.cjs') });
  const stopEvents = forwardEvents(core, appWindow.window.webContents, APP_ORIGIN, log);

  const tray = new AppTray({
    platform,
    iconFile: (stem) =>
      trayIconFile({
        stem,
        platform,
        isPackaged: app.isPackaged,
        resourcesPath: process.resourcesPath,
        appPath: app.getAppPath(),
      }),
    firstIcon: 'tray-up-to-date',
    onAction: (action) =>
      runTrayAction(action, { core, shell, show, share: (paths) => batcher.add(paths), quit }),
  });
  const show = (view?: ViewName | WindowRoute | null): void => appWindow.show(view, tray.tray.getBounds());
  shown.at = show;
  const notifier = new Notifier(show);
  const stopNotifications = core.onEvent((name, payload) => {
    if (name === 'notification') notifier.show(payload as { title: string; body: string; view: ViewName });
  });
  const shareAction = new ShareAction({
    core,
    clipboard: { writeText: (text) => clipboard.writeText(text) },
    onWaiting: (notice) => notifier.show(notice),
  });
  const batcher = new ShareBatcher({
    onBatch: (paths) => void shareAction.share(paths).then((notice) => notifier.show(notice)),
  });
  const stopTray = await feedTray(core, (change) => tray.apply(change));
  // test/electron/app-e2e.ts reads what the tray shows through Playwright's evaluate in this process.
  if (process.env['MCH_E2E_HOOKS'] === '1') Object.assign(globalThis, { mchTray: tray });

  app.on('second-instance', (_event, _argv, _cwd, data) => {
    const paths = readShareRequestData(data);
    if (paths !== null && paths.length > 0) batcher.add(paths);
    else show();
  });

  // Quitting stops every pass as SIGTERM does for `mch-sync run`: once, then the real quit.
  let stopping: Promise<void> | undefined;
  function quit(): void {
    stopping ??= (async () => {
      batcher.close();
      stopTray();
      stopNotifications();
      stopEvents();
      stopIpc();
      notifier.close();
      await core.close().catch((error: unknown) => log('error', `stopping: ${String(error)}`));
      tray.destroy();
      appWindow.allowClose();
      app.exit(0);
    })();
  }
  app.on('before-quit', (event) => {
    event.preventDefault();
    quit();
  });
  process.once('SIGTERM', quit);
  process.once('SIGINT', quit);

  const support =
    platform === 'linux'
      ? traySupportOf({
          platform,
          env: process.env,
          probe: { statusNotifierWatcher: await probeStatusNotifierWatcher(runTool), xembedTray: null },
        })
      : traySupportOf({
          platform,
          env: process.env,
          probe: { statusNotifierWatcher: null, xembedTray: null },
        });
  if (support.kind === 'window') {
    show(launch.openView);
    void dialog.showMessageBox(appWindow.window, {
      type: 'info',
      message: support.title,
      detail: support.message,
    });
  } else if (!launch.hidden && launch.share.length === 0) {
    show(launch.openView ?? (core.isConnected() ? null : 'first-run'));
  }
  if (launch.share.length > 0) batcher.add(launch.share);
}

function fail(error: unknown): void {
  log('error', `could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  dialog.showErrorBox('mch-sync could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}
