// The overlap rule of pair-overlap.ts applied to a profile's recorded pairs, for `mch-sync folders add`, `run` and the window alike.
import { basename, resolve } from 'node:path';
import { MchError } from '../../common/errors.ts';
import { folderPlace } from './folder-place.ts';
import {
  freeDeviceFolder,
  notSyncedMessage,
  overlappingPairs,
  pairOverlap,
  refusalMessage,
  type OverlapContext,
  type PairOverlap,
  type PlacedPair,
} from './pair-overlap.ts';
import {
  listFolderPairs,
  registerFolderPair,
  unregisterFolderPair,
  type FolderPair,
} from './folder-pairs.ts';

export class PairOverlapError extends MchError {
  declare readonly code: 'PAIR_OVERLAP';
  readonly overlap: PairOverlap;

  constructor(message: string, overlap: PairOverlap) {
    super('PAIR_OVERLAP', 'Folders overlap', message);
    this.overlap = overlap;
  }
}

interface PairSpec {
  localRoot: string;
  remoteFolder: string;
}

function placed(pair: PairSpec): PlacedPair {
  return { localRoot: pair.localRoot, remoteFolder: pair.remoteFolder, local: folderPlace(pair.localRoot) };
}

function contextOf(profileDir: string): OverlapContext {
  return { profile: folderPlace(profileDir) };
}

/** Why `candidate` may not be added beside `pairs` (its own earlier record aside), or undefined. */
export function newPairOverlap(
  profileDir: string,
  candidate: PairSpec,
  pairs: readonly PairSpec[],
): PairOverlap | undefined {
  return pairOverlap(placed(candidate), pairs.map(placed), contextOf(profileDir));
}

/** The recorded pairs that are not synced because they overlap (made by older versions), by `localRoot`. */
export function pairOverlaps(profileDir: string, pairs: readonly PairSpec[]): Map<string, PairOverlap> {
  return overlappingPairs(pairs.map(placed), contextOf(profileDir));
}

/** Throws PAIR_OVERLAP for a new pair that overlaps: the reason and what to choose instead. */
export function refuseOverlappingPair(
  profileDir: string,
  candidate: PairSpec,
  pairs: readonly PairSpec[],
): void {
  const overlap = newPairOverlap(profileDir, candidate, pairs);
  if (overlap !== undefined) throw new PairOverlapError(refusalMessage(overlap), overlap);
}

/** The error of a recorded pair that is not synced because it overlaps: the reason and how to fix it. */
export function notSyncedError(localRoot: string, overlap: PairOverlap): PairOverlapError {
  return new PairOverlapError(notSyncedMessage(localRoot, overlap), overlap);
}

/**
 * Records a new pair unless it overlaps one of the profile's. It is checked again once written: two
 * processes adding overlapping pairs at the same moment each see the other's record then (each wrote
 * before it read), and the one that finds an overlap takes its record back, so they never both keep
 * theirs. `pairs` are the profile's pairs as read before; the candidate is not one of them.
 */
export async function recordNewPair(
  profileDir: string,
  candidate: PairSpec,
  pairs: readonly PairSpec[],
  warn: (message: string) => void,
): Promise<FolderPair> {
  refuseOverlappingPair(profileDir, candidate, pairs);
  const recorded = await registerFolderPair(profileDir, candidate);
  const overlap = newPairOverlap(profileDir, recorded, listFolderPairs(profileDir, warn));
  if (overlap !== undefined) {
    unregisterFolderPair(profileDir, recorded.localRoot);
    throw new PairOverlapError(refusalMessage(overlap), overlap);
  }
  return recorded;
}

/**
 * The device folder the window offers for a new pair of `localRoot`: `/<its name>`, or a free name
 * beside the other pairs' device folders (`/<name> (2)`). Never the device root.
 */
export function offeredDeviceFolder(localRoot: string, pairs: readonly PairSpec[]): string {
  const name = basename(resolve(localRoot)) || 'Computer';
  return freeDeviceFolder(name, pairs) ?? `/${name}`;
}
