// Item names: what the device accepts (device-api.md §3 "Names") and how it resolves a name clash.
import { badRequest } from '../http/errors.ts';

const MAX_NAME_BYTES = 255;

/** Throws a 400 unless `name` is a valid item name: 1-255 bytes of UTF-8, not . or .., no / and no NUL. */
export function checkName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string') throw badRequest('INVALID_NAME', `${field} must be a string.`);
  if (name.length === 0) throw badRequest('INVALID_NAME', `${field} must not be empty.`);
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
    throw badRequest('INVALID_NAME', `${field} is longer than ${MAX_NAME_BYTES} bytes of UTF-8.`);
  }
  if (name === '.' || name === '..') throw badRequest('INVALID_NAME', `${field} must not be "." or "..".`);
  if (name.includes('/')) throw badRequest('INVALID_NAME', `${field} must not contain "/".`);
  if (name.includes('\0')) throw badRequest('INVALID_NAME', `${field} must not contain a NUL character.`);
  if (!name.isWellFormed()) {
    throw badRequest('INVALID_NAME', `${field} is not valid Unicode (a lone surrogate).`);
  }
  return name;
}

/** The extension with its leading dot, as stored ("photo.JPG" -> ".JPG"); none for dot files. */
export function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : undefined;
}

/** The n-th alternative for a taken name: "a.txt" -> "a (n).txt" (device-api.md §3, decided). */
export function alternativeName(name: string, n: number): string {
  const extension = extensionOf(name) ?? '';
  const stem = name.slice(0, name.length - extension.length);
  const suffix = ` (${n})`;
  let candidate = `${stem}${suffix}${extension}`;
  // Keep within the byte limit by shortening the stem, never the suffix or the extension.
  let shortened = stem;
  while (Buffer.byteLength(candidate, 'utf8') > MAX_NAME_BYTES && shortened.length > 0) {
    shortened = Array.from(shortened).slice(0, -1).join('');
    candidate = `${shortened}${suffix}${extension}`;
  }
  return candidate;
}
