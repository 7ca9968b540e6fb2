// A remote folder's listing as the walk keeps it: the entries it gave, reused while the folder keeps its path.
import type { RejectedItem } from '../../api/device-client.ts';
import type { RelativePath, RemoteEntry } from '../../model/items.ts';
import { baseName } from '../../model/paths.ts';

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

/**
 * What a walk keeps for the next one, by folder id. The device's listing ETag depends on the page size,
 * so a cache is only used with the page size it was made with.
 */
export interface RemoteWalkCache {
  pageSize: number | undefined;
  folders: ReadonlyMap<string, CachedListing>;
}

export function childPath(parent: RelativePath, name: string): RelativePath {
  // Joined into one flat string: `${parent}/${name}` is two cons strings (V8) that a lookup later
  // flattens into a third; over a million entries that is about 47 MB more heap.
  return parent === '' ? name : [parent, name].join('/');
}

/** A subfolder as the walk needs it to go on: its id and its path. */
export interface SubfolderRef {
  readonly id: string;
  readonly path: RelativePath;
}

/**
 * A listing whose children are the walk's own entries, paths included. An unchanged folder at the same
 * path gives the same objects again: a pass over 100,000 unchanged items makes no new ones, and the
 * cache and the walk's result share them (entries are never changed in place). Entries may be given as
 * a function, called once when they are first read, with the subfolders given apart: a listing read
 * back from the index then costs nothing until someone looks at its files.
 */
export class WalkedListing implements CachedListing {
  readonly eTag: string;
  readonly rejected: readonly RejectedItem[];
  /** The folder's path the entries' paths were made from. */
  readonly folderPath: RelativePath;
  #entries: readonly RemoteEntry[] | (() => readonly RemoteEntry[]);
  #folders: readonly SubfolderRef[] | undefined;

  constructor(
    eTag: string,
    rejected: readonly RejectedItem[],
    folderPath: RelativePath,
    entries: readonly RemoteEntry[] | (() => readonly RemoteEntry[]),
    folders?: readonly SubfolderRef[],
  ) {
    this.eTag = eTag;
    this.rejected = rejected;
    this.folderPath = folderPath;
    this.#entries = entries;
    this.#folders = folders;
  }

  get entries(): readonly RemoteEntry[] {
    if (typeof this.#entries === 'function') this.#entries = this.#entries();
    return this.#entries;
  }

  /** The subfolders: what a walk descends into (kept, as the listing is reused by polls). */
  get folders(): readonly SubfolderRef[] {
    this.#folders ??= this.entries.filter((entry) => entry.kind === 'folder');
    return this.#folders;
  }

  at(_folderId: string, folderPath: RelativePath): WalkedListing {
    if (folderPath === this.folderPath) return this;
    // A folder above was renamed or moved: the same children, at new paths (read when first asked for).
    const moved = (): RemoteEntry[] =>
      this.entries.map((entry) => ({ ...entry, path: childPath(folderPath, entry.name) }));
    const folders =
      typeof this.#entries === 'function' && this.#folders !== undefined
        ? this.#folders.map((folder) => ({
            id: folder.id,
            path: childPath(folderPath, baseName(folder.path)),
          }))
        : undefined;
    return new WalkedListing(this.eTag, this.rejected, folderPath, moved, folders);
  }
}

/** A move or rename the device confirmed to this engine, with the item's new eTag. */
export interface OwnMove {
  remoteId: string;
  fromParentId: string;
  toParentId: string;
  /** The new name; null when the item kept its name. */
  name: string | null;
  eTag: string;
}

/**
 * The cache with the engine's own moves applied to the listings of both folders, which then need not be
 * listed again by a pass that trusts the cache (their listing ETags stay the old ones, so a revalidating
 * walk still lists them in full). A move the cache cannot follow (a folder not listed yet, an item not
 * where the listing has it) adds both folders to `touched` instead.
 */
export function withOwnMoves(
  cache: RemoteWalkCache,
  moves: readonly OwnMove[],
  touched: Set<string>,
): RemoteWalkCache {
  if (moves.length === 0) return cache;
  const folders = new Map(cache.folders);
  for (const move of moves) {
    if (!applyMove(folders, move)) {
      touched.add(move.fromParentId);
      touched.add(move.toParentId);
    }
  }
  return { pageSize: cache.pageSize, folders };
}

function applyMove(folders: Map<string, CachedListing>, move: OwnMove): boolean {
  const from = folders.get(move.fromParentId);
  const to = folders.get(move.toParentId);
  if (!(from instanceof WalkedListing) || !(to instanceof WalkedListing)) return false;
  const entry = from.entries.find((child) => child.id === move.remoteId);
  if (entry === undefined) return false;
  const name = move.name ?? entry.name;
  const moved: RemoteEntry = {
    ...entry,
    name,
    parentId: move.toParentId,
    eTag: move.eTag,
    path: childPath(to.folderPath, name),
  };
  if (from === to) {
    const entries = from.entries.map((child) => (child === entry ? moved : child));
    folders.set(move.fromParentId, new WalkedListing(from.eTag, from.rejected, from.folderPath, entries));
    return true;
  }
  const left = from.entries.filter((child) => child !== entry);
  folders.set(move.fromParentId, new WalkedListing(from.eTag, from.rejected, from.folderPath, left));
  folders.set(
    move.toParentId,
    new WalkedListing(to.eTag, to.rejected, to.folderPath, [...to.entries, moved]),
  );
  return true;
}
