// The local scan's native folder lister (app/native/scan-folder.c), when `npm install` could build it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** A folder's entries: names, then per entry kind and size, inode, and mtime in nanoseconds. */
export type NativeListing = [
  names: string[],
  facts: Float64Array,
  inodes: BigUint64Array,
  mtimes: BigInt64Array,
];

/** Lists one folder (following a symlink only with `follow`); a number is the errno of the folder itself. */
export type ListFolder = (path: string, follow: boolean) => NativeListing | number;

/** The kinds in `facts` (scan-folder.c); a negative kind is -errno of the entry's own lstat. */
export const NATIVE_KIND = { gone: 0, file: 1, folder: 2, symlink: 3, special: 4, badName: 5 } as const;

const ADDON = fileURLToPath(new URL('../../native/build/Release/mch_scan.node', import.meta.url));

let loaded: ListFolder | null | undefined;

/**
 * The lister, or undefined where the addon was not built (Windows, no compiler) or `MCH_NATIVE_SCAN=0`
 * turns it off; the scan then uses node:fs, with the same results.
 */
export function nativeListFolder(): ListFolder | undefined {
  if (loaded === undefined) {
    loaded = null;
    if (process.env['MCH_NATIVE_SCAN'] !== '0' && existsSync(ADDON)) {
      try {
        const addon = createRequire(import.meta.url)(ADDON) as { listFolder?: unknown };
        if (typeof addon.listFolder === 'function') loaded = addon.listFolder as ListFolder;
      } catch {
        // Built for another Node or platform: node:fs does the same job, only slower.
      }
    }
  }
  return loaded ?? undefined;
}

const ERRNO_NAMES = new Map<number, string>(
  Object.entries(constants.errno).map(([name, value]) => [value, name]),
);

/** `EACCES` for 13, as node:fs errors are coded. */
export function errnoName(errno: number): string {
  return ERRNO_NAMES.get(errno) ?? `errno ${errno}`;
}
