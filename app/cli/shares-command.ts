// `mch-sync shares`: every link of the signed-in user on this device, with its items (where each is synced here) and when it was made.
import { ApiError } from '../../common/errors.ts';
import type { Share } from '../api/shares-client.ts';
import { ItemPlaces } from '../search/item-places.ts';
import type { CommandContext } from './cli-context.ts';
import { withDeviceAdvice } from './device-failures.ts';
import { openShareSession, type ShareSession } from './share-session.ts';

export const SHARES_USAGE = `Usage: mch-sync [--profile DIR] shares [--json]

Lists your share links on this device, newest first: the link, when it was made, and each shared
item (its path here when it is synced, else its place on the device).

Options:
  --json     print {"shares": [{"shareId", "url", "createdAt", "items": [{"id", "name", "localPath",
             "devicePath"}]}]} (paths are null when unknown; a deleted item has a null name)
  -h, --help show this help`;

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

export async function runShares(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const signal = context.deps.signal;
  const json = await withDeviceAdvice('list your share links', async () => {
    const session = await openShareSession(context);
    const shares = await session.sharing.list(signal === undefined ? {} : { signal });
    return describeShares(session, shares, signal);
  });
  if (values['json'] === true) {
    context.print(JSON.stringify(json, null, 2));
    return 0;
  }
  if (json.shares.length === 0) {
    context.print('No share links. Make one with `mch-sync share PATH`.');
    return 0;
  }
  for (const share of json.shares) {
    const count = share.items.length === 1 ? '1 item' : `${share.items.length} items`;
    context.print(`${share.url}  (made ${localTime(share.createdAt)}, ${count})`);
    for (const item of share.items) context.print(`  ${itemLine(item)}`);
  }
  return 0;
}

/** The shares with each item's name and places; items are read from the device once each. */
export async function describeShares(
  session: ShareSession,
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
  session: ShareSession,
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

function itemLine(item: SharedItemJson): string {
  if (item.name === null) return `(deleted from the device: ${item.id})`;
  if (item.localPath !== null) return item.localPath;
  return `${item.devicePath ?? item.name} (on the device, not synced here)`;
}

function localTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}
