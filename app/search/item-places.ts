// Where a device item is: its path on the device and, when it is synced, its path on this computer (from the pairs' indexes).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../common/errors.ts';
import type { DeviceClient, RemoteFile } from '../api/device-client.ts';
import { openIndexDb, type IndexDb } from '../index/index-db.ts';
import { IndexStore } from '../index/index-store.ts';
import type { FolderPair } from '../profile/folder-pairs.ts';
import { META_REMOTE_ROOT } from '../index/meta-keys.ts';

export interface ItemPlace {
  /** Slash path from the device root (`/Photos/2024/a.jpg`); undefined when an ancestor could not be read. */
  devicePath: string | undefined;
  /** The synced copy on this computer; undefined when the item is not in any synced folder's index. */
  localPath: string | undefined;
}

/** A synced row or a pair's root, found by remote id in one of the pairs. */
interface OpenIndex {
  pair: FolderPair;
  store: IndexStore;
  db: IndexDb;
  rootId: string | undefined;
}

interface IndexedPlace {
  pair: FolderPair;
  /** '' for the pair's root. */
  relativePath: string;
}

/** How many ancestors are read before giving up (a loop in a broken answer would never end). */
const MAX_DEPTH = 128;

/**
 * Answers "where is this item" for search results and shares. Indexes are opened on first use and
 * kept until `close()`; ancestors read from the device are cached for the object's life (one search).
 */
export class ItemPlaces {
  readonly #pairs: readonly FolderPair[];
  readonly #client: DeviceClient;
  #stores: OpenIndex[] | undefined;
  readonly #files = new Map<string, Promise<RemoteFile | undefined>>();

  constructor(options: { pairs: readonly FolderPair[]; client: DeviceClient }) {
    this.#pairs = options.pairs;
    this.#client = options.client;
  }

  /** The local path of a synced item (or a pair's root), without asking the device. */
  localPathOf(remoteId: string): string | undefined {
    const found = this.#indexed(remoteId);
    return found === undefined ? undefined : localPath(found);
  }

  /** The item's places; ancestors that are not synced are read from the device (once each). */
  async placeOf(file: RemoteFile, signal?: AbortSignal): Promise<ItemPlace> {
    const own = this.#indexed(file.id);
    if (own !== undefined) return { devicePath: devicePath(own), localPath: localPath(own) };
    if (file.parentID === undefined) return { devicePath: '/', localPath: undefined };
    const names = [file.name];
    let parentId: string | undefined = file.parentID;
    for (let depth = 0; depth < MAX_DEPTH && parentId !== undefined; depth += 1) {
      const indexed = this.#indexed(parentId);
      if (indexed !== undefined) {
        return { devicePath: joinDevice(devicePath(indexed), names.reverse()), localPath: undefined };
      }
      const parent = await this.#file(parentId, signal);
      if (parent === undefined) return { devicePath: undefined, localPath: undefined };
      if (parent.parentID === undefined)
        return { devicePath: joinDevice('/', names.reverse()), localPath: undefined };
      names.push(parent.name);
      parentId = parent.parentID;
    }
    return { devicePath: undefined, localPath: undefined };
  }

  close(): void {
    for (const { db } of this.#stores ?? []) db.close();
    this.#stores = [];
  }

  #indexed(remoteId: string): IndexedPlace | undefined {
    for (const { pair, store, rootId } of this.#openStores()) {
      if (rootId === remoteId) return { pair, relativePath: '' };
      const row = store.get(remoteId);
      // Rows parked under "/parked/..." wait for their operation: not at a synced path now.
      if (row !== undefined && !row.path.startsWith('/')) return { pair, relativePath: row.path };
    }
    return undefined;
  }

  #openStores(): OpenIndex[] {
    if (this.#stores === undefined) {
      this.#stores = [];
      for (const pair of this.#pairs) {
        // A pair recorded before its first pass has no index yet; opening would create one.
        if (!existsSync(pair.indexPath)) continue;
        const db = openIndexDb(pair.indexPath);
        const store = new IndexStore(db);
        this.#stores.push({ pair, store, db, rootId: store.getMeta(META_REMOTE_ROOT) });
      }
    }
    return this.#stores;
  }

  #file(id: string, signal: AbortSignal | undefined): Promise<RemoteFile | undefined> {
    let pending = this.#files.get(id);
    if (pending === undefined) {
      pending = this.#client.getFile(id, signal === undefined ? {} : { signal }).catch((error: unknown) => {
        // An ancestor deleted meanwhile, or one this user may not read: the place is unknown, not an error.
        if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) {
          return undefined;
        }
        throw error;
      });
      this.#files.set(id, pending);
    }
    return pending;
  }
}

function localPath(place: IndexedPlace): string {
  return place.relativePath === ''
    ? place.pair.localRoot
    : join(place.pair.localRoot, ...place.relativePath.split('/'));
}

function devicePath(place: IndexedPlace): string {
  return joinDevice(place.pair.remoteFolder, place.relativePath === '' ? [] : place.relativePath.split('/'));
}

function joinDevice(base: string, names: readonly string[]): string {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return names.length === 0 ? base : `${prefix}${names.join('/')}`;
}
