// A synced file renamed here while another client moved it into an excluded folder: the device's move wins, as any move on both sides.
import { ApiError } from '../../../common/errors.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import type { RemoteFile } from '../../api/device-schemas.ts';
import type { ReconciledItem } from '../plan/reconcile.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';

export interface MovesIntoExcludedContext {
  client: DeviceClient;
  /** The pair's folder on the device: what is in it is in sight. */
  remoteRootId: string;
  signal?: AbortSignal | undefined;
}

/** How far up from an item the device is asked before it is taken for not below an excluded folder. */
const MAX_DEPTH = 64;

/**
 * The walk does not list excluded folders, so a synced file another client moved into one reads as
 * deleted on the device. Left so, a file also renamed here would go up again as a new item (an edit or a
 * move beats a delete) and the device would hold its bytes twice (seeds 775, 1495). So, for a file moved
 * here and unchanged, gone from the walk while a folder is excluded, the device is asked where it is:
 * below an excluded folder, its move wins as a remote move wins over a local one, and the local move is
 * dropped (`localChange` back to `none`): the planner then reads it as any file that went out of this
 * computer's sight and its local copy goes to the trash (the device keeps the bytes). An edited file still
 * goes up (its new bytes are not the device's). Changes `items` in place.
 */
export async function settleMovesIntoExcluded(
  items: readonly ReconciledItem[],
  walk: RemoteWalkResult,
  context: MovesIntoExcludedContext,
): Promise<void> {
  const excluded = new Set(
    walk.excluded.filter((folder) => folder.newOnly !== true).map((folder) => folder.id),
  );
  if (excluded.size === 0) return;
  for (const item of items) {
    const { index, local } = item;
    if (index === null || local === null || local.kind !== 'file') continue;
    if (item.localChange !== 'moved' || item.remoteChange !== 'deleted') continue;
    if (await isBelowExcluded(index.remoteId, excluded, walk, context)) item.localChange = 'none';
  }
}

/** Whether the device item `id` is there, not trashed, below one of `excluded` (by its parents). */
async function isBelowExcluded(
  id: string,
  excluded: ReadonlySet<string>,
  walk: RemoteWalkResult,
  context: MovesIntoExcludedContext,
): Promise<boolean> {
  let current = id;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    let file: RemoteFile;
    try {
      file = await context.client.getFile(current, { signal: context.signal });
    } catch (error) {
      // Deleted for good: a delete it is.
      if (error instanceof ApiError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
    if (file.trashed || file.parentID === undefined) return false;
    if (excluded.has(file.parentID)) return true;
    // The pair's folder or one the walk lists: in sight, so not moved away.
    if (file.parentID === context.remoteRootId || walk.entries.has(file.parentID)) return false;
    current = file.parentID;
  }
  return false;
}
