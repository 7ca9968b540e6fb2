// Text from the device or the disk made safe to print: no character in a file name can drive the terminal.

/**
 * What a name may not print as is: C0 controls (ESC starts a terminal escape sequence, a newline forges
 * an output line), DEL, C1 controls (U+009B is a one-byte CSI on some terminals), the bidirectional
 * controls that make text display in another order than it is stored ("Trojan Source"), the line and
 * paragraph separators, and lone surrogates (not text at all).
 */
// Control characters are exactly what this matches.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/gu;

/**
 * `text` with every unsafe character written as `\uXXXX` (the form the log uses). Everything else,
 * accents and emoji included, is kept. A backslash is kept as is: Windows paths are full of them.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
