// The remote half of a pass: a breadth-first walk of a device folder tree, reusing unchanged listings (304).
import { AbortedError, ApiError, MchError } from '../../../common/errors.ts';
import type { DeviceClient, ListingAnswer, ListingPage, RemoteFile } from '../../api/device-client.ts';
import type { ApiResponse } from '../../api/http/transport.ts';
import { ListingRevalidator } from '../../api/listing-revalidator.ts';
import type { RelativePath, RemoteEntry } from '../../model/items.ts';
import { breadthFirst, Slots } from './walk-queue.ts';
import { childPath, WalkedListing, type CachedListing, type RemoteWalkCache } from './walk-listing.ts';

// The walk's cache types live with the listings they hold; the walk's users keep finding them here.
export type { CachedListing, RemoteWalkCache } from './walk-listing.ts';

// A 304 costs the device little, so round trips bound the walk: 8 in flight took a third less time
// than 4 over 1,011 folders (bench/sync-pass.bench.ts tree).
export const DEFAULT_WALK_CONCURRENCY = 8;
/**
 * Folders whose kept listing is being revalidated at once, pipelined (listing-revalidator.ts). More than
 * the revalidator keeps on its connections (2 × 32), so it always has requests queued to refill a
 * connection with in one write; with no more than that, each answer let one folder in, sent alone.
 */
const PIPELINED_FOLDERS = 256;

/** Stable codes of the walk's own failures (the API layer's `ApiError`s pass through unchanged). */
export type RemoteWalkErrorCode = 'REMOTE_ROOT_MISSING';

export class RemoteWalkError extends MchError {
  declare readonly code: RemoteWalkErrorCode;

  constructor(code: RemoteWalkErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, 'Remote folder unavailable', message, options);
  }
}

export interface RemoteWalkOptions {
  /** Folders listed at once (default 8). */
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
  /** Revalidate cached listings with pipelined requests (default true); false: one request each. */
  pipelined?: boolean;
  /**
   * Folders excluded from this computer (selective sync): their entry is kept, nothing below them is
   * listed (`excluded` in the result names them).
   */
  excluded?: (folder: { id: string; path: RelativePath }) => boolean;
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
  /**
   * Folders met but not listed, excluded by `options.excluded`, where the walk met them. The engine
   * adds the folders a round leaves out after the walk: new ones waiting for an answer, and (`newOnly`)
   * folders whose local copy goes once synced, of which only what is new on the device is left out.
   */
  excluded: Array<{
    id: string;
    path: RelativePath;
    newOnly?: true;
    /** A new folder waiting for the user's answer, with what was counted below it. */
    waiting?: { bytes: number; files: number };
  }>;
  /** For the next walk: every folder listed this time (a vanished one is dropped). */
  cache: RemoteWalkCache;
  /** Listing requests of this walk: full listings (each may take several pages) and 304 answers. */
  stats: { listed: number; notModified: number; trusted: number };
}

interface PendingFolder {
  id: string;
  path: RelativePath;
}

function toEntry(file: RemoteFile, folderId: string, path: RelativePath): RemoteEntry {
  return {
    id: file.id,
    // One string for all the siblings, not one each.
    parentId: file.parentID === undefined || file.parentID === folderId ? folderId : file.parentID,
    path,
    name: file.name,
    kind: file.isFolder ? 'folder' : 'file',
    eTag: file.eTag,
    size: file.isFolder ? 0 : file.size,
    // The device always sends mTime; an answer without one reads as cTime, else the epoch.
    mTimeMs: file.mTimeMs ?? file.cTimeMs ?? 0,
  };
}

/** Whether every file of a listing that names its parent names this folder. */
function childrenOf(page: ListingPage, folderId: string): boolean {
  return page.files.every((file) => file.parentID === undefined || file.parentID === folderId);
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
  return new RemoteWalk(client, rootId, options).run();
}

/** A listing the walk took, with the folder it lists. */
interface TakenListing {
  folderId: string;
  listing: WalkedListing;
}

/** One walk: how it asks the device for each folder's listing, and what it found so far. */
class RemoteWalk {
  readonly #client: DeviceClient;
  readonly #rootId: string;
  readonly #options: RemoteWalkOptions;
  readonly #concurrency: number;
  /** The previous walk's listings, when they were made with this walk's page size. */
  readonly #previous: ReadonlyMap<string, CachedListing> | undefined;
  readonly #requests: Slots;
  /** The listings in the order the walk took them (`entries` is built from them when first read). */
  readonly #taken: TakenListing[] = [];
  readonly #result: RemoteWalkResult;
  readonly #nextCache: Map<string, CachedListing>;
  /** One failure stops the other listings in flight; the caller's signal stops all of them. */
  readonly #stop = new AbortController();
  readonly #signal: AbortSignal;
  readonly #pipe: ListingRevalidator | undefined;
  /** Folders met so far, the root included. */
  readonly #walked: Set<string>;

  constructor(client: DeviceClient, rootId: string, options: RemoteWalkOptions) {
    this.#client = client;
    this.#rootId = rootId;
    this.#options = options;
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_WALK_CONCURRENCY);
    this.#previous =
      options.cache !== undefined && options.cache.pageSize === options.pageSize
        ? options.cache.folders
        : undefined;
    // Kept listings are revalidated many at once; a listing the device sends in full (or anything the
    // revalidator leaves to it) goes through the Transport, `concurrency` at a time.
    const pipelined = this.#previous !== undefined && this.#previous.size > 0 && options.pipelined !== false;
    this.#requests = new Slots(this.#concurrency);
    this.#result = emptyResult(this.#taken, rootId, options.pageSize);
    this.#nextCache = this.#result.cache.folders as Map<string, CachedListing>;
    this.#signal =
      options.signal === undefined ? this.#stop.signal : AbortSignal.any([options.signal, this.#stop.signal]);
    this.#pipe = pipelined ? new ListingRevalidator(client, { signal: this.#signal }) : undefined;
    this.#walked = new Set<string>([rootId]);
  }

  async run(): Promise<RemoteWalkResult> {
    const inFlight =
      this.#pipe === undefined ? this.#concurrency : Math.max(this.#concurrency, PIPELINED_FOLDERS);
    await breadthFirst(
      { id: this.#rootId, path: '' },
      inFlight,
      (folder) => this.#listFolder(folder),
      () => this.#stop.abort(),
    ).finally(() => this.#pipe?.close());
    return this.#result;
  }

  /** One folder's listing into the result; returns its subfolders not met before. */
  async #listFolder(folder: PendingFolder): Promise<PendingFolder[]> {
    if (this.#signal.aborted) throw new AbortedError();
    // Its children at this folder's path; a stored listing that cannot be read is no cache.
    const cached = this.#previous?.get(folder.id)?.at(folder.id, folder.path);
    let listing: WalkedListing;
    if (cached !== undefined && this.#options.trust?.(folder.id) === true) {
      listing = cached;
      this.#result.unchanged.add(folder.id);
      this.#result.stats.trusted += 1;
    } else {
      const fetched = await this.#fetchListing(folder, cached);
      if (fetched === undefined) return [];
      listing = fetched;
    }
    return this.#take(folder, listing);
  }

  /** Keeps a folder's listing (for the result and the next walk) and returns the subfolders to list. */
  #take(folder: PendingFolder, listing: WalkedListing): PendingFolder[] {
    // A listing without an ETag cannot be revalidated, so it is not kept.
    if (listing.eTag !== '') this.#nextCache.set(folder.id, listing);
    for (const item of listing.rejected) {
      this.#result.rejected.push({ folderId: folder.id, folderPath: folder.path, ...item });
    }
    this.#taken.push({ folderId: folder.id, listing });
    const subfolders: PendingFolder[] = [];
    for (const entry of listing.folders) {
      // A folder seen twice (moved from one listed folder to another during the walk) is walked once;
      // walking it again could loop. `entriesOf` keeps its first place the same way.
      if (this.#walked.has(entry.id)) continue;
      this.#walked.add(entry.id);
      if (this.#options.excluded?.(entry) === true) {
        this.#result.excluded.push({ id: entry.id, path: entry.path });
        continue;
      }
      subfolders.push({ id: entry.id, path: entry.path });
    }
    return subfolders;
  }

  /** The folder's listing from the device (a 304 reuses `cached`); undefined when it vanished. */
  async #fetchListing(
    folder: PendingFolder,
    cached: WalkedListing | undefined,
  ): Promise<WalkedListing | undefined> {
    try {
      const answer = await this.#answerFor(folder, cached);
      if (answer.notModified) {
        this.#result.unchanged.add(folder.id);
        this.#result.stats.notModified += 1;
        // Only sent with a cached eTag, so `cached` is there.
        return cached ?? new WalkedListing('', [], folder.path, []);
      }
      this.#result.stats.listed += 1;
      this.#result.listed.add(folder.id);
      const entries = answer.files.map((file) => toEntry(file, folder.id, childPath(folder.path, file.name)));
      return new WalkedListing(answer.eTag ?? '', answer.rejected, folder.path, entries);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (folder.path === '') {
        throw new RemoteWalkError('REMOTE_ROOT_MISSING', `The remote folder ${folder.id} is gone.`, {
          cause: error,
        });
      }
      // Gone mid-walk: its subtree is unknown, not empty.
      this.#result.vanished.push({ id: folder.id, path: folder.path, error });
      return undefined;
    }
  }

  /** The device's answer for a folder: revalidated in the pipeline when it can be, else asked alone. */
  async #answerFor(folder: PendingFolder, cached: WalkedListing | undefined): Promise<ListingAnswer> {
    const revalidated =
      this.#pipe !== undefined && cached !== undefined
        ? await this.#pipe.revalidate(folder.id, cached.eTag, this.#options.pageSize)
        : undefined;
    if (revalidated?.kind === 'not-modified') return { notModified: true };
    const answer = await this.#list(
      folder,
      cached,
      revalidated?.kind === 'answer' ? revalidated.response : undefined,
    );
    if (revalidated?.kind === 'answer' && !answer.notModified && !childrenOf(answer, folder.id)) {
      // A pipelined answer holding another folder's children: answers and requests were not paired
      // as they were sent. Nothing of it is used, and this device is asked one request at a time.
      this.#client.refusePipelinedRevalidation();
      return this.#list(folder, cached);
    }
    return answer;
  }

  /** One listing through the Transport (`firstPage`: the pipeline's answer, read as its first page). */
  #list(
    folder: PendingFolder,
    cached: WalkedListing | undefined,
    firstPage?: ApiResponse,
  ): Promise<ListingAnswer> {
    const pageSize = this.#options.pageSize;
    return this.#requests.run(() =>
      this.#client.listAll(folder.id, {
        ...(pageSize === undefined ? {} : { limit: pageSize }),
        ...(cached === undefined ? {} : { ifNoneMatch: cached.eTag }),
        ...(firstPage === undefined ? {} : { firstPage }),
        signal: this.#signal,
      }),
    );
  }
}

/**
 * A walk's result before the first listing. `entries` is built from the listings taken when first
 * read, so a poll that finds nothing changed never puts the 100,000 items of a large tree in a map.
 */
function emptyResult(
  taken: readonly TakenListing[],
  rootId: string,
  pageSize: number | undefined,
): RemoteWalkResult {
  let entries: Map<string, RemoteEntry> | undefined;
  return {
    get entries(): Map<string, RemoteEntry> {
      entries ??= entriesOf(taken, rootId);
      return entries;
    },
    rejected: [],
    vanished: [],
    unchanged: new Set(),
    listed: new Set(),
    excluded: [],
    cache: { pageSize, folders: new Map() },
    stats: { listed: 0, notModified: 0, trusted: 0 },
  };
}

/**
 * Every item of the listings taken, by id, parents before children. An item in two listings (it moved
 * during the walk) keeps its first place. A listing is left out when its folder has no place as a
 * folder (the same id came first as a file): what is below it is unknown, never somebody's children.
 */
function entriesOf(
  taken: readonly { folderId: string; listing: WalkedListing }[],
  rootId: string,
): Map<string, RemoteEntry> {
  const entries = new Map<string, RemoteEntry>();
  for (const { folderId, listing } of taken) {
    if (folderId !== rootId && entries.get(folderId)?.kind !== 'folder') continue;
    for (const entry of listing.entries) {
      if (entry.id === rootId || entries.has(entry.id)) continue;
      entries.set(entry.id, entry);
    }
  }
  return entries;
}
