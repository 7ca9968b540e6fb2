// What a synced folder is (its marker, device and inode): a folder replaced, re-created or remounted is never read as the user's deletes.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../../index/index-store.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';

/** Index meta key of the recorded `FolderIdentity` as JSON. */
export const META_FOLDER_IDENTITY = 'folderIdentity';

/** The marker's file in the folder's state folder: a random id only this pair's folder holds. */
export const FOLDER_MARKER_FILE = 'folder-id';

/**
 * What the synced folder was when last synced. The marker tells two folders apart where device and
 * inode cannot (two USB disks formatted alike mount at one path with the same device number and the
 * same root inode); device and inode tell a copy from the original (a copy keeps the marker).
 */
export interface FolderIdentity {
  /**
   * The random id in `<root>/.mch-sync/folder-id`; `''` for a folder that could not be written when it
   * was recorded (a read-only disk): then device and inode alone tell it.
   */
  marker: string;
  /** `st_dev` and `st_ino` of the root (followed if it is a link), as decimal strings. */
  device: string;
  inode: string;
  /** The file system's name where known (`ext4`, `tmpfs`...): for the words, and to tell a renumbered disk. */
  fileSystem?: string;
}

/** How the folder on disk differs from the recorded one. */
export type FolderChange = 'other-file-system' | 'replaced' | 'marker-missing' | 'marker-other';

/** The folder as it is now, or undefined when the root is not a folder that can be read. */
export interface FolderOnDisk {
  marker: string | undefined;
  device: string;
  inode: string;
  fileSystem: string | undefined;
}

export function folderOnDisk(root: string): FolderOnDisk | undefined {
  let stats;
  try {
    stats = statSync(root, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stats.isDirectory()) return undefined;
  return {
    marker: readMarker(root),
    device: stats.dev.toString(),
    inode: stats.ino.toString(),
    fileSystem: fileSystemName(root),
  };
}

export function recordedIdentity(index: IndexStore): FolderIdentity | undefined {
  const text = index.getMeta(META_FOLDER_IDENTITY);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<FolderIdentity>;
    if (
      typeof value.marker !== 'string' ||
      typeof value.device !== 'string' ||
      typeof value.inode !== 'string'
    )
      return undefined;
    return value as FolderIdentity;
  } catch {
    return undefined;
  }
}

/** The first difference that matters, most telling first; undefined when it is the recorded folder. */
export function folderChange(recorded: FolderIdentity, now: FolderOnDisk): FolderChange | undefined {
  if (now.device !== recorded.device && !renumbered(recorded, now)) return 'other-file-system';
  if (recorded.marker !== '') {
    if (now.marker === undefined) return 'marker-missing';
    if (now.marker !== recorded.marker) return 'marker-other';
  }
  if (now.inode !== recorded.inode) return 'replaced';
  return undefined;
}

/**
 * Whether the folder is the recorded one on a device that got another number: a device number names
 * where a disk is plugged in or the order of mounts, not the disk (a USB disk in another port, a btrfs
 * subvolume or a FUSE mount after a reboot). The pair's own marker at the same root inode, on a file
 * system of the same kind, is the same folder; without a marker (recorded on a read-only disk) the
 * number is all there is, and it must match.
 */
export function renumbered(recorded: FolderIdentity, now: FolderOnDisk): boolean {
  const sameKind =
    recorded.fileSystem === undefined ||
    now.fileSystem === undefined ||
    recorded.fileSystem === now.fileSystem;
  return recorded.marker !== '' && now.marker === recorded.marker && now.inode === recorded.inode && sameKind;
}

/**
 * Records the folder as it is now as the pair's folder: its marker is kept (a pair added again for a
 * folder synced before) or written, then the identity goes to the index.
 */
export function recordFolderIdentity(index: IndexStore, root: string, now: FolderOnDisk): FolderIdentity {
  const marker = now.marker ?? writeMarkerIfWritable(root);
  const identity: FolderIdentity = {
    marker,
    device: now.device,
    inode: now.inode,
    ...(now.fileSystem === undefined ? {} : { fileSystem: now.fileSystem }),
  };
  index.setMeta(META_FOLDER_IDENTITY, JSON.stringify(identity));
  return identity;
}

/** A new marker (a folder answered "as it is" gets one of its own, so a copy of it is told apart). */
export function renewMarker(root: string, now: FolderOnDisk): FolderOnDisk {
  return { ...now, marker: writeMarkerIfWritable(root) };
}

/** Words for what changed, after "The folder <root> ". */
export function describeFolderChange(
  change: FolderChange,
  recorded: FolderIdentity,
  now: FolderOnDisk,
): string {
  switch (change) {
    case 'other-file-system': {
      const was = recorded.fileSystem === undefined ? '' : ` (${recorded.fileSystem}`;
      const is = now.fileSystem === undefined ? '' : `${was === '' ? ' (now ' : ', now '}${now.fileSystem}`;
      const names = was === '' && is === '' ? '' : `${was}${is})`;
      return (
        `is on another disk or file system than when it was last synced${names}: a drive that is not ` +
        `mounted leaves the empty folder it is mounted on, which anything may write into`
      );
    }
    case 'marker-missing':
      return (
        `no longer holds its sync marker (${STATE_FOLDER_NAME}/${FOLDER_MARKER_FILE}): another folder ` +
        `may have taken its place, or the ${STATE_FOLDER_NAME} folder was deleted`
      );
    case 'marker-other':
      return `holds the sync marker of another folder: another synced folder was moved or copied to its place`;
    case 'replaced':
      return `is a copy, or was made again: it is not the folder that was synced, though it holds its marker`;
    default: {
      const never: never = change;
      throw new Error(`unknown folder change ${String(never)}`);
    }
  }
}

function readMarker(root: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(join(root, STATE_FOLDER_NAME, FOLDER_MARKER_FILE), 'utf8')) as {
      id?: unknown;
    };
    return typeof value.id === 'string' && /^[0-9a-f]{32}$/.test(value.id) ? value.id : undefined;
  } catch {
    return undefined;
  }
}

/** A new marker, or `''` where the folder cannot be written (a read-only disk): read, it still syncs up. */
function writeMarkerIfWritable(root: string): string {
  try {
    return writeMarker(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return '';
    throw error;
  }
}

/** Written to a temporary name and renamed, so a crash never leaves half a marker. */
function writeMarker(root: string): string {
  const id = randomBytes(16).toString('hex');
  const folder = join(root, STATE_FOLDER_NAME);
  // Not recursive: the root is there, and a recursive mkdir says ENOENT where the disk is read-only.
  try {
    mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const temporary = join(folder, `.${FOLDER_MARKER_FILE}-${randomBytes(4).toString('hex')}`);
  writeFileSync(temporary, `${JSON.stringify({ id })}\n`, { mode: 0o644 });
  renameSync(temporary, join(folder, FOLDER_MARKER_FILE));
  return id;
}

// statfs(2) magic numbers of the file systems people sync from (linux/magic.h); elsewhere no name.
const FILE_SYSTEMS = new Map<number, string>([
  [0xef53, 'ext4'],
  [0x9123683e, 'btrfs'],
  [0x58465342, 'xfs'],
  [0x2fc12fc1, 'zfs'],
  [0x01021994, 'tmpfs'],
  [0x4d44, 'FAT'],
  [0x2011bab0, 'exFAT'],
  [0x5346544e, 'NTFS'],
  [0x7366746e, 'NTFS'],
  [0x65735546, 'FUSE'],
  [0x6969, 'NFS'],
  [0xff534d42, 'SMB'],
  [0xfe534d42, 'SMB'],
  [0x794c7630, 'overlay'],
  [0xf15f, 'eCryptfs'],
]);

function fileSystemName(root: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return FILE_SYSTEMS.get(statfsSync(root).type);
  } catch {
    return undefined;
  }
}
