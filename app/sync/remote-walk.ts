// The remote half of a pass: a breadth-first walk of a device folder tree, reusing unchanged listings (304).
import { AbortedError, ApiError, MchError } from '../../common/errors.ts';
import type { DeviceClient, RejectedItem, RemoteFile } from '../api/device-client.ts';
import type { RelativePath, RemoteEntry } from './model.ts';

export const DEFAULT_WALK_CONCURRENCY = 4;

/** Stable codes of the walk's own failures (the API layer's `ApiError`s pass through unchanged). */
export type RemoteWalkErrorCode = 'REMOTE_ROOT_MISSING';

export class RemoteWalkError extends MchError {
  declare readonly code: RemoteWalkErrorCode;

  constructor(code: RemoteWalkErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, 'Remote folder unavailable', message, options);
  }
}

/** What the walk keeps of a listed item: only what a pass uses, so 100,000 of them stay small. */
export interface ListedItem {
  id: string;
  parentId: string | undefined;
  name: string;
  isFolder: boolean;
  eTag: string;
  size: number;
  /** The device always sends mTime; an answer without one reads as cTime, else the epoch. */
  mTimeMs: number;
}

/** One folder's last full listing: its listing ETag (first page) and what it held. */
export interface CachedListing {
  eTag: string;
  children: readonly ListedItem[];
  rejected: readonly RejectedItem[];
}

/**
 * What a walk keeps for the next one, by folder id. The device's listing ETag depends on the page size,
 * so a cache is only used with the page size it was made with.
 */
export interface RemoteWalkCache {
  pageSize: number | undefined;
  folders: ReadonlyMap<string, CachedListing>;
}

export interface RemoteWalkOptions {
  /** Folders listed at once (default 4). */
  concurrency?: number;
  /** Items per listing page, 1-1000 (default: the device's, 100). */
  pageSize?: number;
  /** The previous walk's `cache`: unchanged folders then cost one 304 each. */
  cache?: RemoteWalkCache;
  signal?: AbortSignal;
  /**
   * Folders whose cached listing is used without asking the device (a pass after a local change: the
   * poll finds remote changes, and If-Match guards every write made from a stale listing).
   */
  trust?: (folderId: string) => boolean;
}

/** An item the API layer left out of a listing (bad name, malformed), with the folder it is in. */
export interface RemoteWalkRejected {
  folderId: string;
  /** The folder's path below the walked root ('' for the root). */
  folderPath: RelativePath;
  id: string | undefined;
  name: string | undefined;
  error: ApiError;
}

/**
 * A folder that was in its parent's listing but was gone (404) when it was listed itself. Its entry stays
 * in `entries`; nothing below `path` was seen, so the caller must treat that subtree as unknown, never as
 * deleted.
 */
export interface RemoteWalkVanished {
  id: string;
  path: RelativePath;
  error: ApiError;
}

export interface RemoteWalkResult {
  /** Every item below the root (the root itself is not an entry), by id; parents come before children. */
  entries: Map<string, RemoteEntry>;
  rejected: RemoteWalkRejected[];
  vanished: RemoteWalkVanished[];
  /** Folders whose listing answered 304 (their children came from the cache). */
  unchanged: Set<string>;
  /** Folders listed in full (new, changed, or without a usable cached listing). */
  listed: Set<string>;
  /** For the next walk: every folder listed this time (a vanished one is dropped). */
  cache: RemoteWalkCache;
  /** Listing requests of this walk: full listings (each may take several pages) and 304 answers. */
  stats: { listed: number; notModified: number; trusted: number };
}

interface PendingFolder {
  id: string;
  path: RelativePath;
}

function childPath(parent: RelativePath, name: string): RelativePath {
  return parent === '' ? name : `${parent}/${name}`;
}

export function listedItem(file: RemoteFile): ListedItem {
  return {
    id: file.id,
    parentId: file.parentID,
    name: file.name,
    isFolder: file.isFolder,
    eTag: file.eTag,
    size: file.isFolder ? 0 : file.size,
    mTimeMs: file.mTimeMs ?? file.cTimeMs ?? 0,
  };
}

function toEntry(item: ListedItem, folderId: string, path: RelativePath): RemoteEntry {
  return {
    id: item.id,
    parentId: item.parentId ?? folderId,
    path,
    name: item.name,
    kind: item.isFolder ? 'folder' : 'file',
    eTag: item.eTag,
    size: item.size,
    mTimeMs: item.mTimeMs,
  };
}

function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'NOT_FOUND';
}

/** Walks the folder tree below `rootId` breadth first, listing at most `concurrency` folders at once. */
export async function walkRemote(
  client: DeviceClient,
  rootId: string,
  options: RemoteWalkOptions = {},
): Promise<RemoteWalkResult> {
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_WALK_CONCURRENCY);
  const previous =
    options.cache !== undefined && options.cache.pageSize === options.pageSize
      ? options.cache.folders
      : undefined;
  const result: RemoteWalkResult = {
    entries: new Map(),
    rejected: [],
    vanished: [],
    unchanged: new Set(),
    listed: new Set(),
    cache: { pageSize: options.pageSize, folders: new Map() },
    stats: { listed: 0, notModified: 0, trusted: 0 },
  };
  const nextCache = result.cache.folders as Map<string, CachedListing>;
  // One failure stops the other listings in flight; the caller's signal stops all of them.
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);

  /** The folder's listing from the device (a 304 reuses `cached`); undefined when it vanished. */
  const fetchListing = async (
    folder: PendingFolder,
    cached: CachedListing | undefined,
  ): Promise<CachedListing | undefined> => {
    try {
      const answer = await client.listAll(folder.id, {
        ...(options.pageSize === undefined ? {} : { limit: options.pageSize }),
        ...(cached === undefined ? {} : { ifNoneMatch: cached.eTag }),
        signal,
      });
      if (answer.notModified) {
        result.unchanged.add(folder.id);
        result.stats.notModified += 1;
        // Only sent with a cached eTag, so `cached` is there.
        return cached ?? { eTag: '', children: [], rejected: [] };
      }
      result.stats.listed += 1;
      result.listed.add(folder.id);
      return { eTag: answer.eTag ?? '', children: answer.files.map(listedItem), rejected: answer.rejected };
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (folder.path === '') {
        throw new RemoteWalkError('REMOTE_ROOT_MISSING', `The remote folder ${folder.id} is gone.`, {
          cause: error,
        });
      }
      // Gone mid-walk: its subtree is unknown, not empty.
      result.vanished.push({ id: folder.id, path: folder.path, error });
      return undefined;
    }
  };

  const listFolder = async (folder: PendingFolder): Promise<PendingFolder[]> => {
    if (signal.aborted) throw new AbortedError();
    const cached = previous?.get(folder.id);
    let listing: CachedListing;
    if (cached !== undefined && options.trust?.(folder.id) === true) {
      listing = cached;
      result.unchanged.add(folder.id);
      result.stats.trusted += 1;
    } else {
      const fetched = await fetchListing(folder, cached);
      if (fetched === undefined) return [];
      listing = fetched;
    }
    // A listing without an ETag cannot be revalidated, so it is not kept.
    if (listing.eTag !== '') nextCache.set(folder.id, listing);
    for (const item of listing.rejected) {
      result.rejected.push({ folderId: folder.id, folderPath: folder.path, ...item });
    }
    const subfolders: PendingFolder[] = [];
    for (const file of listing.children) {
      // An item seen twice (moved from one listed folder to another during the walk) keeps its first
      // place; walking it again could loop.
      if (result.entries.has(file.id) || file.id === rootId) continue;
      const path = childPath(folder.path, file.name);
      result.entries.set(file.id, toEntry(file, folder.id, path));
      if (file.isFolder) subfolders.push({ id: file.id, path });
    }
    return subfolders;
  };

  await new Promise<void>((resolve, reject) => {
    const queue: PendingFolder[] = [{ id: rootId, path: '' }];
    let active = 0;
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      while (active < concurrency && queue.length > 0) {
        const folder = queue.shift() as PendingFolder;
        active += 1;
        listFolder(folder).then(
          (subfolders) => {
            active -= 1;
            queue.push(...subfolders);
            if (active === 0 && queue.length === 0) resolve();
            else pump();
          },
          (error: unknown) => {
            active -= 1;
            if (failed) return;
            failed = true;
            stop.abort();
            reject(error instanceof Error ? error : new AbortedError());
          },
        );
      }
    };
    pump();
  });
  return result;
}
