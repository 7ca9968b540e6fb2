// Files deleted here that the OS trash still holds, as `deleted` lists them and `restore --deleted|--all-since` puts them back: beside the versions, by where they were in a pair.
import { MchError } from '../../../common/errors.ts';
import { askService } from '../../live-service/control-client.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { listTrashed, restoreTrashed, type TrashedEntry } from '../../versions/trash-deleted.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import type { SyncWay } from './versions-access.ts';
import type { VersionsPlace } from './versions-place.ts';

/** Why a trashed file is listed, in words. */
export const TRASHED_WHY = 'deleted here, in the trash';

/** What the trashes hold of the place's pair, at or below its path, trashed since `sinceMs`. */
export function trashedAt(
  context: CommandContext,
  place: VersionsPlace,
  sinceMs = 0,
): Promise<TrashedEntry[]> {
  // The trash records the path the user deleted: in the pair's folder, never an on-demand pair's cache.
  return listTrashed(place.pair.localRoot, { env: context.deps.env }, place.path, sinceMs);
}

export interface TrashRestore {
  restored: TrashedEntry[];
  skipped: { entry: TrashedEntry; reason: string }[];
  /** How they reach the device: the pair's live sync is asked for a pass when it runs. */
  way: SyncWay;
}

/**
 * Puts back what the trashes hold at or below the place (since `sinceMs`), where it was: into the folder
 * the engine syncs (an on-demand pair's cache folder: one rename, not a copy through its mount). Something
 * at its place now leaves it in the trash. A new file here like any other: live sync sends it up.
 */
export async function restoreFromTrash(
  context: CommandContext,
  place: VersionsPlace,
  sinceMs = 0,
): Promise<TrashRestore> {
  const result: TrashRestore = { restored: [], skipped: [], way: { kind: 'next-run' } };
  for (const entry of await trashedAt(context, place, sinceMs)) {
    try {
      await restoreTrashed(place.syncRoot, entry);
      result.restored.push(entry);
    } catch (error) {
      if (!(error instanceof MchError && error.code === 'DESTINATION_EXISTS')) throw error;
      result.skipped.push({ entry, reason: 'something is at its place now; it stays in the trash' });
    }
  }
  if (result.restored.length > 0) {
    const answer = await askService(controlSocketPath(context.profileDir, place.pair.localRoot), {
      op: 'sync-now',
    });
    if (answer?.ok === true) {
      result.way = answer.status.state === 'paused' ? { kind: 'waiting', state: 'paused' } : { kind: 'now' };
    }
  }
  return result;
}
