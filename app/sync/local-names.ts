// Which local names are never synced (temporary and system files) and which cannot exist on a platform.
import { randomBytes } from 'node:crypto';
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nameProblem } from '../api/names.ts';
import { nameKey } from './model.ts';

/** The client's own folder inside the synced folder (trash, partial downloads...). */
export const STATE_FOLDER_NAME = '.mch-sync';

/**
 * Items parked by a pass under a temporary name: `.mch-moving-<n>-<name>` on disk (a cycle of local
 * moves), `.mch-moving-<hex>` on the device (a swap of remote names). A crash can leave them there.
 */
export const MOVING_PREFIX = '.mch-moving-';

/** Downloads are written to `.mch-dl-<random>` next to their target, then linked into place. */
export const DOWNLOAD_TEMP_PREFIX = '.mch-dl-';

// Exact names, compared in lower case: Windows and macOS treat these case-insensitively.
const SYSTEM_NAMES = new Set([
  '.ds_store',
  'thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  '.directory',
  '.trashes',
  '.fseventsd',
  '.spotlight-v100',
  '.temporaryitems',
  '.apdisk',
  '$recycle.bin',
  'system volume information',
]);

/**
 * Why `name` is a temporary or system file that is never synced, or undefined. Editor swap and backup
 * files, Office lock files and unfinished browser downloads change under the user's hands and mean
 * nothing on another computer.
 */
// Most names have none of these lengths: they need no lower-case copy (a pass checks every name).
const SYSTEM_NAME_LENGTHS = new Set([...SYSTEM_NAMES].map((name) => name.length));

export function temporaryOrSystemReason(name: string): string | undefined {
  if (SYSTEM_NAME_LENGTHS.has(name.length) && SYSTEM_NAMES.has(name.toLowerCase())) return 'a system file';
  const first = name.charCodeAt(0);
  const last = name.charCodeAt(name.length - 1);
  if (last === 0x7e /* ~ */) return 'an editor backup file';
  if (first === 0x2e /* . */) {
    if (/^\..+\.sw[a-p]$/.test(name)) return 'a Vim swap file';
    if (name.startsWith('.#')) return 'an Emacs lock file';
    if (name.startsWith('.~lock.')) return 'a LibreOffice lock file';
    if (name.startsWith('._')) return 'a macOS resource fork';
    if (name.startsWith('.goutputstream-') || name.startsWith('.fuse_hidden') || name.startsWith('.nfs')) {
      return 'a temporary file';
    }
    if (name.endsWith('.mch-partial') || name.startsWith(DOWNLOAD_TEMP_PREFIX))
      return 'an unfinished download';
  }
  if (first === 0x23 /* # */ && last === 0x23 && name.length > 1) return 'an Emacs auto-save file';
  if (first === 0x7e && name.charCodeAt(1) === 0x24 /* ~$ */) return 'an Office lock file';
  if (first === 0x7e && name.toLowerCase().endsWith('.tmp')) return 'an Office temporary file';
  if (last === 0x74 /* t */ && name.endsWith('.part')) return 'an unfinished download';
  if (name.endsWith('.crdownload')) return 'an unfinished download';
  return undefined;
}

/** Why the device cannot store `name` (app/api/names.ts, device-api.md §3), or undefined. */
export function deviceNameProblem(name: string): string | undefined {
  const problem = nameProblem(name);
  return problem === undefined ? undefined : `the device refuses a name that ${problem}`;
}

// Windows reserves these device names with any extension ("con.txt" too), in any case.
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what Windows refuses
const WINDOWS_FORBIDDEN = /[<>:"|?*\u0000-\u001f]/;

/** Why `name` cannot be a file name on Windows, or undefined. */
export function windowsNameProblem(name: string): string | undefined {
  if (WINDOWS_RESERVED.test(name)) return 'is a reserved device name on Windows';
  if (name.endsWith('.') || name.endsWith(' ')) return 'ends with a dot or a space, which Windows drops';
  if (WINDOWS_FORBIDDEN.test(name))
    return 'contains a character Windows does not allow (<>:"|?* or a control)';
  return undefined;
}

/** Why `name` cannot be created in a folder on `platform`, or undefined (for downloads). */
export function localNameProblem(
  name: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const device = nameProblem(name);
  if (device !== undefined) return device;
  if (platform === 'win32') return windowsNameProblem(name);
  // macOS Finder shows ':' as '/', and HFS+ stores it as '/': a name with one would not round-trip.
  if (platform === 'darwin' && name.includes(':')) return 'contains ":", which macOS does not allow';
  return undefined;
}

/**
 * The key under which a case-insensitive file system (the default on macOS and Windows) sees two names
 * as one: NFC, then case folded.
 */
export function caseFoldKey(name: string): string {
  return nameKey(name).toLowerCase();
}

/** How a folder's file system compares names, found by trying (a volume's type does not say reliably). */
export interface NameTraits {
  /** `a.txt` and `A.TXT` are one file (default on macOS and Windows). */
  caseInsensitive: boolean;
  /** NFC and NFD spellings of a name are one file (APFS, HFS+). */
  normalizationInsensitive: boolean;
}

/**
 * Probes `folder` by creating a file in it and looking it up under other spellings. The caller passes
 * a folder of its own (the state folder), so that no scan of the synced tree ever sees the probe.
 */
export function probeNameTraits(folder: string): NameTraits {
  const stem = `.probe-${process.pid}-${randomBytes(4).toString('hex')}-`;
  const probe = join(folder, `${stem}e\u0301a`);
  writeFileSync(probe, '', { flag: 'wx' });
  try {
    return {
      caseInsensitive: existsSync(join(folder, `${stem}E\u0301A`)),
      normalizationInsensitive: existsSync(join(folder, `${stem}\u00e9a`)),
    };
  } finally {
    unlinkSync(probe);
  }
}
