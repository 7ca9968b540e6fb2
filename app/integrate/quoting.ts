// How a word is written in each entry format so that it reaches the program unchanged: Exec lines, key files, shell, XML, Python.

// Desktop Entry Specification, "The Exec key": an argument holding one of these must be quoted.
const EXEC_RESERVED = /[ \t\n"'\\><~|&;$*?#()`]/;

/**
 * One word of a Desktop Entry `Exec` value (KDE service menus, and Nemo actions, whose Exec Nemo
 * expands itself and hands to g_shell_parse_argv, which reads this quoting the same way). `%` is
 * written `%%` inside quotes too: launchers expand field codes before they split words.
 */
export function execWord(word: string): string {
  const percent = word.replaceAll('%', '%%');
  if (percent !== '' && !EXEC_RESERVED.test(percent)) return percent;
  return `"${percent.replace(/["`$\\]/g, (char) => `\\${char}`)}"`;
}

/** The words of an Exec value, then the field code (`%F`: the selected local files). */
export function execLine(words: readonly string[], fieldCode: string): string {
  return [...words.map(execWord), fieldCode].join(' ');
}

/**
 * A key file's string value (GLib's g_key_file_set_string and the Desktop Entry Specification): the
 * backslash is doubled, so the Exec quoting above takes four backslashes for one in the file.
 */
export function keyFileValue(value: string): string {
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll('\n', '\\n')
    .replaceAll('\t', '\\t')
    .replaceAll('\r', '\\r');
  // A leading blank would be dropped by the parser.
  return escaped.startsWith(' ') ? `\\s${escaped.slice(1)}` : escaped;
}

/**
 * A word for `/bin/sh`, quoted as g_shell_quote does ('...' with ' written '\''): Thunar runs its
 * command lines through `sh -c`, and g_shell_parse_argv reads the same quoting.
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_/.,:@+=-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Text for XML content, escaped as g_markup_escape_text does (Thunar writes its own file that way). */
export function xmlText(text: string): string {
  return text.replace(/[&<>'"]/g, (char) => XML_ENTITIES[char] ?? char);
}

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
};

/**
 * A Python string literal holding `text`, in ASCII only (so the generated file's encoding never
 * matters): printable ASCII as is, everything else as \x, \u or \U escapes of its code point.
 */
export function pythonString(text: string): string {
  let literal = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') literal += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) literal += char;
    else if (code < 0x100) literal += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) literal += `\\u${code.toString(16).padStart(4, '0')}`;
    else literal += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${literal}"`;
}
