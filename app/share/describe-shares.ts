// The user's shares for people: each item's name, its path on the device and its path here when synced.
import { ApiError } from '../../common/errors.ts';
import type { DeviceClient } from '../api/device-client.ts';
import type { Share } from '../api/cloud/shares-client.ts';
import type { FolderPair } from '../profile/folder-pairs.ts';
import { ItemPlaces } from '../search/item-places.ts';

export interface SharedItemJson {
  id: string;
  /** Null when the item is gone from the device. */
  name: string | null;
  localPath: string | null;
  devicePath: string | null;
}

export interface SharesJson {
  shares: Array<{ shareId: string; url: string; createdAt: string; items: SharedItemJson[] }>;
}

/** The shares with each item's name and places; items are read from the device once each. */
export async function describeShares(
  session: { pairs: readonly FolderPair[]; client: DeviceClient },
  shares: readonly Share[],
  signal: AbortSignal | undefined,
): Promise<SharesJson> {
  const places = new ItemPlaces({ pairs: session.pairs, client: session.client });
  const items = new Map<string, Promise<SharedItemJson>>();
  const describe = (id: string): Promise<SharedItemJson> => {
    let found = items.get(id);
    if (found === undefined) {
      found = describeItem(session, places, id, signal);
      items.set(id, found);
    }
    return found;
  };
  try {
    return {
      shares: await Promise.all(
        shares.map(async (share) => ({
          shareId: share.shareId,
          url: share.url,
          createdAt: new Date(share.dateCreated).toISOString(),
          items: await Promise.all(share.fileIds.map(describe)),
        })),
      ),
    };
  } finally {
    places.close();
  }
}

async function describeItem(
  session: { pairs: readonly FolderPair[]; client: DeviceClient },
  places: ItemPlaces,
  id: string,
  signal: AbortSignal | undefined,
): Promise<SharedItemJson> {
  try {
    const file = await session.client.getFile(id, signal === undefined ? {} : { signal });
    const place = await places.placeOf(file, signal);
    return { id, name: file.name, localPath: place.localPath ?? null, devicePath: place.devicePath ?? null };
  } catch (error) {
    // A shared item deleted from the device: the link still exists and shows what is left.
    if (error instanceof ApiError && error.code === 'NOT_FOUND') {
      return { id, name: null, localPath: null, devicePath: null };
    }
    throw error;
  }
}
