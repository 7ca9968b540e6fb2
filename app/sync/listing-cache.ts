// The remote walk's listing cache kept in the index, so a new process revalidates folders instead of listing them.
import type { ListingStore, StoredListing } from '../index/listing-store.ts';
import type { CachedListing, ListedItem, RemoteWalkCache } from './remote-walk.ts';

/** One child as stored: `[id, parentId or null, name, 1 for a folder else 0, eTag, size, mTimeMs]`. */
type StoredChild = [string, string | null, string, 0 | 1, string, number, number];

function encodeChildren(children: readonly ListedItem[]): string {
  const rows: StoredChild[] = children.map((item) => [
    item.id,
    item.parentId ?? null,
    item.name,
    item.isFolder ? 1 : 0,
    item.eTag,
    item.size,
    item.mTimeMs,
  ]);
  return JSON.stringify(rows);
}

function isStoredChild(row: unknown): row is StoredChild {
  if (!Array.isArray(row) || row.length !== 7) return false;
  const [id, parentId, name, folder, eTag, size, mTimeMs] = row as unknown[];
  return (
    typeof id === 'string' &&
    (parentId === null || typeof parentId === 'string') &&
    typeof name === 'string' &&
    (folder === 0 || folder === 1) &&
    typeof eTag === 'string' &&
    typeof size === 'number' &&
    typeof mTimeMs === 'number'
  );
}

/**
 * The children of a stored listing; undefined when the text is not what `encodeChildren` writes (a
 * damaged row only costs that folder a full listing).
 */
function decodeChildren(text: string): ListedItem[] | undefined {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(rows)) return undefined;
  const children: ListedItem[] = [];
  for (const row of rows) {
    if (!isStoredChild(row)) return undefined;
    const [id, parentId, name, folder, eTag, size, mTimeMs] = row;
    children.push({ id, parentId: parentId ?? undefined, name, isFolder: folder === 1, eTag, size, mTimeMs });
  }
  return children;
}

/**
 * Loads the stored listings once and writes back what each walk changed. Listings with rejected items
 * are not stored: their errors are the API layer's objects, and such a folder is simply listed again.
 */
export class ListingCacheKeeper {
  readonly #store: ListingStore;
  readonly #pageSize: number | undefined;
  /** The listings as last read or written, by folder id: a walk's unchanged folders keep these objects. */
  #saved = new Map<string, CachedListing>();

  constructor(store: ListingStore, pageSize?: number) {
    this.#store = store;
    this.#pageSize = pageSize;
  }

  load(): RemoteWalkCache {
    const folders = new Map<string, CachedListing>();
    for (const row of this.#store.all(this.#pageSize ?? 0)) {
      const children = decodeChildren(row.children);
      if (children !== undefined) folders.set(row.folderId, { eTag: row.eTag, children, rejected: [] });
    }
    this.#saved = new Map(folders);
    return { pageSize: this.#pageSize, folders };
  }

  /** Stores the listings that differ from the saved ones and forgets folders the walk no longer has. */
  save(cache: RemoteWalkCache): void {
    const written: StoredListing[] = [];
    const next = new Map<string, CachedListing>();
    for (const [folderId, listing] of cache.folders) {
      if (listing.rejected.length > 0) continue;
      next.set(folderId, listing);
      if (this.#saved.get(folderId) === listing) continue;
      written.push({
        folderId,
        eTag: listing.eTag,
        pageSize: this.#pageSize ?? 0,
        children: encodeChildren(listing.children),
      });
    }
    const forgotten = [...this.#saved.keys()].filter((folderId) => !next.has(folderId));
    if (written.length > 0 || forgotten.length > 0) this.#store.save(written, forgotten);
    this.#saved = next;
  }
}
