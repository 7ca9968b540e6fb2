// The KDE service menu (`~/.local/share/kio/servicemenus/*.desktop`, Dolphin and other KIO file views).
import { GENERATED_MARKER, type EntryDescription } from './entry-description.ts';
import { execLine, keyFileValue } from './quoting.ts';

/** KIO refuses to run a service menu in the user's folder that is not executable (KF 5.85 and later). */
export const KDE_SERVICE_MENU_MODE = 0o755;

/**
 * The service menu: any local file or folder (`all/all`, `X-KDE-Protocols=file`), at the top level of
 * the context menu rather than under "Actions". `X-KDE-ServiceTypes` is what KF5 looks for; KF6 needs
 * only `MimeType`. KIO substitutes `%F` with the selected paths, each one argument.
 */
export function renderKdeServiceMenu(description: EntryDescription): string {
  return [
    `# ${GENERATED_MARKER}; \`mch-sync integrate --remove\` removes it.`,
    '[Desktop Entry]',
    'Type=Service',
    'MimeType=all/all;',
    'Actions=mchSyncShare;',
    'X-KDE-ServiceTypes=KonqPopupMenu/Plugin',
    'X-KDE-Protocols=file',
    'X-KDE-Priority=TopLevel',
    '',
    '[Desktop Action mchSyncShare]',
    `Name=${keyFileValue(description.label)}`,
    `Icon=${keyFileValue(description.iconName)}`,
    `Exec=${keyFileValue(execLine(description.command, '%F'))}`,
    '',
  ].join('\n');
}
