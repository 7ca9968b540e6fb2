// The Nemo action (`~/.local/share/nemo/actions/*.nemo_action`): Nemo's "Copy share link" where nemo-python is not installed.
import { GENERATED_MARKER, type EntryDescription } from './entry-description.ts';
import { execLine, keyFileValue } from './quoting.ts';

/**
 * Where distributions put nemo-python's plugin: Debian and Ubuntu under their multiarch triplets,
 * Fedora and openSUSE in lib64, Arch and most others in lib.
 */
export const NEMO_PYTHON_PLUGINS: readonly string[] = [
  ...[
    'x86_64-linux-gnu',
    'aarch64-linux-gnu',
    'i386-linux-gnu',
    'arm-linux-gnueabihf',
    'riscv64-linux-gnu',
    'powerpc64le-linux-gnu',
    's390x-linux-gnu',
  ].map((triplet) => `/usr/lib/${triplet}/nemo/extensions-3.0/libnemo-python.so`),
  '/usr/lib64/nemo/extensions-3.0/libnemo-python.so',
  '/usr/lib/nemo/extensions-3.0/libnemo-python.so',
];

/**
 * The action. Nemo would show it and the nemo-python extension side by side, so it is only the
 * fallback: Nemo skips an action whose `Dependencies` has a `!`-prefixed absolute path that exists
 * (nemo-action.c, nemo_action_new), checked when Nemo loads its actions: at start, as nemo-python
 * loads its extensions, and again when an actions folder changes. Where nemo-python is installed the
 * extension is the entry (shown only inside synced folders); elsewhere this action shows for any
 * local item, and `mch-sync share` refuses items outside synced folders with a message. (An `exec`
 * condition could check the folders too, but Nemo runs it synchronously for every menu it opens.)
 *
 * Nemo expands `%F` itself: with `Quote=double` each path is put in double quotes with `"` and `\`
 * escaped (Nemo 5.4.2 and later), and the line goes to g_spawn_command_line_async, whose
 * g_shell_parse_argv reads the Desktop Entry quoting of the command words. `UriScheme=file`: only
 * folders on this computer, whose items have paths.
 */
export function renderNemoAction(description: EntryDescription): string {
  // Nemo expands its tokens in the label and tooltip as well.
  const text = (value: string): string => keyFileValue(value.replaceAll('%', '%%'));
  return [
    `# ${GENERATED_MARKER}; \`mch-sync integrate --remove\` removes it.`,
    '[Nemo Action]',
    `Name=${text(description.label)}`,
    `Comment=${text(description.tooltip)}`,
    `Exec=${keyFileValue(execLine(description.command, '%F'))}`,
    `Icon-Name=${keyFileValue(description.iconName)}`,
    'Selection=notnone',
    'Extensions=any;',
    'Quote=double',
    'UriScheme=file',
    `Dependencies=${NEMO_PYTHON_PLUGINS.map((path) => `!${path};`).join('')}`,
    '',
  ].join('\n');
}
