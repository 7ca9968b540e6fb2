// The local scan's native folder lister (app/native/scan-folder.c), when `npm install` could build it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { appFile } from '../../app-files.ts';

/**
 * A folder's entries: names, then per entry kind and size, inode, and mtime in nanoseconds, and the
 * positions of the files that carry the attribute asked for (an on-demand pair's placeholders).
 */
export type NativeListing = [
  names: string[],
  facts: Float64Array,
  inodes: BigUint64Array,
  mtimes: BigInt64Array,
  marked: Uint32Array,
];

/**
 * Lists one folder (following a symlink only with `follow`); a number is the errno of the folder itself.
 * With `attribute`, each file is also asked whether it carries that extended attribute.
 */
export type ListFolder = (path: string, follow: boolean, attribute?: string) => NativeListing | number;

/** The addon's extended attributes and nanosecond mtimes (file-attributes.c): a path or an open descriptor. */
export interface NativeFileAttributes {
  /** The attribute's value, or null when the item has none; throws with an errno `code` otherwise. */
  getAttribute(target: string | number, name: string): Buffer | null;
  setAttribute(target: string | number, name: string, value: Buffer): void;
  /** False when there was no such attribute. */
  removeAttribute(target: string | number, name: string): boolean;
  /** Sets the mtime to the nanosecond, leaving the access time. */
  setMtimeNs(target: string | number, mtimeNs: bigint): void;
}

/** The kinds in `facts` (scan-folder.c); a negative kind is -errno of the entry's own lstat. */
export const NATIVE_KIND = { gone: 0, file: 1, folder: 2, symlink: 3, special: 4, badName: 5 } as const;

const ADDON = appFile('native/build/Release/mch_scan.node');

let loaded: ListFolder | null | undefined;
let attributes: NativeFileAttributes | null | undefined;

function loadAddon(): Record<string, unknown> | undefined {
  if (!existsSync(ADDON)) return undefined;
  try {
    return createRequire(import.meta.url)(ADDON) as Record<string, unknown>;
  } catch {
    // Built for another Node or platform: node:fs does the scan's job, only slower.
    return undefined;
  }
}

/**
 * Extended attributes and nanosecond mtimes, or undefined where the addon was not built. On-demand
 * pairs need them (their placeholders are marked by an attribute); `MCH_NATIVE_SCAN=0` does not turn
 * them off, since node:fs has no equivalent.
 */
export function nativeFileAttributes(): NativeFileAttributes | undefined {
  if (attributes === undefined) {
    const addon = loadAddon();
    attributes =
      addon !== undefined && typeof addon['getAttribute'] === 'function'
        ? (addon as unknown as NativeFileAttributes)
        : null;
  }
  return attributes ?? undefined;
}

/**
 * The lister, or undefined where the addon was not built (Windows, no compiler) or `MCH_NATIVE_SCAN=0`
 * turns it off; the scan then uses node:fs, with the same results. `needed` (an on-demand pair, whose
 * placeholders only the lister tells) takes it whatever the switch says.
 */
export function nativeListFolder(needed = false): ListFolder | undefined {
  if (needed) {
    const addon = loadAddon();
    return typeof addon?.['listFolder'] === 'function' ? (addon['listFolder'] as ListFolder) : undefined;
  }
  if (loaded === undefined) {
    loaded = null;
    const addon = process.env['MCH_NATIVE_SCAN'] !== '0' ? loadAddon() : undefined;
    if (typeof addon?.['listFolder'] === 'function') loaded = addon['listFolder'] as ListFolder;
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
