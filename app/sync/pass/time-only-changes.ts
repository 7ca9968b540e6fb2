// Tells a change of modification time alone from an edit where both sides changed a file, so equal bytes never conflict.
import { ApiError } from '../../../common/errors.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import type { IndexStore } from '../../index/index-store.ts';
import { hashFile } from '../local/content-hash.ts';
import { MAX_EDIT_CHECK_BYTES, remoteHash } from '../recovery/intent-recovery.ts';
import { localPath } from '../local/local-paths.ts';
import type { RemoteEntry } from '../../model/items.ts';
import type { Change, ReconciledItem } from '../plan/reconcile.ts';
import { sameContent } from '../plan/planner-decide.ts';

export interface TimeOnlyContext {
  client: DeviceClient;
  index: IndexStore;
  localRoot: string;
  signal?: AbortSignal | undefined;
}

const EDITED: ReadonlySet<Change> = new Set(['modified', 'moved-modified']);

/** The same change without its content part: the side's bytes are what the other side holds. */
function withoutEdit(change: Change): Change {
  return change === 'moved-modified' ? 'moved' : change === 'modified' ? 'none' : change;
}

/**
 * The reconciler sees a file as modified when its size or time moved; the device keeps no content hash,
 * so a new time (`touch`, a tool restoring times) on one side and an edit on the other would read as a
 * conflict. Only for files changed on both sides, and only where sizes allow equal bytes:
 * - the local bytes are the ones both sides last agreed on (the index's hash): the local change was a
 *   time only, and the device's version comes down (with its time);
 * - the device's bytes (downloaded and hashed) are those last agreed on: the remote change was a time
 *   only, and the local edit goes up;
 * - the device's bytes are the local ones: nothing to keep twice, the device's version (and time) comes
 *   down over the same bytes.
 * Anything else stays a conflict, which keeps both. Changes `items` in place.
 */
export async function settleTimeOnlyChanges(
  items: readonly ReconciledItem[],
  context: TimeOnlyContext,
): Promise<void> {
  for (const item of items) {
    const { index, local, remote } = item;
    if (!index || !local || !remote || local.kind !== 'file' || remote.kind !== 'file') continue;
    if (!EDITED.has(item.localChange) || !EDITED.has(item.remoteChange)) continue;
    if (sameContent(local, remote)) {
      // Equal size and time do not make equal bytes when both sides edited: two edits of one size
      // within one millisecond would read as agreed and one would be lost (soak seed 1251).
      if (!(await sameBytes(context, local.path, remote))) item.contentDiffers = true;
      continue;
    }
    const baseHash = context.index.get(index.remoteId)?.contentHash ?? null;
    const localHash =
      local.size === index.size || local.size === remote.size
        ? await hashLocal(context, local.path)
        : undefined;
    if (localHash === undefined) continue;
    if (localHash === baseHash && local.size === index.size) {
      item.localChange = withoutEdit(item.localChange);
      continue;
    }
    if (remote.size !== index.size && remote.size !== local.size) continue;
    const deviceHash = await hashRemote(context, remote);
    if (deviceHash === undefined) continue;
    if (deviceHash === localHash && remote.size === local.size) {
      item.localChange = withoutEdit(item.localChange);
    } else if (deviceHash === baseHash && remote.size === index.size) {
      item.remoteChange = withoutEdit(item.remoteChange);
    }
  }
}

/**
 * Whether the local file and the device's version hold the same bytes; false when that cannot be told
 * (too big to fetch for it, unreadable, or changed meanwhile): the conflict that follows keeps both.
 */
async function sameBytes(context: TimeOnlyContext, path: string, remote: RemoteEntry): Promise<boolean> {
  if (remote.size > MAX_EDIT_CHECK_BYTES) return false;
  const localHash = await hashLocal(context, path);
  if (localHash === undefined) return false;
  return (await hashRemote(context, remote)) === localHash;
}

/** The hash of a local file, or undefined when it cannot be read now (the executor looks again). */
async function hashLocal(context: TimeOnlyContext, path: string): Promise<string | undefined> {
  try {
    return await hashFile(localPath(context.localRoot, path), context.signal);
  } catch (error) {
    if (context.signal?.aborted === true) throw error;
    return undefined;
  }
}

/** The hash of the version the walk saw, or undefined when it changed since (the next round looks again). */
async function hashRemote(context: TimeOnlyContext, remote: RemoteEntry): Promise<string | undefined> {
  try {
    return await remoteHash(context, remote);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'PRECONDITION_FAILED')) {
      return undefined;
    }
    throw error;
  }
}
