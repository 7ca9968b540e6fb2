// The KDE service menu (`~/.local/share/kio/servicemenus/*.desktop`, Dolphin and other KIO file views).
import { GENERATED_MARKER, STATE_ENTRIES, type EntryDescription } from './entry-description.ts';
import { execLine, keyFileValue } from './quoting.ts';

/** KIO refuses to run a service menu in the user's folder that is not executable (KF 5.85 and later). */
export const KDE_SERVICE_MENU_MODE = 0o755;

/**
 * The service menu: any local file or folder (`all/all`, `X-KDE-Protocols=file`), at the top level of
 * the context menu rather than under "Actions". `X-KDE-ServiceTypes` is what KF5 looks for; KF6 needs
 * only `MimeType`. KIO substitutes `%F` with the selected paths, each one argument.
 *
 * With a command that can run `mch-sync act`, the entries by sync state come too, in an "mch-sync"
 * submenu beside "Copy share link" (a service menu's submenu holds all its actions, so they are one
 * file's). A service menu cannot know an item's state, nor show an action for folders only: every
 * entry is there, and the running client answers (`act --notify` shows its answer, or why it refused).
 */
export function renderKdeServiceMenu(description: EntryDescription): string {
  const act = description.actCommand;
  const states = act === undefined ? [] : STATE_ENTRIES;
  const names = ['mchSyncShare', ...states.map(({ action }) => actionName(action))];
  return [
    `# ${GENERATED_MARKER}; \`mch-sync integrate --remove\` removes it.`,
    '[Desktop Entry]',
    'Type=Service',
    'MimeType=all/all;',
    `Actions=${names.join(';')};`,
    'X-KDE-ServiceTypes=KonqPopupMenu/Plugin',
    'X-KDE-Protocols=file',
    'X-KDE-Priority=TopLevel',
    ...(states.length === 0 ? [] : ['X-KDE-Submenu=mch-sync']),
    '',
    '[Desktop Action mchSyncShare]',
    `Name=${keyFileValue(description.label)}`,
    `Icon=${keyFileValue(description.iconName)}`,
    `Exec=${keyFileValue(execLine(description.command, '%F'))}`,
    '',
    ...states.flatMap(({ action, label }) => [
      `[Desktop Action ${actionName(action)}]`,
      `Name=${keyFileValue(label)}`,
      `Exec=${keyFileValue(execLine([...(act ?? []), action], '%F'))}`,
      '',
    ]),
  ].join('\n');
}

/** `mchSyncPin`, `mchSyncWhy`…: a Desktop Action's name (letters only). */
function actionName(action: string): string {
  return `mchSync${action.charAt(0).toUpperCase()}${action.slice(1)}`;
}
