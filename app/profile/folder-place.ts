// Where a local folder really is, so that two spellings of one folder compare equal: links resolved, names compared the way their file system compares them.
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, parse, resolve, sep } from 'node:path';

export interface FolderPlace {
  /** The folder as given, made absolute (`resolve`: `.`, `..` and trailing slashes gone). */
  path: string;
  /** The real path: the links of the part that exists resolved, the part that does not kept as given. */
  real: string;
  /**
   * The real path's names as the rules compare them, the root first: lower case (NFC) where the file
   * system ignores case, as they are where it does not.
   */
  keys: string[];
}

/**
 * The place of `path`. A folder that does not exist (a disk not mounted) still has one: the deepest
 * folder that exists is resolved and the rest kept as given, compared by the case rule of the
 * deepest folder whose rule could be seen.
 */
export function folderPlace(path: string, platform: NodeJS.Platform = process.platform): FolderPlace {
  const absolute = resolve(path);
  const missing: string[] = [];
  let existing = absolute;
  let real: string;
  for (;;) {
    try {
      real = realpathSync.native(existing);
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) {
        real = existing;
        break;
      }
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
  const { root } = parse(real);
  // macOS and Windows file systems ignore case unless told otherwise: the guess where none can be seen.
  let ignoresCase = platform === 'darwin' || platform === 'win32';
  const keys = [platform === 'win32' ? root.toLowerCase() : root];
  let dir = root;
  for (const name of real
    .slice(root.length)
    .split(sep)
    .filter((part) => part !== '')) {
    ignoresCase = caseIgnoredAt(dir, name) ?? ignoresCase;
    keys.push(keyOf(name, ignoresCase));
    dir = join(dir, name);
  }
  for (const name of missing) keys.push(keyOf(name, ignoresCase));
  return { path: absolute, real: missing.length === 0 ? real : join(real, ...missing), keys };
}

function keyOf(name: string, ignoresCase: boolean): string {
  return ignoresCase ? name.normalize('NFC').toLowerCase() : name;
}

/**
 * Whether the folder `dir` finds its entry `name` under another case too; undefined when the name has
 * no case to change or the folder cannot be read. The other spelling existing is not enough: on a file
 * system that keeps case, `photos` may sit beside `Photos`, so the listing must not hold it. (Inode
 * numbers cannot tell either: FUSE file systems such as exfat-fuse give each spelling its own.)
 */
function caseIgnoredAt(dir: string, name: string): boolean | undefined {
  const other = otherCase(name);
  if (other === name) return undefined;
  try {
    lstatSync(join(dir, other));
  } catch {
    return false;
  }
  try {
    return !readdirSync(dir).includes(other);
  } catch {
    return undefined;
  }
}

/** Each letter in the other case: `Photos` → `pHOTOS`. */
function otherCase(name: string): string {
  let flipped = '';
  for (const char of name) {
    const upper = char.toUpperCase();
    flipped += char === upper ? char.toLowerCase() : upper;
  }
  return flipped;
}
