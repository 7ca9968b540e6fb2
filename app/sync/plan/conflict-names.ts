// Names for the copies a pass makes to keep both versions: conflicted copies and case clashes.

/** The device and most file systems allow 255 bytes of UTF-8 per name (device-api.md §3). */
export const MAX_NAME_BYTES = 255;

/** Splits `report.final.txt` into `report.final` and `.txt`; a leading dot is part of the stem. */
export function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  // `.bashrc` has no extension, and `name.` would leave an empty stem in front of nothing.
  if (dot <= 0 || dot === name.length - 1) return { stem: name, extension: '' };
  const extension = name.slice(dot);
  // An "extension" this long is not one (`a.<200 bytes>`): keep the whole name as the stem.
  if (utf8Bytes(extension) > 32) return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension };
}

/** `name (conflicted copy YYYY-MM-DD HHMMSS).ext`, unique among `taken`, at most 255 bytes. */
export function conflictedCopyName(name: string, now: Date, isTaken: (candidate: string) => boolean): string {
  const stamp = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())} ${pad(
    now.getUTCHours(),
  )}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return uniqueName(
    name,
    (n) => (n === 1 ? `conflicted copy ${stamp}` : `conflicted copy ${stamp} ${n}`),
    isTaken,
  );
}

/**
 * The name a conflicted copy was made from (`a (conflicted copy 2026-11-25 101500).txt` → `a.txt`),
 * or undefined for a name that is not one (or one truncated to fit 255 bytes, whose original is lost).
 */
export function originalOfConflictedCopy(name: string): string | undefined {
  const match = /^(.*) \(conflicted copy \d{4}-\d{2}-\d{2} \d{6}(?: \d+)?\)(\.[^.]*)?$/u.exec(name);
  if (match === null) return undefined;
  return `${match[1] ?? ''}${match[2] ?? ''}`;
}

/** The path a conflicted copy at `copyPath` (`/`-separated) was made from, or the path itself. */
export function originalPathOfConflictedCopy(copyPath: string): string {
  const slash = copyPath.lastIndexOf('/');
  const original = originalOfConflictedCopy(copyPath.slice(slash + 1));
  return original === undefined ? copyPath : `${copyPath.slice(0, slash + 1)}${original}`;
}

/** `name (case clash).ext`, for a second name a case-insensitive file system treats as the first. */
export function caseClashName(name: string, isTaken: (candidate: string) => boolean): string {
  return uniqueName(name, (n) => (n === 1 ? 'case clash' : `case clash ${n}`), isTaken);
}

function uniqueName(
  name: string,
  label: (attempt: number) => string,
  isTaken: (candidate: string) => boolean,
): string {
  const { stem, extension } = splitExtension(name);
  for (let attempt = 1; ; attempt++) {
    const candidate = fitName(stem, ` (${label(attempt)})${extension}`);
    if (!isTaken(candidate)) return candidate;
  }
}

/** Shortens `stem` (never the suffix, which carries the meaning) so the name fits in 255 bytes. */
function fitName(stem: string, suffix: string): string {
  const room = MAX_NAME_BYTES - utf8Bytes(suffix);
  return truncateUtf8(stem, room) + suffix;
}

/** Cuts at a whole code point, so no half of a surrogate pair or multi-byte character is left. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
