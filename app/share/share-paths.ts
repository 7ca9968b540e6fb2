// The one flow from local paths to their link, shared by `mch-sync share`, the window's shares:create and the desktop app's share action.
import type { DeviceClient } from '../api/device-client.ts';
import type { FolderPair } from '../profile/folder-pairs.ts';
import type { LinkSharing } from './link-sharing.ts';
import { confirmOnDevice, lookUpSyncedItems, placeLocalItems, type SyncedItem } from './shared-items.ts';
import { waitForUploads } from './upload-wait.ts';

/** What the flow needs of a signed-in session with a device. */
export interface ShareConnection {
  client: DeviceClient;
  sharing: LinkSharing;
}

export interface SharePathsOptions {
  /** The profile's folder pairs: where each path must be. */
  pairs: readonly FolderPair[];
  /**
   * Opened only once every path is placed in a pair: a path outside every synced folder is refused
   * without a sign-in or a device.
   */
  connect: () => Promise<ShareConnection>;
  /** For the control sockets of the folders' live sync (items not uploaded yet are synced first). */
  profileDir: string;
  /** Said before waiting for the live sync of a folder to upload items. */
  onWaiting: (message: string) => void;
  /** A new link even if one of exactly these items lives. */
  fresh?: boolean;
  signal?: AbortSignal;
}

export interface SharedLink {
  url: string;
  shareId: string;
  createdAtMs: number;
  /** The items of the link, in the order given, each once (two spellings of one path are one item). */
  items: Array<{ path: string; id: string }>;
  /** True when the live link of exactly these items was returned. */
  reused: boolean;
}

/**
 * desktop-app.md §4: places the paths in their pairs (refusing one outside every synced folder), has
 * the folders' live sync upload what is not on the device yet (bounded wait), reads every item from
 * the device, then makes or finds the one link of them all.
 */
export async function sharePaths(paths: readonly string[], options: SharePathsOptions): Promise<SharedLink> {
  const { signal } = options;
  const items = placeLocalItems(options.pairs, paths);
  const connection = await options.connect();
  const looked = lookUpSyncedItems(items);
  let synced: SyncedItem[] = looked.synced;
  if (looked.notYet.length > 0) {
    const uploaded = await waitForUploads(looked.notYet, {
      profileDir: options.profileDir,
      onWaiting: options.onWaiting,
      ...(signal === undefined ? {} : { signal }),
    });
    const order = new Map(items.map((item, position) => [item.path, position]));
    synced = [...synced, ...uploaded].sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  }
  const unique = [...new Map(synced.map((item) => [item.id, item])).values()];
  await confirmOnDevice(connection.client, unique, signal);
  const outcome = await connection.sharing.share(
    unique.map((item) => item.id),
    { fresh: options.fresh === true, ...(signal === undefined ? {} : { signal }) },
  );
  return {
    url: outcome.share.url,
    shareId: outcome.share.shareId,
    createdAtMs: outcome.share.dateCreated,
    items: unique.map((item) => ({ path: item.path, id: item.id })),
    reused: outcome.reused,
  };
}

/** The words of the notifications about a link, the same from the command line and the app. */
export const SHARE_NOTICES = {
  failedTitle: 'Could not make a share link',
  copiedTitle: 'Share link copied',
  notCopiedTitle: 'Share link not copied',
  readyTitle: 'Share link ready',
  copiedBody: (items: SharedLink['items']): string =>
    `Anyone with the link can open ${describeItems(items)}.`,
  notCopiedBody: (reason: string, url: string): string => `${reason} The link: ${url}`,
  readyBody: (link: Pick<SharedLink, 'url' | 'items'>): string =>
    `${link.url} opens ${describeItems(link.items)}.`,
};

/** `"name"` for one item, `N items` for several. */
export function describeItems(items: ReadonlyArray<{ path: string }>): string {
  if (items.length === 1) return `"${baseName(items[0]?.path ?? '')}"`;
  return `${items.length} items`;
}

function baseName(path: string): string {
  return (
    path
      .split(/[\\/]/)
      .filter((part) => part !== '')
      .at(-1) ?? path
  );
}
