// The remote walk's listing cache kept in the index, so a new process revalidates folders instead of listing them.
import type { ListingStore, StoredListing } from '../index/listing-store.ts';
import type { RelativePath, RemoteEntry } from './model.ts';
import type { RemoteWalkCache } from './remote-walk.ts';
import { childPath, WalkedListing, type CachedListing } from './walk-listing.ts';

/** One child as stored: `[id, parentId, name, 1 for a folder else 0, eTag, size, mTimeMs]`. */
type StoredChild = [string, string, string, 0 | 1, string, number, number];

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

/**
 * A listing kept in the index, read and decoded when the walk reaches its folder (and its path is
 * known): loading is one query for the ETags, and no folder's text stays in memory beside its entries.
 */
class StoredCachedListing implements CachedListing {
  readonly eTag: string;
  readonly rejected = [];
  /** Set when the text could not be read: the folder's fresh listing is then written over it. */
  damaged = false;
  readonly #read: () => string | undefined;

  constructor(eTag: string, read: () => string | undefined) {
    this.eTag = eTag;
    this.#read = read;
  }

  /** Undefined when the text is not what `encodeChildren` writes: a damaged row costs a full listing. */
  at(folderId: string, folderPath: RelativePath): WalkedListing | undefined {
    const entries = this.#decode(folderId, folderPath);
    this.damaged = entries === undefined;
    return entries && new WalkedListing(this.eTag, [], folderPath, entries);
  }

  #decode(folderId: string, folderPath: RelativePath): RemoteEntry[] | undefined {
    const text = this.#read();
    if (text === undefined) return undefined;
    let rows: unknown;
    try {
      rows = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!Array.isArray(rows)) return undefined;
    const entries: RemoteEntry[] = [];
    for (const row of rows) {
      if (!isStoredChild(row)) return undefined;
      const [id, parentId, name, folder, eTag, size, mTimeMs] = row;
      entries.push({
        id,
        // One string for all the siblings, not one each.
        parentId: parentId === folderId ? folderId : parentId,
        path: childPath(folderPath, name),
        name,
        kind: folder === 1 ? 'folder' : 'file',
        eTag,
        size,
        mTimeMs,
      });
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
      folders.set(folderId, new StoredCachedListing(eTag, () => this.#store.children(folderId, pageSize)));
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
        children: encodeChildren(listing.entries),
      });
    }
    const forgotten = [...this.#saved.keys()].filter((folderId) => !next.has(folderId));
    if (written.length > 0 || forgotten.length > 0) this.#store.save(written, forgotten);
    this.#saved = next;
  }
}
