// The sync engine's data model: what the local scan, the remote walk and the index each say about an item.

export type ItemKind = 'file' | 'folder';

/**
 * A path relative to the sync root, with '/' separators and no leading or trailing slash; '' is the
 * root. Paths are attributes that change: items are identified by remote id and local inode.
 */
export type RelativePath = string;

/** What the local scan saw (lstat) for one synced item. */
export interface LocalEntry {
  /** As found on disk (not normalised); compare names through `nameKey()`. */
  path: RelativePath;
  kind: ItemKind;
  /** The file system's inode number as a decimal string (64-bit values do not fit a JS number). */
  inode: string;
  /** Bytes; 0 for folders. */
  size: number;
  /** Modification time in nanoseconds since the epoch. */
  mtimeNs: bigint;
  /**
   * Set on a folder that holds, at any depth, a kept copy of an excluded folder (the scan skips it): the
   * user's own, unsynced, so the planner keeps the folder when the device deletes it.
   */
  holdsLeftOut?: true;
}

/** What the device said about one item during the remote walk. */
export interface RemoteEntry {
  id: string;
  parentId: string;
  /** The path below the synced remote folder, built from the walk. */
  path: RelativePath;
  name: string;
  kind: ItemKind;
  eTag: string;
  size: number;
  /** Milliseconds since the epoch (the device keeps milliseconds). */
  mTimeMs: number;
  /**
   * Set on a folder that holds, at any depth, items the round leaves out (a name clash, a refused
   * name): a DELETE of it would delete them unseen, so the planner keeps it.
   */
  holdsLeftOut?: true;
  /**
   * Where the item really is on the device when an earlier round or pass left it under a temporary
   * name (`.mch-moving-…`, a swap not finished): the entry itself says where the index has it, and a
   * move of it must send its whole place.
   */
  parkedAs?: { name: string; parentId: string };
}

/**
 * One row of the index: the state both sides agreed on after the item was last synced. The remote half
 * (id, eTag, mTime) and the local half (inode, size, mtime) were true at the same moment.
 */
export interface IndexEntry {
  remoteId: string;
  parentRemoteId: string;
  path: RelativePath;
  name: string;
  kind: ItemKind;
  eTag: string;
  size: number;
  mTimeMs: number;
  /** Null until the item exists locally (e.g. a download that has not finished). */
  inode: string | null;
  localSize: number | null;
  localMtimeNs: bigint | null;
  /** SHA-256 of the content as hex, for files whose content both sides had; null for folders. */
  contentHash: string | null;
}

/**
 * An index row as a pass reads it for every item: all but the content hash, which only the executor
 * reads, for the few items it changes, from the index itself (100,000 hashes are 8 MB of heap).
 */
export type IndexRow = Omit<IndexEntry, 'contentHash'>;

/**
 * Milliseconds of a nanosecond mtime, to the nearest: tools set times through doubles, so `.678 s`
 * lands on disk as `.677999…`; truncating would shift half of all millisecond times by one.
 */
export function msOfNs(ns: bigint): number {
  return Number((ns + 500_000n) / 1_000_000n);
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\u0000-\u007f]*$/;

export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/** The key two names are compared by: Unicode NFC (an NFC/NFD-only difference is no change). */
export function nameKey(name: string): string {
  // ASCII is its own NFC, and most paths are ASCII: a pass compares hundreds of thousands of them.
  return ASCII.test(name) ? name : name.normalize('NFC');
}

/** Whether two names are one under NFC; equal spellings need no normalising. */
export function sameName(a: string, b: string): boolean {
  return a === b || nameKey(a) === nameKey(b);
}

/** Whether the last segment of `path` is `name` under NFC, without cutting the path when it is spelled so. */
export function hasName(path: RelativePath, name: string): boolean {
  const start = path.length - name.length;
  if (path.endsWith(name) && (start === 0 || path.charCodeAt(start - 1) === 0x2f) /* / */) return true;
  return nameKey(path.slice(path.lastIndexOf('/') + 1)) === nameKey(name);
}
