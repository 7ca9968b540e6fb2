// A remote folder's listing as the walk keeps it: the entries it gave, reused while the folder keeps its path.
import type { RejectedItem } from '../api/device-client.ts';
import type { RelativePath, RemoteEntry } from './model.ts';

/**
 * One folder's last full listing, kept for the next walk: its listing ETag (first page) and its
 * children. A walk that gets a 304 takes the children from here.
 */
export interface CachedListing {
  readonly eTag: string;
  readonly rejected: readonly RejectedItem[];
  /**
   * This listing with its children as entries below `folderPath` (itself when they already are), or
   * undefined when its children cannot be read (a damaged stored row): the folder is then listed in full.
   */
  at(folderId: string, folderPath: RelativePath): WalkedListing | undefined;
}

export function childPath(parent: RelativePath, name: string): RelativePath {
  return parent === '' ? name : `${parent}/${name}`;
}

/**
 * A listing whose children are the walk's own entries, paths included. An unchanged folder at the same
 * path gives the same objects again: a pass over 100,000 unchanged items makes no new ones, and the
 * cache and the walk's result share them (entries are never changed in place).
 */
export class WalkedListing implements CachedListing {
  readonly eTag: string;
  readonly rejected: readonly RejectedItem[];
  /** The folder's path the entries' paths were made from. */
  readonly folderPath: RelativePath;
  readonly entries: readonly RemoteEntry[];

  constructor(
    eTag: string,
    rejected: readonly RejectedItem[],
    folderPath: RelativePath,
    entries: readonly RemoteEntry[],
  ) {
    this.eTag = eTag;
    this.rejected = rejected;
    this.folderPath = folderPath;
    this.entries = entries;
  }

  at(_folderId: string, folderPath: RelativePath): WalkedListing {
    if (folderPath === this.folderPath) return this;
    // A folder above was renamed or moved: the same children, at new paths.
    const moved = this.entries.map((entry) => ({ ...entry, path: childPath(folderPath, entry.name) }));
    return new WalkedListing(this.eTag, this.rejected, folderPath, moved);
  }
}
