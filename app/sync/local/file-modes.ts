// The permissions a downloaded file gets: those the user's own new files get (0666 less the umask).
import { readFileSync } from 'node:fs';

/**
 * `0o666` less the process umask, what `touch` or an editor would make; undefined on Windows, where
 * modes mean nothing. Read at each call: a long-running app may have its umask changed.
 */
export function ordinaryFileMode(): number | undefined {
  if (process.platform === 'win32') return undefined;
  return 0o666 & ~currentUmask();
}

function currentUmask(): number {
  // Linux tells it without changing it (since 4.7); process.umask() reads it by setting it twice.
  try {
    const found = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (found !== undefined) return Number.parseInt(found, 8);
  } catch {
    // No /proc (macOS, the BSDs): asked below.
  }
  // Node has no other way to read it (deprecated for that reason): only a thread creating files in
  // between could see the brief 0, and no thread of this process creates files.
  return process.umask();
}
