// Names that could escape a folder or that the device cannot store, refused in both directions.
import { BugError, InvalidNameError, type ApiErrorDetails } from '../../common/errors.ts';

/** device-api.md §3: 1-255 bytes of UTF-8. */
export const MAX_NAME_BYTES = 255;

/** Why `name` cannot be a file or folder name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name === '.' || name === '..') return 'would mean this folder or its parent';
  if (name.includes('/')) return 'contains "/"';
  // The device allows it, but on Windows it separates folders: a name from the device with one
  // could write outside the synced folder.
  if (name.includes('\\')) return 'contains "\\"';
  if (name.includes('\0')) return 'contains a NUL character';
  if (!name.isWellFormed()) return 'is not valid Unicode';
  // A UTF-16 unit is at most 3 bytes of UTF-8: short names need no count.
  if (name.length * 3 > MAX_NAME_BYTES && Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
    return `is longer than ${MAX_NAME_BYTES} bytes`;
  }
  return undefined;
}

/** Returns `name`, or throws an InvalidNameError saying why it cannot be used. */
export function checkName(name: string, details: ApiErrorDetails = {}): string {
  const problem = nameProblem(name);
  if (problem !== undefined) throw new InvalidNameError(name, problem, details);
  return name;
}

/** Ids are opaque, but `.`, `..` and "" would change the path they are put in. */
export function isUsableId(id: string): boolean {
  return id !== '' && id !== '.' && id !== '..' && !id.includes('\0');
}

/** An id for a URL path segment; a caller passing an unusable one is a bug here. */
export function idSegment(id: string): string {
  if (!isUsableId(id)) throw new BugError(`Not a usable item id: ${JSON.stringify(id)}`);
  return encodeURIComponent(id);
}
