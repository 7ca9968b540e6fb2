// The tray as plain data: its state, icon, tooltip and menu from the account, the pair views and recent activity (desktop-app.md §3).
import type { AccountView, ActivityView, PairView, ViewName } from '../../common/contract.ts';
import { trayStateOf, type TrayState } from './tray-state.ts';
import { folderName, trayTooltipOf } from './tray-words.ts';

export type TrayAction =
  | { type: 'open-window'; view?: ViewName }
  | { type: 'open-folder'; path: string }
  | { type: 'show-item'; path: string }
  | { type: 'pause-all' }
  | { type: 'resume-all' }
  | { type: 'sync-now' }
  | { type: 'copy-link'; path: string }
  | { type: 'quit' };

export interface TrayMenuItem {
  /** Stable across updates (the throttle compares menus, main/ may key items by it). */
  id: string;
  /** Plain text: main/ escapes what its platform reads as a mnemonic (`&` on Windows). */
  label: string;
  enabled: boolean;
  kind: 'action' | 'separator' | 'status';
  action?: TrayAction;
  /** Items shown one level down (copy share link of a recent file); the parent has no action. */
  submenu?: TrayMenuItem[];
}

export interface TrayModel {
  state: TrayState;
  /** File stem under build/icons/tray, e.g. 'tray-syncing'. */
  icon: string;
  tooltip: string;
  menu: TrayMenuItem[];
}

/** How many recent files the menu lists (desktop-app.md §3: the five most recent). */
export const RECENT_FILES_SHOWN = 5;

export function trayModelOf(input: {
  account: AccountView;
  pairs: PairView[];
  recent: ActivityView[];
}): TrayModel {
  const { account, pairs, recent } = input;
  const state = trayStateOf(account, pairs);
  const tooltip = trayTooltipOf(state, account, pairs);
  return { state, icon: `tray-${state}`, tooltip, menu: menuOf(state, tooltip, account, pairs, recent) };
}

function separator(id: string): TrayMenuItem {
  return { id, label: '', enabled: false, kind: 'separator' };
}

function action(id: string, label: string, trayAction: TrayAction, enabled = true): TrayMenuItem {
  return { id, label, enabled, kind: 'action', action: trayAction };
}

function menuOf(
  state: TrayState,
  statusLine: string,
  account: AccountView,
  pairs: readonly PairView[],
  recent: readonly ActivityView[],
): TrayMenuItem[] {
  const status: TrayMenuItem = { id: 'status', label: statusLine, enabled: false, kind: 'status' };
  const quit = action('quit', 'Quit', { type: 'quit' });
  if (!account.signedIn) {
    return [
      status,
      separator('separator-window'),
      action('open-window', 'Open window', { type: 'open-window', view: 'first-run' }),
      separator('separator-quit'),
      quit,
    ];
  }
  const menu: TrayMenuItem[] = [status];
  // The status line cannot be clicked on every platform: the way to what needs the user is its own item.
  if (state === 'attention') {
    menu.push(action('show-issues', 'See what needs you', { type: 'open-window', view: 'issues' }));
  } else if (state === 'sign-in-needed') {
    menu.push(action('sign-in', 'Sign in again', { type: 'open-window', view: 'settings' }));
  }
  menu.push(separator('separator-folders'));
  menu.push(...folderItems(pairs));
  menu.push(action('open-window', 'Open window', { type: 'open-window' }));
  const files = recentFiles(recent);
  if (files.length > 0) {
    menu.push(separator('separator-recent'));
    menu.push({ id: 'recent-heading', label: 'Recent files', enabled: false, kind: 'status' });
    const labels = fileLabels(files);
    files.forEach((file, index) => {
      menu.push(
        action(`recent:${file.localPath}`, labels[index] ?? file.path, {
          type: 'show-item',
          path: file.localPath,
        }),
      );
    });
    menu.push({
      id: 'copy-link',
      label: 'Copy share link',
      enabled: true,
      kind: 'action',
      submenu: files.map((file, index) =>
        action(`copy-link:${file.localPath}`, labels[index] ?? file.path, {
          type: 'copy-link',
          path: file.localPath,
        }),
      ),
    });
  }
  menu.push(separator('separator-sync'));
  const paused = pairs.filter((pair) => pair.state === 'paused').length;
  // Both when some are paused: "resume all" is what a user who paused one folder most likely wants,
  // "pause all" what one who wants quiet wants; neither is a guess about the other.
  if (paused > 0) menu.push(action('resume-all', 'Resume all', { type: 'resume-all' }));
  if (paused < pairs.length || pairs.length === 0) {
    menu.push(action('pause-all', 'Pause all', { type: 'pause-all' }, pairs.length > 0));
  }
  menu.push(action('sync-now', 'Sync now', { type: 'sync-now' }, paused < pairs.length));
  menu.push(separator('separator-quit'));
  menu.push(action('settings', 'Settings', { type: 'open-window', view: 'settings' }));
  menu.push(quit);
  return menu;
}

/** "Open MyCloud" per pair; two folders of one name are told apart by their whole path. */
function folderItems(pairs: readonly PairView[]): TrayMenuItem[] {
  const names = pairs.map((pair) => folderName(pair.localRoot));
  return pairs.map((pair, index) => {
    const name = names[index] ?? pair.localRoot;
    const unique = names.filter((other) => other === name).length === 1;
    return action(`open-folder:${pair.id}`, `Open ${unique ? name : pair.localRoot}`, {
      type: 'open-folder',
      path: pair.localRoot,
    });
  });
}

/**
 * The newest files of recent activity, each once: a deleted one is gone (nothing to show or share),
 * and a file uploaded twice is one file. `recent` may come in any order and from any number of pairs.
 */
export function recentFiles(recent: readonly ActivityView[]): ActivityView[] {
  const newest = [...recent].sort((a, b) => b.atMs - a.atMs);
  const seen = new Set<string>();
  const files: ActivityView[] = [];
  for (const entry of newest) {
    if (entry.kind === 'deleted' || seen.has(entry.localPath)) continue;
    seen.add(entry.localPath);
    files.push(entry);
    if (files.length === RECENT_FILES_SHOWN) break;
  }
  return files;
}

/** A file's name; its path in its folder when another of the list has the same name. */
function fileLabels(files: readonly ActivityView[]): string[] {
  const names = files.map((file) => folderName(file.path));
  return files.map((file, index) => {
    const name = names[index] ?? file.path;
    return names.filter((other) => other === name).length === 1 ? name : file.path;
  });
}
