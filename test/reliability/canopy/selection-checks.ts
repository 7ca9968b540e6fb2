// Issue 29's invariants and what they read, from the device's own store and the disk: an excluded folder as only others changed it, nothing of it here but a kept copy.
import { readFileSync } from 'node:fs';
import type { DeviceContext } from '../../../device/context.ts';
import { resolve, type RemoteSide } from './apply.ts';
import { showPath, type PassState, type SnapshotItem, type Violation } from './invariants.ts';
import { isWithin, type Change } from './model.ts';
import { readDeviceTree } from './snapshot.ts';

const nfc = (path: string): string => path.normalize('NFC');

/** Whether `path` is `folder` or below it, names compared as the engine compares them (NFC). */
export function isWithinKey(path: string, folder: string): boolean {
  return isWithin(nfc(path), nfc(folder));
}

/**
 * An excluded folder on the device: its own place (name and parent, which only another client may
 * change: a move of its local parent moves the parent, never the folder) and every item below it.
 */
export interface FolderPrint {
  name: string;
  parentId: string | null;
  /** Path below the folder → kind, id, eTag, size, mTime and bytes. */
  below: Map<string, string>;
}

/** The path of the live item `id` below the folder `rootId` on the device, or undefined (gone, or elsewhere). */
export function devicePathOf(device: DeviceContext, rootId: string, id: string): string | undefined {
  const names: string[] = [];
  let current = device.items.getLive(id);
  for (let depth = 0; current !== undefined && current.id !== rootId && depth < 64; depth++) {
    names.unshift(current.name);
    current = current.parent_id === null ? undefined : device.items.getLive(current.parent_id);
  }
  return current?.id === rootId && names.length > 0 ? names.join('/') : undefined;
}

/** The device's folder `id` as it is now, or undefined when it is no longer there. */
export function printFolder(device: DeviceContext, id: string): FolderPrint | undefined {
  const row = device.items.getLive(id);
  if (row === undefined || row.is_dir !== 1) return undefined;
  const below = new Map<string, string>();
  for (const item of readDeviceTree(device, id)) {
    const facts = [
      item.kind,
      item.id,
      item.eTag,
      item.size,
      item.mTimeMs,
      JSON.stringify(item.content ?? ''),
    ];
    below.set(item.path, facts.join(' '));
  }
  return { name: row.name, parentId: row.parent_id, below };
}

/**
 * (a) Nothing below an excluded folder changed since `before` (taken after the other client's last
 * change): nothing made, changed, moved or deleted there, and the folder itself neither renamed nor
 * moved nor deleted. `mayWrite`: paths below it the pass may write (the unsynced content of a copy to
 * remove goes up before the copy goes).
 */
export function checkUntouched(
  label: string,
  before: FolderPrint | undefined,
  now: FolderPrint | undefined,
  mayWrite: ReadonlySet<string> = new Set(),
): Violation[] {
  if (before === undefined) return [];
  const fail = (message: string): Violation => ({
    code: 'excluded-changed',
    message: `excluded ${label}: ${message}`,
  });
  if (now === undefined) return [fail('deleted on the device, and not by the other client')];
  const violations: Violation[] = [];
  if (now.name !== before.name || now.parentId !== before.parentId)
    violations.push(fail(`moved on the device to ${showPath(now.name)} in ${now.parentId ?? 'none'}`));
  // A write below a folder gives that folder a new eTag on the device: its folders may change too.
  const written = new Set(mayWrite);
  for (const path of mayWrite)
    for (let parent = path; parent.includes('/');)
      written.add((parent = parent.slice(0, parent.lastIndexOf('/'))));
  for (const path of new Set([...before.below.keys(), ...now.below.keys()])) {
    if (written.has(nfc(path))) continue;
    const was = before.below.get(path);
    const is = now.below.get(path);
    if (was === is) continue;
    const what = was === undefined ? 'made' : is === undefined ? 'deleted or moved away' : 'changed';
    violations.push(fail(`${showPath(path)} ${what} (was ${short(was)}, now ${short(is)})`));
  }
  return violations;
}

function short(facts: string | undefined): string {
  if (facts === undefined) return 'nothing';
  return facts.length > 60 ? `${facts.slice(0, 60)}...` : facts;
}

/** What the checks of a state leave out: excluded folders on both sides, items a kept copy took in. */
export interface Hidden {
  /** The excluded folders' paths (where the device has them, else where it last had them). */
  folders: readonly string[];
  /** Kept copies this computer moved elsewhere (known by their inode, still kept). */
  localOnly: readonly string[];
  /** Synced items the user moved into a kept copy: the device keeps them where they were. */
  remoteOnly: readonly string[];
  /** Synced folders at another spelling of an excluded path: not hidden with it. */
  twins?: readonly string[];
}

/**
 * `state` without what selective sync leaves out: the excluded folders (the device's, and a kept
 * copy or what the user made at their path here), and on the device the items moved into a kept copy;
 * index rows at those paths too. The rest must match as it always does.
 */
export function withoutExcluded(state: PassState, hidden: Hidden): PassState {
  const outOf =
    (paths: readonly string[]) =>
    (item: { path: string }): boolean =>
      !paths.some((path) => isWithinKey(item.path, path)) ||
      (hidden.twins ?? []).some((twin) => isWithin(item.path, twin));
  const remotePaths = [...hidden.folders, ...hidden.remoteOnly];
  return {
    ...state,
    local: state.local.filter(outOf([...hidden.folders, ...hidden.localOnly])),
    remote: state.remote.filter(outOf(remotePaths)),
    index: state.index.filter(outOf([...remotePaths, ...hidden.localOnly])),
  };
}

/**
 * (b) After settling, nothing of a folder excluded with its local copy removed is here, unless the user
 * made something at its path since; `twins`, synced folders at another spelling of its path, are not it.
 */
export function checkNothingHere(
  label: string,
  path: string,
  local: readonly SnapshotItem[],
  userMade: boolean,
  twins: readonly string[] = [],
): Violation[] {
  if (userMade) return [];
  // A synced folder spelled another way (its NFC twin) is another device folder, not the copy (seed 624).
  const here = local.filter(
    (item) => isWithinKey(item.path, path) && !twins.some((twin) => isWithin(item.path, twin)),
  );
  if (here.length === 0) return [];
  return [
    {
      code: 'excluded-here',
      message: `excluded ${label} (local copy removed) is still here: ${here
        .slice(0, 4)
        .map((item) => showPath(item.path))
        .join(', ')}${here.length > 4 ? ', ...' : ''}`,
    },
  ];
}

/** The versions of the device's item at `path` (a file, or a folder's files), read from its store. */
export function contentsAt(remote: RemoteSide, path: string): string[] {
  let id: string;
  try {
    id = resolve(remote, path);
  } catch {
    return [];
  }
  const row = remote.device.items.getLive(id);
  if (row === undefined) return [];
  if (row.is_dir === 1)
    return readDeviceTree(remote.device, id).flatMap((item) =>
      item.content === undefined ? [] : [item.content],
    );
  return [row.blob === null ? '' : readFileSync(remote.device.blobs.path(row.blob)).toString('latin1')];
}

/**
 * Where a local copy is after `change`: moved with its parent (or itself, `selfMoveKeeps`: a kept copy
 * is known by its inode), or null when it is gone.
 */
export function follow(path: string | null, change: Change, selfMoveKeeps: boolean): string | null {
  if (path === null) return null;
  if (change.op === 'move') {
    if (!isWithinKey(path, change.from)) return path;
    if (nfc(path) === nfc(change.from) && !selfMoveKeeps) return null;
    return change.to + path.slice(change.from.length);
  }
  if (change.op === 'create-file' || change.op === 'create-folder' || change.op === 'edit') return path;
  return isWithinKey(path, change.path) ? null : path;
}
