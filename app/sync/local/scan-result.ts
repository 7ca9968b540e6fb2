// What the local scan found: the synced entries, what it skipped and why, name clashes, folder digests.
import type { LocalEntry, RelativePath } from '../../model/items.ts';

/** Why an item found on disk is not in `entries`. */
export type SkipReason =
  | 'symlink'
  | 'special-file'
  | 'temporary-or-system'
  | 'state-folder'
  | 'ignored'
  /** A device folder excluded from this computer (selective sync): a copy the user kept here. */
  | 'excluded'
  | 'invalid-name'
  /** It could not be read (`errno` says why): unknown this pass, not deleted. */
  | 'unreadable'
  /** It vanished during the scan: unknown this pass, not deleted. */
  | 'retry-later';

export interface SkippedItem {
  path: RelativePath;
  reason: SkipReason;
  /** For people: "a Vim swap file", "disappeared during the scan"... */
  detail: string;
  /** For `unreadable`: the file system's code (`EACCES`), which file-errors.ts puts in words. */
  errno?: string;
}

/** Names in one folder that a case-insensitive or a normalising file system would treat as one. */
export interface NameClash {
  folder: RelativePath;
  paths: RelativePath[];
  /**
   * 'unicode': the names differ only in normalisation (NFC/NFD); 'case': they differ in case (a group
   * of names equal but for case, which may hold a unicode clash too).
   */
  kind: 'case' | 'unicode';
}

/** A synced item whose name cannot exist on another platform (it stays in `entries`). */
export interface PortabilityWarning {
  path: RelativePath;
  detail: string;
}

/**
 * 'ok': the walk ran. 'empty': it ran and found nothing to sync. The other states mean the folder was
 * not read at all; the caller must never take any state but 'ok' as "everything was deleted".
 */
export type RootState = 'ok' | 'empty' | 'missing' | 'not-a-folder' | 'unreadable';

export interface ScanResult {
  root: RootState;
  /** Why the root could not be read (an errno code), for the message. */
  rootDetail?: string;
  /** What is synced, parents before their children. */
  entries: LocalEntry[];
  /** Skipped items; for a skipped folder only the folder is listed. Nothing below one was seen. */
  skipped: SkippedItem[];
  clashes: NameClash[];
  portability: PortabilityWarning[];
  /**
   * With `digests`: every folder read whole ('' is the root), in the order read, with the digest of its
   * synced children (`folder-digest.ts`) and where they are in `entries`. Absent when a folder could
   * not be read: its entry was withdrawn, and positions would not hold.
   */
  folders?: ScannedFolder[];
  /**
   * The inodes found in kept copies of excluded folders (selective sync), filled after the scan by the
   * engine: a synced item moved into one is left out, not deleted.
   */
  keptInodes?: ReadonlyMap<string, KeptItem>;
  /**
   * The inodes of the placeholders found (on-demand pairs, with `placeholders`): files whose content is
   * on the device only. Their bytes are never read, and their size and times are the device's.
   */
  placeholders?: Set<string>;
}

export interface ScannedFolder {
  path: RelativePath;
  digest: string;
  /** `entries.slice(first, end)` are its synced children. */
  first: number;
  end: number;
}

/** An item found in a kept copy of an excluded folder: enough to tell a synced file moved there. */
export interface KeptItem {
  kind: 'file' | 'folder' | 'other';
  size: number;
  mtimeNs: bigint;
}
