// Which local names are never synced (temporary and system files, trash and recovery folders) and which cannot exist on a platform.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nameProblem } from '../../api/names.ts';
import { nameKey } from '../../model/items.ts';
import { DOWNLOAD_TEMP_PREFIX } from '../../model/names.ts';

// The client's own names live with the model (the planner needs them too); kept here for their users.

const SYSTEM_FILE = 'a system file';
const TRASH_FOLDER = 'a trash folder';
const RECOVERY_FOLDER = "a file system check's recovery folder";

// Compared in lower case: Windows and macOS treat these names case-insensitively. Several mark a file
// system's own bookkeeping at its root; they are skipped at any depth because the scan does not know
// where a mount sits, and a disk mounted inside the synced folder carries them too.
const SYSTEM_NAMES = new Map<string, string>([
  ['.ds_store', SYSTEM_FILE],
  ['thumbs.db', SYSTEM_FILE],
  ['ehthumbs.db', SYSTEM_FILE],
  ['desktop.ini', SYSTEM_FILE],
  ['.directory', SYSTEM_FILE],
  ['.fseventsd', SYSTEM_FILE],
  ['.spotlight-v100', SYSTEM_FILE],
  ['.temporaryitems', SYSTEM_FILE],
  ['.apdisk', SYSTEM_FILE],
  ['system volume information', SYSTEM_FILE],
  // macOS: the trash of a volume (a Finder delete on a USB disk goes there), and the Recycle Bin of
  // Windows Vista and later on each drive.
  ['.trashes', TRASH_FOLDER],
  ['$recycle.bin', TRASH_FOLDER],
  // macOS, at a volume's root: the versions store of documents (Versions/Auto Save), readable only
  // by the system; and the installer's sandboxes, which it removes itself.
  ['.documentrevisions-v100', SYSTEM_FILE],
  ['.pkinstallsandboxmanager', SYSTEM_FILE],
  ['.pkinstallsandboxmanager-systemsoftware', SYSTEM_FILE],
  // macOS settings of one disk: the icon the Finder shows for it, and "do not offer this disk for
  // Time Machine". On another computer they would change whatever disk its synced folder is on.
  ['.volumeicon.icns', SYSTEM_FILE],
  ['.com.apple.timemachine.donotpresent', SYSTEM_FILE],
  // An AFP server (netatalk, old Mac OS file sharing): resource forks and the Finder's database of a
  // share, and its trash. Its "Temporary Items" folder is left out of this list: people use that name.
  ['.appledouble', SYSTEM_FILE],
  ['.appledb', SYSTEM_FILE],
  ['.appledesktop', SYSTEM_FILE],
  ['network trash folder', TRASH_FOLDER],
]);

// Compared exactly: the system writes these in one spelling, and a user's own folder in another
// spelling (Obsidian's `.trash`, a code package `recycler`) is the user's and is synced.
const EXACT_SYSTEM_NAMES = new Map<string, string>([
  // freedesktop.org trash spec 1.0, "Trash directories": a disk's shared `$topdir/.Trash/$uid`
  // (`.Trash-$uid` is matched below); also the macOS home trash, `~/.Trash`.
  ['.Trash', TRASH_FOLDER],
  // Windows XP's Recycle Bin on an NTFS drive, and on a FAT drive; old USB disks still carry them.
  ['RECYCLER', TRASH_FOLDER],
  ['RECYCLED', TRASH_FOLDER],
  // Where fsck puts what it recovers on ext2/3/4 (root's, mode 0700: unreadable to the user anyway),
  // and Android's equivalent on a memory card. `FOUND.nnn` (chkdsk) is matched below.
  ['lost+found', RECOVERY_FOLDER],
  ['LOST.DIR', RECOVERY_FOLDER],
]);

// freedesktop.org trash spec 1.0: `$topdir/.Trash-$uid`, a disk's own trash for one user, made at the
// top of the mount the deleted file is on (a remote delete in a synced folder at a disk's root too).
const USER_TRASH = /^\.Trash-\d+$/;
// chkdsk puts what it recovers in `FOUND.000`, `FOUND.001`... at a drive's root.
const CHKDSK_FOUND = /^FOUND\.\d{3}$/;

// Most names have none of these lengths or first characters (in either case): they need no lower-case
// copy and no lookup (a pass checks every name).
const SYSTEM_NAME_LENGTHS = new Set(
  [...SYSTEM_NAMES.keys(), ...EXACT_SYSTEM_NAMES.keys()].map((name) => name.length),
);
const SYSTEM_NAME_STARTS = new Set(
  [...SYSTEM_NAMES.keys(), ...EXACT_SYSTEM_NAMES.keys()].flatMap((name) => [
    name.toLowerCase().charCodeAt(0),
    name.toUpperCase().charCodeAt(0),
  ]),
);

/**
 * Why `name` is a temporary or system file that is never synced, or undefined. Editor swap and backup
 * files, Office lock files and unfinished browser downloads change under the user's hands and mean
 * nothing on another computer; trash and recovery folders and a file system's bookkeeping belong to
 * the disk they are on, and the user never meant to share them.
 */
export function temporaryOrSystemReason(name: string): string | undefined {
  const first = name.charCodeAt(0);
  if (SYSTEM_NAME_STARTS.has(first) && SYSTEM_NAME_LENGTHS.has(name.length)) {
    const system = EXACT_SYSTEM_NAMES.get(name) ?? SYSTEM_NAMES.get(name.toLowerCase());
    if (system !== undefined) return system;
  }
  const last = name.charCodeAt(name.length - 1);
  if (last === 0x7e /* ~ */) return 'an editor backup file';
  if (first === 0x2e /* . */) {
    if (name.startsWith('.Trash-') && USER_TRASH.test(name)) return TRASH_FOLDER;
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
  if (first === 0x46 /* F */ && name.length === 9 && CHKDSK_FOUND.test(name)) return RECOVERY_FOLDER;
  if (first === 0x23 /* # */ && last === 0x23 && name.length > 1) return 'an Emacs auto-save file';
  if (first === 0x7e && name.charCodeAt(1) === 0x24 /* ~$ */) return 'an Office lock file';
  if (first === 0x7e && name.toLowerCase().endsWith('.tmp')) return 'an Office temporary file';
  if (last === 0x74 /* t */ && name.endsWith('.part')) return 'an unfinished download';
  if (name.endsWith('.crdownload')) return 'an unfinished download';
  return undefined;
}

/**
 * Why a local item is never synced under `name`, as a sentence for its issue, or undefined when it can
 * be: a name the device cannot store, or one this client refuses (`\`).
 */
export function deviceNameProblem(name: string): string | undefined {
  const problem = nameProblem(name);
  if (problem === undefined) return undefined;
  if (onlyTheBackslash(name)) {
    return 'Its name contains "\\", which mch-sync does not sync: Windows reads it as a folder separator. Rename it to sync it.';
  }
  return `Its name ${problem}, which the device cannot store. Rename it to sync it.`;
}

/**
 * Why an item on the device is never brought here under `name`, as a sentence for its issue, or
 * undefined when it can be (`platform`'s own rules included).
 */
export function remoteNameProblem(
  name: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const problem = localNameProblem(name, platform);
  if (problem === undefined) return undefined;
  if (onlyTheBackslash(name)) {
    return 'On the device: its name contains "\\", which mch-sync does not bring here (Windows reads it as a folder separator). Rename it on the device to sync it.';
  }
  return `On the device: its name ${problem}, so it cannot be brought to this computer. Rename it on the device to sync it.`;
}

/**
 * The device stores a backslash; this client refuses it both ways (api/names.ts), since on Windows it
 * separates folders: the rule is ours, and the words must not blame the device.
 */
function onlyTheBackslash(name: string): boolean {
  return name.includes('\\') && nameProblem(name.replaceAll('\\', '_')) === undefined;
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
 * a folder of its own (the state folder), so that no scan of the synced tree ever sees the probe. A
 * folder that cannot be written (a read-only disk) is probed by reading instead.
 */
export function probeNameTraits(folder: string): NameTraits {
  const stem = `.probe-${process.pid}-${randomBytes(4).toString('hex')}-`;
  const probe = join(folder, `${stem}e\u0301a`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
  } catch {
    // A pass on a read-only disk still reads it and says what it could not write (issue 27).
    return readNameTraits(folder);
  }
  try {
    return {
      caseInsensitive: existsSync(join(folder, `${stem}E\u0301A`)),
      normalizationInsensitive: existsSync(join(folder, `${stem}\u00e9a`)),
    };
  } finally {
    unlinkSync(probe);
  }
}

/**
 * The traits of a folder that cannot be written: the folder's own name in the other case leads to it on
 * a case-insensitive file system. Normalisation cannot be told without a name to try: the platform's
 * default (macOS's file systems ignore it).
 */
function readNameTraits(folder: string): NameTraits {
  const name = basename(folder);
  const swapped = [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const own = statSync(folder, { throwIfNoEntry: false });
  const caseInsensitive =
    swapped === name || own === undefined
      ? process.platform === 'darwin' || process.platform === 'win32'
      : statSync(join(dirname(folder), swapped), { throwIfNoEntry: false })?.ino === own.ino;
  return { caseInsensitive, normalizationInsensitive: process.platform === 'darwin' };
}
