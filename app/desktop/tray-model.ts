// The tray as plain data: its state, icon, tooltip and menu from the account, the pair views and recent activity (desktop-app.md §3).
import type { AccountView, ActivityView, PairView, PauseLength, ViewName } from '../../common/contract.ts';
import { assertNever } from '../../common/errors.ts';
import type { EngineState } from '../../common/sync-status.ts';
import {
  attentionWords,
  folderName,
  pausedWords,
  syncingWords,
  waitingFolders,
  waitingWords,
} from './tray-words.ts';
import { openFailures, openingLines, openingSummary } from './tray-on-demand.ts';

export type TrayState = 'up-to-date' | 'syncing' | 'paused' | 'offline' | 'sign-in-needed' | 'attention';

export type TrayAction =
  | { type: 'open-window'; view?: ViewName }
  /** The window at a recent file's versions (`path`: its path here). */
  | { type: 'open-versions'; path: string }
  | { type: 'open-folder'; path: string }
  | { type: 'show-item'; path: string }
  /** Every pair; `for`: it ends by itself after it (an hour, 08:00 tomorrow), else at "Resume all". */
  | { type: 'pause-all'; for?: PauseLength }
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

/**
 * One state for all pairs, the first that holds of:
 * 1. sign-in-needed: signed out, or any pair's sign-in expired (nothing syncs until the user acts);
 * 2. attention: any pair holds deletes, stopped on an error, has items not synced or conflicts
 *    (PairView.issueCount), a new device folder waiting for "sync it" or "don't sync", or a file of
 *    an on-demand pair that could not be opened lately (its card says why): the user must look. What Issues lists quietly (left out by the client's rules, synced with a warning) is
 *    not counted, or the icon would never leave attention;
 * 3. offline: any pair cannot reach the device (it retries by itself, so it ranks below attention);
 * 4. syncing: any pair scans or syncs, or downloads a file a program opened;
 * 5. paused: any pair is paused and the others are idle. Some paused and some idle is still "paused"
 *    (the tooltip says how many): the icon must not say "up to date" while a folder does not sync;
 * 6. up-to-date: every pair idle, or no pair yet.
 */
export function trayStateOf(account: AccountView, pairs: PairView[]): TrayState {
  if (!account.signedIn) return 'sign-in-needed';
  const states = new Set<EngineState>(pairs.map((pair) => pair.state));
  if (states.has('sign-in-needed')) return 'sign-in-needed';
  if (pairs.some(needsAttention) || waitingFolders(pairs).length > 0 || openFailures(pairs).length > 0)
    return 'attention';
  if (states.has('offline')) return 'offline';
  if (states.has('syncing') || states.has('scanning') || openingSummary(pairs) !== null) return 'syncing';
  if (states.has('paused')) return 'paused';
  return 'up-to-date';
}

function needsAttention(pair: PairView): boolean {
  const state = pair.state;
  switch (state) {
    case 'held':
    case 'error':
      return true;
    case 'idle':
    case 'scanning':
    case 'syncing':
    case 'paused':
    case 'offline':
    case 'sign-in-needed':
      return pair.hold !== null || pair.issueCount > 0;
    default:
      return assertNever(state, 'engine state');
  }
}

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

/**
 * The tooltip, which is also the menu's status line (desktop-app.md §3), with how the device is reached
 * beside it while it answers: "Up to date · at home", "Syncing 3 files · through the internet".
 */
export function trayTooltipOf(state: TrayState, account: AccountView, pairs: readonly PairView[]): string {
  const words = stateWords(state, account, pairs);
  const connection = account.device?.connection;
  if (state === 'sign-in-needed' || connection === null || connection === undefined) return words;
  if (!connection.reachable) return state === 'offline' ? `${words} (the device does not answer)` : words;
  if (connection.via === 'pinned' || pairs.length === 0) return words;
  return `${words} · ${connection.via === 'home' ? 'at home' : 'through the internet'}`;
}

function stateWords(state: TrayState, account: AccountView, pairs: readonly PairView[]): string {
  switch (state) {
    case 'sign-in-needed':
      return account.signedIn ? 'Sign in again' : 'Sign in to start';
    case 'attention': {
      // A failed open first: it is what the person just met in their program.
      const failed = openFailures(pairs).map((failure) => failure.words);
      const other = pairs.some(needsAttention) || waitingFolders(pairs).length > 0;
      return [...failed.slice(0, 1), ...(other || failed.length === 0 ? [attentionWords(pairs)] : [])].join(
        '; ',
      );
    }
    case 'offline':
      return 'Offline: will retry';
    case 'syncing': {
      const busy = pairs.some((pair) => pair.state === 'syncing' || pair.state === 'scanning');
      const opening = openingSummary(pairs);
      return [
        ...(busy || opening === null ? [syncingWords(pairs)] : []),
        ...(opening === null ? [] : [opening]),
      ].join('; ');
    }
    case 'paused':
      return pausedWords(pairs);
    case 'up-to-date':
      return pairs.length === 0 ? 'Add a folder to start syncing' : 'Up to date';
    default:
      return assertNever(state, 'tray state');
  }
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
  // Files downloading for programs, each on its line under the status (which sums them up, or says
  // the one there is: not twice).
  const opening = openingLines(pairs);
  if (!(opening.length === 1 && statusLine.includes(opening[0] ?? ''))) {
    opening.forEach((line, index) => {
      menu.push({ id: `opening:${index}`, label: line, enabled: false, kind: 'status' });
    });
  }
  // The status line cannot be clicked on every platform: the way to what needs the user is its own item.
  if (state === 'attention') {
    if (pairs.some(needsAttention)) {
      menu.push(action('show-issues', 'See what needs you', { type: 'open-window', view: 'issues' }));
    }
    // A failed open is told on its pair's card, on the status view.
    const [failed] = openFailures(pairs);
    if (failed !== undefined) {
      menu.push(action('show-open-failure', failed.words, { type: 'open-window', view: 'status' }));
    }
    // A new folder is answered on its pair's card, on the status view.
    const waiting = waitingFolders(pairs);
    if (waiting.length > 0) {
      menu.push(action('show-waiting', `${waitingWords(waiting)}…`, { type: 'open-window', view: 'status' }));
    }
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
    // The same files again, one level down like the links: each opens the window at its versions.
    menu.push({
      id: 'versions',
      label: 'Versions',
      enabled: true,
      kind: 'action',
      submenu: files.map((file, index) =>
        action(`versions:${file.localPath}`, `${labels[index] ?? file.path}…`, {
          type: 'open-versions',
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
    // #33: the three lengths people ask for; "until tomorrow" is 08:00 the next morning (pause-state.ts).
    const some = pairs.length > 0;
    menu.push(action('pause-1h', 'Pause for 1 hour', { type: 'pause-all', for: '1h' }, some));
    menu.push(action('pause-tomorrow', 'Pause until tomorrow', { type: 'pause-all', for: 'tomorrow' }, some));
    menu.push(action('pause-all', 'Pause until I resume', { type: 'pause-all' }, some));
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
