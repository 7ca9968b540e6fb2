// The rule that folder pairs never overlap (issue 26), with its words for people: pairs in, why a new pair is refused and which pairs overlap out; no disk, no network.
import { sep } from 'node:path';
import type { FolderPlace } from './folder-place.ts';

/** The folder inside each synced folder that holds the client's own state; never synced. */
const STATE_FOLDER = '.mch-sync';

/** A pair as the rule compares it: its local folder's real place and its device folder. */
export interface PlacedPair {
  /** The local folder as recorded or given (what messages name). */
  localRoot: string;
  /** A slash path from the device root (`/` for the whole device). */
  remoteFolder: string;
  local: FolderPlace;
}

export interface OverlapContext {
  /** The profile folder: a synced folder must be neither in it nor around it. */
  profile: FolderPlace;
}

export type OverlapKind =
  | 'in-state-folder'
  | 'in-profile'
  | 'holds-profile'
  | 'same-folder'
  | 'in-folder'
  | 'holds-folder'
  | 'same-device-folder'
  | 'in-device-folder'
  | 'holds-device-folder';

export interface PairOverlap {
  kind: OverlapKind;
  /** The pair it overlaps with; null when the pair is wrong on its own (state or profile folder). */
  other: { localRoot: string; remoteFolder: string } | null;
  /** What is wrong, in the same words wherever it is said (the CLI, the window). */
  reason: string;
}

type Relation = 'same' | 'inside' | 'around' | 'apart';

/** Where `a` lies from `b`, comparing whole names: `/a/bc` is not inside `/a/b`. */
function relation(a: readonly string[], b: readonly string[]): Relation {
  const shared = Math.min(a.length, b.length);
  for (let index = 0; index < shared; index += 1) if (a[index] !== b[index]) return 'apart';
  if (a.length === b.length) return 'same';
  return a.length > b.length ? 'inside' : 'around';
}

/** A device path's names; the device is case-sensitive and keeps names as given (device-api.md "Names"). */
function deviceNames(remoteFolder: string): string[] {
  return remoteFolder.split('/').filter((name) => name !== '');
}

function isInStateFolder(place: FolderPlace): boolean {
  // Keys are lower case where the file system ignores case, so `.MCH-SYNC` is caught there and only there.
  return place.keys.includes(STATE_FOLDER) || place.path.split(sep).includes(STATE_FOLDER);
}

function deviceName(remoteFolder: string): string {
  return remoteFolder === '/' ? '/ (the whole device)' : remoteFolder;
}

/**
 * Why `candidate` may not be a pair beside `pairs`, or undefined when it may. A pair of `pairs` with
 * the same `localRoot` is the candidate itself (recorded before) and is not compared. Local folders
 * compare by their real places; device folders by their names, the root being around every folder.
 */
export function pairOverlap(
  candidate: PlacedPair,
  pairs: readonly PlacedPair[],
  context: OverlapContext,
): PairOverlap | undefined {
  const local = candidate.localRoot;
  if (isInStateFolder(candidate.local)) {
    return {
      kind: 'in-state-folder',
      other: null,
      reason: `${local} is inside a ${STATE_FOLDER} folder, where a synced folder keeps mch-sync's own state.`,
    };
  }
  const profile = context.profile.path;
  switch (relation(candidate.local.keys, context.profile.keys)) {
    case 'same':
    case 'inside':
      return {
        kind: 'in-profile',
        other: null,
        reason: `${local} is inside the profile folder ${profile}, which holds mch-sync's index and logs.`,
      };
    case 'around':
      return {
        kind: 'holds-profile',
        other: null,
        reason: `${local} holds the profile folder ${profile}: its index and logs would be synced too.`,
      };
    case 'apart':
      break;
  }
  const others = pairs.filter((pair) => pair.localRoot !== candidate.localRoot);
  for (const other of others) {
    const pair = { localRoot: other.localRoot, remoteFolder: other.remoteFolder };
    const synced = `${other.localRoot}, which is synced with ${deviceName(other.remoteFolder)}`;
    switch (relation(candidate.local.keys, other.local.keys)) {
      case 'same':
        return {
          kind: 'same-folder',
          other: pair,
          reason: `${local} is the same folder as ${synced}.`,
        };
      case 'inside':
        return { kind: 'in-folder', other: pair, reason: `${local} is inside ${synced}.` };
      case 'around':
        return { kind: 'holds-folder', other: pair, reason: `${local} holds ${synced}.` };
      case 'apart':
        break;
    }
  }
  const remote = deviceName(candidate.remoteFolder);
  for (const other of others) {
    const pair = { localRoot: other.localRoot, remoteFolder: other.remoteFolder };
    const synced = `which is synced with ${other.localRoot}`;
    switch (relation(deviceNames(candidate.remoteFolder), deviceNames(other.remoteFolder))) {
      case 'same':
        return {
          kind: 'same-device-folder',
          other: pair,
          reason: `${remote} on the device is synced with ${other.localRoot} already.`,
        };
      case 'inside':
        return {
          kind: 'in-device-folder',
          other: pair,
          reason: `${remote} on the device is inside ${deviceName(other.remoteFolder)}, ${synced}.`,
        };
      case 'around':
        return {
          kind: 'holds-device-folder',
          other: pair,
          reason: `${remote} on the device holds ${deviceName(other.remoteFolder)}, ${synced}.`,
        };
      case 'apart':
        break;
    }
  }
  return undefined;
}

/** Every pair that overlaps another (both of the two), or is wrong on its own, by `localRoot`. */
export function overlappingPairs(
  pairs: readonly PlacedPair[],
  context: OverlapContext,
): Map<string, PairOverlap> {
  const found = new Map<string, PairOverlap>();
  for (const pair of pairs) {
    const overlap = pairOverlap(pair, pairs, context);
    if (overlap !== undefined) found.set(pair.localRoot, overlap);
  }
  return found;
}

/** Why a new pair is refused, and what to do instead. */
export function refusalMessage(overlap: PairOverlap): string {
  const device = overlap.kind.endsWith('device-folder');
  return `${overlap.reason} Folder pairs must not overlap: choose another ${device ? 'device folder' : 'folder'}.`;
}

/** Why a recorded pair (made by an older version) is not synced, and how to fix it. */
export function notSyncedMessage(localRoot: string, overlap: PairOverlap): string {
  const remove = (folder: string): string => `mch-sync folders remove --folder ${quoted(folder)}`;
  if (overlap.other === null) {
    return (
      `Not synced: ${overlap.reason} Remove this pair (${remove(localRoot)}, or Remove in the ` +
      `window's settings) and pair another folder.`
    );
  }
  return (
    `Not synced: ${overlap.reason} Folder pairs must not overlap: remove one of the two ` +
    `(${remove(localRoot)} or ${remove(overlap.other.localRoot)}, or Remove in the window's settings), ` +
    'and the other syncs again.'
  );
}

function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/**
 * The device folder offered for a new pair of the folder named `name`: `/<name>`, or the first of
 * `/<name> (2)`, `/<name> (3)`... that is apart from every pair's device folder; undefined when none
 * is (a pair syncs the whole device).
 */
export function freeDeviceFolder(
  name: string,
  pairs: ReadonlyArray<{ remoteFolder: string }>,
): string | undefined {
  for (let number = 1; number <= 100; number += 1) {
    const folder = number === 1 ? `/${name}` : `/${name} (${number})`;
    const names = deviceNames(folder);
    if (pairs.every((pair) => relation(names, deviceNames(pair.remoteFolder)) === 'apart')) return folder;
  }
  return undefined;
}
