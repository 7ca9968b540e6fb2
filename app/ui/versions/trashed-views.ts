// Files deleted here that the OS trash still holds, in "Recently deleted" beside the device's deletes, and put back from there.
import type { DeletedFileView } from '../../../common/contract.ts';
import { listTrashed, restoreTrashed, type TrashedEntry } from '../../versions/trash-deleted.ts';
import type { HandlerCore } from '../handler-core.ts';
import type { VersionsTarget } from './versions-place.ts';

/** Why a trashed file is listed, as the command line says it. */
const TRASHED_WHY = 'deleted here, in the trash';

function trashedOf(core: HandlerCore, target: VersionsTarget, path = ''): Promise<TrashedEntry[]> {
  // The trash records the path the user deleted: in the pair's folder, never an on-demand pair's cache.
  return listTrashed(target.pair.localRoot, { env: core.options.env }, path);
}

/** The pair's files in the trash, as "Recently deleted" lists them (folders with what they held). */
export async function trashedViews(core: HandlerCore, target: VersionsTarget): Promise<DeletedFileView[]> {
  return (await trashedOf(core, target)).map((entry) => ({
    pairId: target.pairId,
    path: entry.path,
    localPath: target.localPath(entry.path),
    size: entry.size,
    deletedAtMs: entry.trashedAtMs,
    reason: 'trashed-here',
    why: TRASHED_WHY,
    versions: 0,
  }));
}

/**
 * Puts back from the trash what was deleted here at `path` (the newest there, when it is newer than a
 * version kept of it), into the folder the engine syncs: the watcher sees a new file and sends it up.
 * False when the trash holds nothing newer for it; throws DESTINATION_EXISTS over something new.
 */
export async function restoreFromTrash(
  core: HandlerCore,
  target: VersionsTarget,
  path: string,
  keptAtMs: number | undefined,
): Promise<boolean> {
  const entry = (await trashedOf(core, target, path)).find((found) => found.path === path);
  if (entry === undefined || (keptAtMs !== undefined && keptAtMs > entry.trashedAtMs)) return false;
  await restoreTrashed(target.place.root, entry);
  return true;
}
