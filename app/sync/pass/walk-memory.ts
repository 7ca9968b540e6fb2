// What an engine keeps of the device's listings between passes: the walk cache, its stored copy, the folders it changed.
import type { DeviceClient } from '../../api/device-client.ts';
import type { ListingStore } from '../../index/listing-store.ts';
import { ListingCacheKeeper } from '../remote/listing-cache.ts';
import { walkRemote, type RemoteWalkResult } from '../remote/remote-walk.ts';
import { withOwnMoves, type OwnMove, type RemoteWalkCache } from '../remote/walk-listing.ts';

/**
 * `revalidate`: every listing is asked for (a 304 when unchanged). `trust-cache`: folders this engine
 * did not change since it listed them are taken from the cache without a request.
 */
export type WalkListings = 'revalidate' | 'trust-cache';

export class WalkMemory {
  readonly #client: DeviceClient;
  readonly #store: ListingStore;
  #cache: RemoteWalkCache | undefined;
  #listings: ListingCacheKeeper;
  /**
   * Folders whose cached listing must be asked for again: changed by this engine since its last walk,
   * or loaded from the index (an earlier process may have changed them after storing them).
   */
  #touched = new Set<string>();

  constructor(client: DeviceClient, store: ListingStore) {
    this.#client = client;
    this.#store = store;
    this.#listings = new ListingCacheKeeper(store);
  }

  /** The folders changed since the last walk; a round's operations add the ones they change. */
  get touched(): Set<string> {
    return this.#touched;
  }

  /** A walk of the device folder `remoteRootId`, from the cache kept of the walks before it. */
  async walk(
    remoteRootId: string,
    listings: WalkListings,
    signal: AbortSignal | undefined,
    excluded?: (folder: { id: string; path: string }) => boolean,
  ): Promise<RemoteWalkResult> {
    if (this.#cache === undefined) {
      this.#cache = this.#listings.load();
      for (const folderId of this.#cache.folders.keys()) this.#touched.add(folderId);
    }
    const touched = this.#touched;
    const walk = await walkRemote(this.#client, remoteRootId, {
      cache: this.#cache,
      ...(signal === undefined ? {} : { signal }),
      ...(excluded === undefined ? {} : { excluded }),
      ...(listings === 'trust-cache' ? { trust: (folderId: string) => !touched.has(folderId) } : {}),
    });
    this.#cache = walk.cache;
    this.#listings.save(walk.cache);
    this.#touched = new Set();
    return walk;
  }

  /** Moves the device confirmed go into the cached listings (also when a plan stopped half way). */
  learnOwnMoves(moves: readonly OwnMove[]): void {
    if (this.#cache !== undefined) this.#cache = withOwnMoves(this.#cache, moves, this.#touched);
  }

  /** The stored listings were dropped (damaged): the next walk loads what is left and lists the rest. */
  dropCache(): void {
    this.#cache = undefined;
  }

  /** The pair starts again with another device: nothing kept of the old one is used. */
  forget(): void {
    this.#cache = undefined;
    this.#listings = new ListingCacheKeeper(this.#store);
    this.#touched = new Set();
  }
}
