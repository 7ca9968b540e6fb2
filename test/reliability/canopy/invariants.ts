// The invariants after a pass: both sides identical, the index agrees with both, no content lost (content-checks.ts).
import type { IndexRow } from '../../../app/model/items.ts';
import { compare, isWithin, parentOf } from './model.ts';

// The report's own checks and the content's live beside these; kept importable from here, where they always were.
export { checkReport, checkStable, type ExpectedIssue } from './report-checks.ts';
export { checkNoContentLost, checkVersionStore, requiredContents } from './content-checks.ts';
import { checkNoContentLost, checkVersionStore } from './content-checks.ts';

/** One item of a side as read after a pass; `content` is the bytes as latin1, so no byte is lost. */
export interface SnapshotItem {
  path: string;
  kind: 'file' | 'folder' | 'other';
  content?: string;
  /** Remote items: the device's id, eTag, size and mTime (ms). */
  id?: string;
  eTag?: string;
  size?: number;
  mTimeMs?: number;
  /** Local items: the inode as a decimal string. */
  inode?: string;
}

export type ViolationCode =
  | 'pass-failed'
  | 'trees-differ'
  | 'index-mismatch'
  | 'content-lost'
  | 'not-stable'
  /** Soak runs (soak-invariants.ts): a version in more files than it was written to. */
  | 'duplicate'
  /** Soak runs: not quiet after as many passes as a disturbance may cost. */
  | 'not-quiet'
  /** Issue 26: a pass that should hold (a replaced folder, deletes past the guard) did not. */
  | 'not-held'
  /** Issue 26: a held pass changed something on either side. */
  | 'held-wrote'
  /** Issue 26: a file holds bytes no user wrote as one version (an upload torn by a change). */
  | 'torn'
  /** Issue 26: a disk's trash or lost+found reached the other side. */
  | 'trash-synced'
  /** Issue 26: a second process on the same folder was not refused, or changed something. */
  | 'second-process'
  /** Issue 29: something below an excluded device folder changed, and not by the other client. */
  | 'excluded-changed'
  /** Issue 29: an excluded folder whose local copy was to go is still on this computer. */
  | 'excluded-here'
  /** Issue 30: a placeholder out of step with its row or the device, kept but not whole, or in a trash. */
  | 'placeholder'
  /** Issue 31: the versions store and its rows in the index disagree (a file no row names, a row without its file). */
  | 'version-store';

export interface Violation {
  code: ViolationCode;
  message: string;
}

/** A version that must still exist after the pass, and why. */
export interface RequiredContent {
  content: string;
  why: string;
  /**
   * Where it must be: anywhere (a tree, a conflicted copy, the versions or the trash) unless `versions`:
   * the local copy a device's edit replaced, which the engine keeps as a version before it downloads.
   */
  in?: 'versions';
}

/** What a pair's versions store holds (issue 31): snapshot.ts's readVersionStore. */
export interface VersionsSeen {
  /** Every file in the store: its bytes, and where its kept row says it was (none: no row names it). */
  files: readonly { blob: string; content: string; path?: string; reason?: string }[];
  /** Where the store and its rows disagree, in words (each a violation of its own). */
  disagreements: readonly string[];
}

export interface PassState {
  local: readonly SnapshotItem[];
  remote: readonly SnapshotItem[];
  index: readonly IndexRow[];
  /** Contents of every file in the trash folders the engine may have used. */
  trashed: readonly string[];
  /** Issue 31: the versions store of the pair (unchecked when absent). */
  versions?: VersionsSeen;
  /** The synced remote folder's id, the parent of top-level rows (unchecked when absent). */
  remoteRootId?: string;
  /** Paths the pass reported as skipped (a name it will not sync): they may be on one side only. */
  skipped?: readonly string[];
  /**
   * Paths skipped on one side only (one of two NFC-equal spellings there): only that side's items are
   * left out of the checks, since the other side's item with the same spelling is synced.
   */
  skippedLocal?: readonly string[];
  skippedRemote?: readonly string[];
  /** The paths above that were left out for a NAME_CLASH (issue 30: an item moved there may stay on the device). */
  nameClashes?: readonly string[];
}

const nfc = (path: string): string => path.normalize('NFC');

/** A readable form of a path: non-ASCII as escapes, so NFC and NFD spellings look different. */
export function showPath(path: string): string {
  return JSON.stringify(path).replace(
    /[^\x20-\x7e]/gu,
    (char) => `\\u{${char.codePointAt(0)?.toString(16)}}`,
  );
}

function describe(item: SnapshotItem): string {
  if (item.kind !== 'file') return item.kind;
  return `file ${JSON.stringify(shorten(item.content ?? ''))}`;
}

export function shorten(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}...` : text;
}

function groupByPath(items: readonly SnapshotItem[]): Map<string, SnapshotItem[]> {
  const groups = new Map<string, SnapshotItem[]>();
  for (const item of items) {
    const key = nfc(item.path);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

/** (1) Same paths (compared as NFC, the engine's name key), same kinds, same bytes. */
export function checkTreesMatch(
  local: readonly SnapshotItem[],
  remote: readonly SnapshotItem[],
  [hereName, thereName]: readonly [string, string] = ['local', 'the device'],
): Violation[] {
  const violations: Violation[] = [];
  const localByPath = groupByPath(local);
  const remoteByPath = groupByPath(remote);
  const keys = [...new Set([...localByPath.keys(), ...remoteByPath.keys()])].sort(compare);
  for (const key of keys) {
    const here = localByPath.get(key) ?? [];
    const there = remoteByPath.get(key) ?? [];
    const fail = (message: string): void => {
      violations.push({ code: 'trees-differ', message });
    };
    for (const item of [...here, ...there]) {
      if (item.kind === 'other') fail(`${showPath(item.path)} is neither a file nor a folder`);
    }
    if (there.length === 0) {
      fail(`only ${hereName} has ${showPath(key)} (${here.map(describe).join(', ')})`);
    } else if (here.length === 0) {
      fail(`only ${thereName} has ${showPath(key)} (${there.map(describe).join(', ')})`);
    } else if (here.length !== there.length) {
      fail(
        `${showPath(key)}: ${here.length} item(s) in ${hereName}, ${there.length} in ${thereName} (NFC spellings)`,
      );
    } else {
      const signature = (items: SnapshotItem[]): string => items.map(describe).sort(compare).join(' | ');
      const sameBytes = (items: SnapshotItem[]): string =>
        items
          .map((item) => `${item.kind}:${item.content ?? ''}`)
          .sort(compare)
          .join('\0');
      if (sameBytes(here) !== sameBytes(there)) {
        fail(`${showPath(key)} differs: ${hereName} ${signature(here)}, ${thereName} ${signature(there)}`);
      }
    }
  }
  return violations;
}

/** (2) One index row per item, at its path (NFC) with its kind; its remote id is that remote item. */
export function checkIndex(
  index: readonly IndexRow[],
  local: readonly SnapshotItem[],
  remote: readonly SnapshotItem[],
  rootId?: string,
): Violation[] {
  const violations: Violation[] = [];
  const fail = (message: string): void => {
    violations.push({ code: 'index-mismatch', message });
  };
  const localByPath = groupByPath(local);
  const rowsByPath = new Map<string, IndexRow[]>();
  for (const row of index) rowsByPath.set(nfc(row.path), [...(rowsByPath.get(nfc(row.path)) ?? []), row]);
  const remoteById = new Map(
    remote.flatMap((item) => (item.id === undefined ? [] : [[item.id, item] as const])),
  );
  const remoteByPath = new Map(remote.map((item) => [item.path, item]));
  for (const [key, items] of localByPath) {
    const rows = rowsByPath.get(key) ?? [];
    if (rows.length !== items.length) {
      fail(`${showPath(key)}: ${items.length} local item(s) but ${rows.length} index row(s)`);
    }
  }
  for (const row of index) {
    const where = `index row ${showPath(row.path)} (${row.remoteId})`;
    const locals = localByPath.get(nfc(row.path)) ?? [];
    if (locals.length === 0) {
      fail(`${where} has no local item`);
    } else if (!locals.some((item) => item.kind === row.kind)) {
      fail(`${where} says ${row.kind}, locally it is a ${locals.map((item) => item.kind).join(', ')}`);
    } else if (
      row.inode !== null &&
      locals.every((item) => item.inode !== undefined && item.inode !== row.inode)
    ) {
      fail(`${where} has inode ${row.inode}, the local item ${locals.map((item) => item.inode).join(', ')}`);
    }
    const onDevice = remoteById.get(row.remoteId);
    if (onDevice === undefined) {
      fail(`${where}: no such item on the device`);
      continue;
    }
    if (nfc(onDevice.path) !== nfc(row.path))
      fail(`${where}: the device has it at ${showPath(onDevice.path)}`);
    if (onDevice.kind !== row.kind) fail(`${where} says ${row.kind}, the device has a ${onDevice.kind}`);
    // deriveRemoteChange reads a file as changed when its size or mTime differs from the row (an eTag
    // alone also moves with renames), so those must be the device's; a folder's only change is its place.
    if (row.kind === 'file' && onDevice.size !== undefined && onDevice.size !== row.size) {
      fail(`${where} has size ${row.size}, the device ${onDevice.size}`);
    }
    if (row.kind === 'file' && onDevice.mTimeMs !== undefined && onDevice.mTimeMs !== row.mTimeMs) {
      fail(`${where} has mTime ${row.mTimeMs}, the device ${onDevice.mTimeMs}`);
    }
    const parentId = parentOf(onDevice.path) === '' ? rootId : remoteByPath.get(parentOf(onDevice.path))?.id;
    if (rootId !== undefined && parentId !== row.parentRemoteId) {
      fail(`${where} has parent ${row.parentRemoteId}, the device ${parentId ?? 'none'}`);
    }
  }
  return violations;
}

/** Every state invariant of one moment: trees, index and content. */
export function checkState(state: PassState, required: readonly RequiredContent[]): Violation[] {
  const syncedBeside = (oneSide: readonly string[] = []): ((item: SnapshotItem) => boolean) => {
    const hidden = [...(state.skipped ?? []), ...oneSide];
    return (item) => !hidden.some((path) => isWithin(item.path, path));
  };
  const local = state.local.filter(syncedBeside(state.skippedLocal));
  const remote = state.remote.filter(syncedBeside(state.skippedRemote));
  return [
    ...checkTreesMatch(local, remote),
    ...checkIndex(state.index, local, remote, state.remoteRootId),
    // Skipped or not, nothing may be lost.
    ...checkNoContentLost(required, state),
    ...checkVersionStore(state),
  ];
}
