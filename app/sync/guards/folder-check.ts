// Before a pass: is the local folder still the one this pair synced? If not, hold it, whatever it holds, until the user answers.
import type { IndexStore } from '../../index/index-store.ts';
import { META_DELETE_RUN } from './delete-run.ts';
import {
  describeFolderChange,
  folderChange,
  folderOnDisk,
  recordedIdentity,
  recordFolderIdentity,
  renewMarker,
} from '../local/folder-identity.ts';
import { withAdvice } from './hold-advice.ts';
import type { PassHold } from '../pass-report.ts';
import { META_SETTLED } from '../../index/meta-keys.ts';

/** The user's answer to a hold, as the engine got it. */
export interface HoldAnswer {
  confirmDeletes: boolean;
  restore: boolean;
  /** The hold the answer was given for; absent (the command line's flags): any hold. */
  answers?: PassHold['reason'] | undefined;
}

/** The process's lock of the synced folder, which follows the folder the pair syncs (folder-lock.ts). */
export interface FolderLockRenewal {
  renew(): void;
}

/** Whether `answer` answers a hold for `reason` (a live answer given for another hold does not). */
export function answersHold(answer: HoldAnswer, reason: PassHold['reason']): boolean {
  return answer.answers === undefined || answer.answers === reason;
}

/**
 * Checks the local folder's identity; undefined when the pass may go on. A folder that is not there
 * (or not a folder) is left to the scan, which holds it (or, on the very first pass, creates it). A
 * pair without a recorded identity (new, or synced by an older version) records the folder as it is.
 * A changed folder is held unless the user answered: restore forgets the index (both sides are merged
 * as for a new pair: nothing is deleted on either side, and files that differ keep both versions);
 * confirm takes the folder as it is (what it lacks is deleted on the device).
 */
export function checkFolder(
  index: IndexStore,
  localRoot: string,
  answer: HoldAnswer,
  folderLock?: FolderLockRenewal,
): PassHold | undefined {
  const now = folderOnDisk(localRoot);
  if (now === undefined) return undefined;
  const recorded = recordedIdentity(index);
  if (recorded === undefined) {
    folderLock?.renew();
    recordFolderIdentity(index, localRoot, now);
    return undefined;
  }
  const change = folderChange(recorded, now);
  if (change === undefined) {
    // The process's lock names the folder that was at the path when it started, which may have been
    // another (a disk not mounted yet, a folder moved back since): it follows the pair's folder at every
    // pass, so another process cannot take the folder this one syncs. Busy: the pass fails.
    folderLock?.renew();
    // The same folder on a renumbered device: recorded anew, so the number is current.
    if (now.device !== recorded.device) recordFolderIdentity(index, localRoot, now);
    return undefined;
  }
  const answered = answersHold(answer, 'folder-changed');
  if (answered && (answer.restore || answer.confirmDeletes)) {
    // The process's lock follows: another one must not get the folder this pair syncs from now on (soak
    // seed 528). Busy (another process took it meanwhile): the pass fails, nothing recorded.
    folderLock?.renew();
    if (answer.restore) forgetSyncedItems(index);
    // The pair's own marker on the same folder remounted is kept; another folder's marker, or a copy's
    // (same marker, another inode), is replaced, so the two are told apart from now on.
    const keep = now.marker === undefined || (now.marker === recorded.marker && change !== 'replaced');
    recordFolderIdentity(index, localRoot, keep ? now : renewMarker(localRoot, now));
    return undefined;
  }
  return withAdvice(localRoot, {
    reason: 'folder-changed',
    deletes: { local: 0, localTotal: 0, remote: 0, remoteTotal: index.count() },
    what: `The folder ${localRoot} ${describeFolderChange(change, recorded, now)}. Nothing was changed on either side.`,
  });
}

/** The pair starts again as if new: items, intents, digests, the settled record and the delete run go. */
export function forgetSyncedItems(index: IndexStore): void {
  index.transaction(() => {
    index.forgetItems();
    index.deleteMeta(META_SETTLED);
    index.deleteMeta(META_DELETE_RUN);
  });
}
