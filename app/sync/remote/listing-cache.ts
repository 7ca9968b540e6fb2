// The remote walk's listing cache kept in the index, so a new process revalidates folders instead of listing them.
import type { ListingStore, StoredListing } from '../../index/listing-store.ts';
import type { RelativePath, RemoteEntry } from '../../model/items.ts';
import { MchError } from '../../../common/errors.ts';
import {
  childPath,
  WalkedListing,
  type CachedListing,
  type RemoteWalkCache,
  type SubfolderRef,
} from './walk-listing.ts';

/** One child as stored: `[id, parentId, name, 1 for a folder else 0, eTag, size, mTimeMs]`. */
type StoredChild = [string, string, string, 0 | 1, string, number, number];

/** One subfolder as stored apart: `[id, name]`. */
type StoredSubfolder = [string, string];

function encodeChildren(entries: readonly RemoteEntry[]): string {
  const rows: StoredChild[] = entries.map((entry) => [
    entry.id,
    entry.parentId,
    entry.name,
    entry.kind === 'folder' ? 1 : 0,
    entry.eTag,
    entry.size,
    entry.mTimeMs,
  ]);
  return JSON.stringify(rows);
}

function encodeSubfolders(entries: readonly RemoteEntry[]): string {
  const rows: StoredSubfolder[] = [];
  for (const entry of entries) if (entry.kind === 'folder') rows.push([entry.id, entry.name]);
  return JSON.stringify(rows);
}

function isStoredChild(row: unknown): row is StoredChild {
  if (!Array.isArray(row) || row.length !== 7) return false;
  const [id, parentId, name, folder, eTag, size, mTimeMs] = row as unknown[];
  return (
    typeof id === 'string' &&
    typeof parentId === 'string' &&
    typeof name === 'string' &&
    (folder === 0 || folder === 1) &&
    typeof eTag === 'string' &&
    typeof size === 'number' &&
    typeof mTimeMs === 'number'
  );
}

function isStoredSubfolder(row: unknown): row is StoredSubfolder {
  return Array.isArray(row) && row.length === 2 && typeof row[0] === 'string' && typeof row[1] === 'string';
}

function parsedArray(text: string | undefined): unknown[] | undefined {
  if (text === undefined) return undefined;
  try {
    const rows: unknown = JSON.parse(text);
    return Array.isArray(rows) ? rows : undefined;
  } catch {
    return undefined;
  }
}

/** A stored listing that turned out unreadable after the walk had used its subfolders. */
export class ListingCacheDamagedError extends MchError {
  constructor(folderId: string) {
    super(
      'LISTING_CACHE_DAMAGED',
      'Sync index damaged',
      `The kept listing of remote folder ${folderId} could not be read; the kept listings were dropped ` +
        'and the next pass lists every folder again.',
    );
  }
}

/**
 * A listing kept in the index. The walk reads only its subfolders (when it reaches the folder and its
 * path is known); the other children are read and decoded when someone first looks at them, which a
 * pass that finds nothing changed never does. Loading is one query for the ETags.
 */
class StoredCachedListing implements CachedListing {
  readonly eTag: string;
  readonly rejected = [];
  /** Set when the text could not be read: the folder's fresh listing is then written over it. */
  damaged = false;
  readonly #store: ListingStore;
  readonly #pageSize: number;

  constructor(eTag: string, store: ListingStore, pageSize: number) {
    this.eTag = eTag;
    this.#store = store;
    this.#pageSize = pageSize;
  }

  /** Undefined when the subfolders are not what `encodeSubfolders` writes: the folder is then listed in full. */
  at(folderId: string, folderPath: RelativePath): WalkedListing | undefined {
    const rows = parsedArray(this.#store.folders(folderId, this.#pageSize));
    const folders: SubfolderRef[] = [];
    for (const row of rows ?? []) {
      if (!isStoredSubfolder(row)) {
        this.damaged = true;
        return undefined;
      }
      folders.push({ id: row[0], path: childPath(folderPath, row[1]) });
    }
    this.damaged = rows === undefined;
    if (this.damaged) return undefined;
    return new WalkedListing(
      this.eTag,
      [],
      folderPath,
      () => this.#entries(folderId, folderPath, folders),
      folders,
    );
  }

  /** The children; text that is not what was written (or disagrees with the subfolders) drops every kept listing. */
  #entries(folderId: string, folderPath: RelativePath, folders: readonly SubfolderRef[]): RemoteEntry[] {
    const rows = parsedArray(this.#store.children(folderId, this.#pageSize));
    const entries: RemoteEntry[] = [];
    let subfolders = 0;
    for (const row of rows ?? []) {
      if (!isStoredChild(row)) break;
      const [id, parentId, name, folder, eTag, size, mTimeMs] = row;
      const path = childPath(folderPath, name);
      if (folder === 1 && (folders[subfolders]?.id !== id || folders[subfolders]?.path !== path)) break;
      if (folder === 1) subfolders += 1;
      entries.push({
        id,
        // One string for all the siblings, not one each.
        parentId: parentId === folderId ? folderId : parentId,
        path,
        name,
        kind: folder === 1 ? 'folder' : 'file',
        eTag,
        size,
        mTimeMs,
      });
    }
    if (rows === undefined || entries.length !== rows.length || subfolders !== folders.length) {
      // The walk already went where the subfolders said: this pass cannot go on, the next one lists again.
      this.#store.clear();
      throw new ListingCacheDamagedError(folderId);
    }
    return entries;
  }
}

/**
 * Loads the stored listings once and writes back what each walk changed. Listings with rejected items
 * are not stored: their errors are the API layer's objects, and such a folder is simply listed again.
 */
export class ListingCacheKeeper {
  readonly #store: ListingStore;
  readonly #pageSize: number | undefined;
  /** The listings as last read or written, by folder id. */
  #saved = new Map<string, CachedListing>();

  constructor(store: ListingStore, pageSize?: number) {
    this.#store = store;
    this.#pageSize = pageSize;
  }

  load(): RemoteWalkCache {
    const folders = new Map<string, CachedListing>();
    const pageSize = this.#pageSize ?? 0;
    for (const { folderId, eTag } of this.#store.eTags(pageSize)) {
      folders.set(folderId, new StoredCachedListing(eTag, this.#store, pageSize));
    }
    this.#saved = new Map(folders);
    return { pageSize: this.#pageSize, folders };
  }

  /**
   * Stores the listings whose ETag differs from the saved ones (a listing with the same ETag holds
   * the same children, maybe at a new path) and forgets folders the walk no longer has.
   */
  save(cache: RemoteWalkCache): void {
    const written: StoredListing[] = [];
    const next = new Map<string, CachedListing>();
    for (const [folderId, listing] of cache.folders) {
      if (listing.rejected.length > 0) continue;
      next.set(folderId, listing);
      const saved = this.#saved.get(folderId);
      const damaged = saved instanceof StoredCachedListing && saved.damaged;
      if (saved?.eTag === listing.eTag && !damaged) continue;
      // Only a listing the walk read can differ from the saved one.
      if (!(listing instanceof WalkedListing)) continue;
      written.push({
        folderId,
        eTag: listing.eTag,
        pageSize: this.#pageSize ?? 0,
        folders: encodeSubfolders(listing.entries),
        children: encodeChildren(listing.entries),
      });
    }
    const forgotten = [...this.#saved.keys()].filter((folderId) => !next.has(folderId));
    if (written.length > 0 || forgotten.length > 0) this.#store.save(written, forgotten);
    this.#saved = next;
  }
}
