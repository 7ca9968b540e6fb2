// What the desktop core says of a pair before and instead of syncing it: why a new pair is refused (the words of `mch-sync folders add`), and the view of a pair that could not start.
import { statSync } from 'node:fs';
import type { PairView } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import { formatDuration } from '../../../common/units.ts';
import { nameProblem } from '../../api/names.ts';
import { folderKey } from '../../index/index-db.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import { refuseOverlappingPair } from '../../profile/pair-check.ts';
import { remoteFolderSegments } from '../../sync/remote/remote-folder.ts';
import { stateWords } from './pair-words.ts';

export class PairError extends MchError {
  constructor(code: 'PAIR_NOT_FOUND' | 'PAIR_EXISTS' | 'PAIR_FOLDER_INVALID', message: string) {
    const titles = {
      PAIR_NOT_FOUND: 'No such folder pair',
      PAIR_EXISTS: 'Already synced',
      PAIR_FOLDER_INVALID: 'Folder not usable',
    };
    super(code, titles[code], message);
  }
}

/**
 * Throws why the pair may not be added (the same checks and words as `mch-sync folders add`); answers
 * its device folder. `isKnown` says whether a pair with this folder's key runs or waits already.
 */
export function checkNewPair(
  profileDir: string,
  wanted: { localRoot: string; remoteFolder: string },
  pairs: readonly FolderPair[],
  isKnown: (pairId: string) => boolean,
): string {
  const { localRoot } = wanted;
  let isFolder = false;
  try {
    isFolder = statSync(localRoot).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isFolder) {
    throw new PairError(
      'PAIR_FOLDER_INVALID',
      `${localRoot} is not a folder on this computer: create it first.`,
    );
  }
  let segments: string[];
  try {
    segments = remoteFolderSegments(wanted.remoteFolder);
  } catch (error) {
    throw new PairError('PAIR_FOLDER_INVALID', (error as Error).message);
  }
  // A folder named in "Add a folder" is made when syncing starts: a name the device cannot hold is said now.
  for (const segment of segments) {
    const problem = nameProblem(segment);
    if (problem !== undefined) {
      throw new PairError(
        'PAIR_FOLDER_INVALID',
        `The device folder name ${JSON.stringify(segment)} ${problem}.`,
      );
    }
  }
  if (isKnown(folderKey(localRoot)) || pairs.some((pair) => pair.localRoot === localRoot)) {
    throw new PairError('PAIR_EXISTS', `${localRoot} is synced already.`);
  }
  const remoteFolder = `/${segments.join('/')}`;
  refuseOverlappingPair(profileDir, { localRoot, remoteFolder }, pairs);
  return remoteFolder;
}

/**
 * A folder another process syncs, or one that is missing (a disk not mounted), may be free or back
 * later: such a pair tries again. One that overlaps another waits for the user.
 */
export function isRetried(error: Error): boolean {
  return error instanceof MchError && (error.code === 'FOLDER_BUSY' || error.code === 'FOLDER_MISSING');
}

/** A pair that could not start, listed in state `error` with why (and when it is tried again). */
export function stoppedPairView(
  id: string,
  pair: FolderPair,
  error: Error,
  retryMs: number,
  records: Pick<PairView, 'selection' | 'onDemand'>,
): PairView {
  return {
    id,
    localRoot: pair.localRoot,
    remoteFolder: pair.remoteFolder,
    state: 'error',
    words: stateWords('error'),
    detail: isRetried(error)
      ? `${error.message} It is tried again every ${formatDuration(retryMs / 1000)}, or at once with Sync now.`
      : error.message,
    paused: false,
    progress: null,
    lastSyncAtMs: null,
    itemsSynced: 0,
    issueCount: 0,
    conflictCount: 0,
    leftOut: { ignored: 0, systemFiles: 0 },
    hold: null,
    answering: null,
    ...records,
  };
}
