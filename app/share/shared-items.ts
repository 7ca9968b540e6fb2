// Local paths to the device ids of their synced items: which pair each path is in, and its row in that pair's index.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiError } from '../../common/errors.ts';
import type { DeviceClient } from '../api/device-client.ts';
import { openIndexDb } from '../index/index-db.ts';
import { IndexStore } from '../index/index-store.ts';
import { findPairOf, type FolderPair } from '../profile/folder-pairs.ts';
import { META_REMOTE_ROOT } from '../index/meta-keys.ts';
import { ShareError } from './share-errors.ts';
import { lstatQuietly } from '../system/lstat-quietly.ts';

/** A path given to share, placed in its pair. */
export interface LocalItem {
  /** Absolute, as given (resolved against the working folder). */
  path: string;
  pair: FolderPair;
  /** `/`-separated inside the pair's folder; '' for the folder itself. */
  relativePath: string;
}

export interface SyncedItem extends LocalItem {
  id: string;
}

/**
 * Places each path in its pair. Refused with a message that says what to do: a path outside every
 * synced folder, one inside a `.mch-sync` state folder, one that does not exist.
 */
export function placeLocalItems(pairs: readonly FolderPair[], paths: readonly string[]): LocalItem[] {
  return paths.map((given) => {
    const path = resolve(given);
    const found = findPairOf(pairs, path);
    if (found.kind === 'outside') {
      const synced =
        pairs.length === 0
          ? 'No folder is synced yet: start with `mch-sync run --folder DIR`.'
          : `Synced folders: ${pairs.map((pair) => pair.localRoot).join(', ')}.`;
      throw new ShareError(
        'NOT_IN_SYNCED_FOLDER',
        `${path} is not in a synced folder, so it is not on the device. ${synced} Move it into one of them to share it.`,
      );
    }
    if (found.kind === 'state-folder') {
      throw new ShareError(
        'IN_STATE_FOLDER',
        `${path} is in ${found.pair.localRoot}'s .mch-sync folder, which holds the sync's own state and is never synced.`,
      );
    }
    if (!exists(path)) {
      throw new ShareError('LOCAL_ITEM_MISSING', `${path} does not exist: check the name.`);
    }
    return { path, ...found.place };
  });
}

/** The device ids of the items their pairs' indexes hold; the others are not uploaded yet. */
export function lookUpSyncedItems(items: readonly LocalItem[]): {
  synced: SyncedItem[];
  notYet: LocalItem[];
} {
  const synced: SyncedItem[] = [];
  const notYet: LocalItem[] = [];
  const byIndex = Map.groupBy(items, (item) => item.pair.indexPath);
  for (const [indexPath, group] of byIndex) {
    // A pair recorded before its first pass has no index: nothing in it is on the device yet.
    if (!existsSync(indexPath)) {
      notYet.push(...group);
      continue;
    }
    const db = openIndexDb(indexPath);
    try {
      const store = new IndexStore(db);
      for (const item of group) {
        const id = remoteIdOf(store, item.relativePath);
        if (id === undefined) notYet.push(item);
        else synced.push({ ...item, id });
      }
    } finally {
      db.close();
    }
  }
  // Keep the order the paths were given in (the link's items are listed in that order).
  const order = new Map(items.map((item, position) => [item.path, position]));
  const position = (item: LocalItem): number => order.get(item.path) ?? 0;
  synced.sort((a, b) => position(a) - position(b));
  notYet.sort((a, b) => position(a) - position(b));
  return { synced, notYet };
}

/** The remote id of the item at `relativePath`, in the spelling on disk or its other Unicode form. */
export function remoteIdOf(store: IndexStore, relativePath: string): string | undefined {
  if (relativePath === '') return store.getMeta(META_REMOTE_ROOT);
  // The index holds names as on disk; a path typed by hand may be composed differently (NFC vs NFD).
  for (const form of new Set([relativePath, relativePath.normalize('NFC'), relativePath.normalize('NFD')])) {
    const row = store.byPath(form);
    if (row !== undefined) return row.remoteId;
  }
  return undefined;
}

/**
 * Reads each item from the device before anything is created: an unreachable device fails here, with
 * nothing made, and an item the device no longer has (its deletion not synced yet) is refused.
 */
export async function confirmOnDevice(
  client: DeviceClient,
  items: readonly SyncedItem[],
  signal?: AbortSignal,
): Promise<void> {
  for (const item of items) {
    try {
      const file = await client.getFile(item.id, signal === undefined ? {} : { signal });
      if (!file.trashed) continue;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error;
    }
    throw new ShareError(
      'NOT_UPLOADED_YET',
      `${item.path} is no longer on the device (deleted there): sync ${item.pair.localRoot} first, then share again.`,
    );
  }
}

/** Whether something is at `path` (a link counts, followed or not). */
function exists(path: string): boolean {
  return lstatQuietly(path) !== undefined;
}
