// Small formatting helpers shared by the commands' human-readable output.
import type { ChosenDevice } from '../../profile/settings.ts';
import { terminalSafe } from '../../search/terminal-text.ts';

/**
 * `text` with every control character but its line breaks shown as `\uXXXX`: an escape sequence in a
 * name (from the disk or the device) cannot drive the terminal. A line break inside a name must be
 * escaped where the name is put in its line (`terminalSafe`); this keeps the command's own lines.
 * JSON stays JSON: inside a string `\uXXXX` is the same character, and outside one there is none.
 */
export function safeText(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}

/** The chosen device on one line, whatever its name (set on the device) holds. */
export function describeDevice(device: ChosenDevice): string {
  const at = device.url === undefined ? 'not reachable at the moment' : `at ${device.url}`;
  return terminalSafe(`${device.name || '(unnamed)'} (${device.id}) ${at}`);
}

/** "in 23 h 59 min", "in 40 s", or "expired 3 min ago". */
export function describeRemaining(expiresAt: number, now: number): string {
  const seconds = Math.round((expiresAt - now) / 1000);
  const amount = Math.abs(seconds);
  const text =
    amount < 60
      ? `${amount} s`
      : amount < 3600
        ? `${Math.floor(amount / 60)} min`
        : `${Math.floor(amount / 3600)} h ${Math.floor((amount % 3600) / 60)} min`;
  return seconds >= 0 ? `in ${text}` : `expired ${text} ago`;
}

/**
 * Pads the first column so the values line up. Each row is one line: a value holding a name (a user's,
 * a device's, a path) is shown with its control characters escaped.
 */
export function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${terminalSafe(value)}`);
}
