// The planner's table: what to do with one reconciled item, given the change on each side.
import { assertNever, BugError } from '../../../common/errors.ts';
import { msOfNs, type LocalEntry, type RemoteEntry } from '../../model/items.ts';
import type { OperationReason } from './operations.ts';
import type { Change, ReconciledItem } from './reconcile.ts';

/**
 * What happens to one item. `location` says whose parent and name are final. `push`/`pull` say what
 * is written to the remote or local side; `clear*` removes the old item of a type change first.
 */
export interface Decision {
  action: 'none' | 'index-update' | 'index-remove' | 'sync' | 'conflict' | 'local-trash' | 'remote-delete';
  location: 'local' | 'remote';
  push: 'none' | 'create' | 'content';
  pull: 'none' | 'create' | 'content';
  pushMove: boolean;
  pullMove: boolean;
  clearLocal: boolean;
  clearRemote: boolean;
  reason: OperationReason;
}

const NOTHING: Decision = {
  action: 'none',
  location: 'local',
  push: 'none',
  pull: 'none',
  pushMove: false,
  pullMove: false,
  clearLocal: false,
  clearRemote: false,
  reason: 'sync',
};

function decision(overrides: Partial<Decision>): Decision {
  return { ...NOTHING, ...overrides };
}

const PULL_CREATE = (reason: OperationReason = 'sync'): Decision =>
  decision({ action: 'sync', location: 'remote', pull: 'create', reason });
const PUSH_CREATE = (reason: OperationReason = 'sync'): Decision =>
  decision({ action: 'sync', location: 'local', push: 'create', reason });
/** Keep both: the local item moves aside to a conflicted name and is uploaded; the remote comes down. */
export const CONFLICT = (): Decision =>
  decision({ action: 'conflict', location: 'remote', pull: 'create', reason: 'conflict' });

/**
 * The file times survive both ways (upload sends the local mtime, download sets it), so equal size and
 * equal time at millisecond precision mean the same content; a hash check is the executor's refinement.
 */
export function sameContent(local: LocalEntry, remote: RemoteEntry): boolean {
  if (local.kind !== remote.kind) return false;
  if (local.kind === 'folder') return true;
  return local.size === remote.size && msOfNs(local.mtimeNs) === remote.mTimeMs;
}

/**
 * `restore`: the user answered a held delete (an emptied folder, too many deletes) with "restore": every
 * delete is undone instead, an item deleted here comes back from the device and one deleted on the
 * device goes up again from here.
 */
export function decide(item: ReconciledItem, restore: boolean): Decision {
  if (!item.index) return decideNew(item);
  const L = item.localChange;
  const R = item.remoteChange;
  if (L === 'deleted' && restore) {
    return R === 'deleted' ? decision({ action: 'index-remove' }) : PULL_CREATE();
  }
  if (R === 'deleted' && L === 'none' && restore) return PUSH_CREATE('edit-beats-delete');
  if (L === 'type-changed' && R === 'type-changed') return decideNew(item);
  if (L === 'type-changed' || R === 'type-changed') return decideTypeChange(L, R);
  switch (L) {
    case 'none':
      // Another item took the deleted one's place on disk (a folder renamed onto its name, seed
      // 6683): that is the user's new item, not the one the device deleted, so it goes up.
      if (R === 'deleted' && replacedOnDisk(item)) return PUSH_CREATE('edit-beats-delete');
      return decideRemoteOnly(R);
    case 'modified':
    case 'moved':
    case 'moved-modified':
      return decideLocalChanged(L, R, item);
    case 'deleted':
      if (R === 'deleted') return decision({ action: 'index-remove' });
      // An edit (or a move) on the other side beats a delete: the item comes back.
      if (R === 'none') return decision({ action: 'remote-delete', location: 'remote' });
      return PULL_CREATE('edit-beats-delete');
    case 'created':
      return decideNew(item);
    default:
      return assertNever(L, 'local change');
  }
}

/**
 * The local entry paired by path is not the item the index knows there: its inode differs. (A row
 * whose download never finished has no inode to compare.)
 */
function replacedOnDisk(item: ReconciledItem): boolean {
  const { index, local } = item;
  return index !== null && local !== null && index.inode !== null && local.inode !== index.inode;
}

/** No index row: new on one side, or new on both at the same path. */
function decideNew(item: ReconciledItem): Decision {
  const { local, remote } = item;
  if (local && remote) {
    if (sameContent(local, remote)) return decision({ action: 'index-update', location: 'remote' });
    return CONFLICT();
  }
  if (local) return PUSH_CREATE(item.index ? 'type-change' : 'sync');
  if (remote) return PULL_CREATE(item.index ? 'type-change' : 'sync');
  return NOTHING;
}

function decideRemoteOnly(R: Change): Decision {
  switch (R) {
    case 'none':
      return NOTHING;
    case 'modified':
      return decision({ action: 'sync', location: 'remote', pull: 'content' });
    case 'moved':
      return decision({ action: 'sync', location: 'remote', pullMove: true });
    case 'moved-modified':
      return decision({ action: 'sync', location: 'remote', pull: 'content', pullMove: true });
    case 'deleted':
      return decision({ action: 'local-trash', location: 'local' });
    case 'created':
    case 'type-changed':
      throw new BugError(`${R} is decided before the table`);
    default:
      return assertNever(R, 'remote change');
  }
}

function decideLocalChanged(
  L: 'modified' | 'moved' | 'moved-modified',
  R: Change,
  item: ReconciledItem,
): Decision {
  const localModified = L !== 'moved';
  const localMoved = L !== 'modified';
  switch (R) {
    case 'none':
      return decision({
        action: 'sync',
        location: 'local',
        push: localModified ? 'content' : 'none',
        pushMove: localMoved,
      });
    case 'modified':
    case 'moved-modified': {
      if (localModified) {
        // Both edited: the same content on both sides is no conflict.
        if (item.local && item.remote && !item.contentDiffers && sameContent(item.local, item.remote)) {
          return R === 'modified' && localMoved
            ? decision({ action: 'sync', location: 'local', pushMove: true })
            : decision({
                action: 'sync',
                location: 'remote',
                pullMove: R === 'moved-modified' || localMoved,
              });
        }
        return CONFLICT();
      }
      // Moved here, edited there: both changes are kept; a remote move wins the location.
      return R === 'modified'
        ? decision({ action: 'sync', location: 'local', pushMove: true, pull: 'content' })
        : decision({ action: 'sync', location: 'remote', pullMove: true, pull: 'content' });
    }
    case 'moved':
      // Moved on both sides: the remote location wins (a no-op when both chose the same one).
      return decision({
        action: 'sync',
        location: 'remote',
        pullMove: true,
        push: localModified ? 'content' : 'none',
      });
    case 'deleted':
      // An edit or a move beats a delete: the local item goes back up as a new item.
      return PUSH_CREATE('edit-beats-delete');
    case 'created':
    case 'type-changed':
      throw new BugError(`${R} is decided before the table`);
    default:
      return assertNever(R, 'remote change');
  }
}

/** One side replaced a file with a folder or the other way round. */
function decideTypeChange(L: Change, R: Change): Decision {
  if (L === 'type-changed') {
    if (R === 'none') return decision({ ...PUSH_CREATE('type-change'), clearRemote: true });
    if (R === 'deleted') return PUSH_CREATE('type-change');
    // The remote item changed too: keep both, the local new item as a conflicted copy.
    return CONFLICT();
  }
  if (L === 'none') return decision({ ...PULL_CREATE('type-change'), clearLocal: true });
  if (L === 'deleted') return PULL_CREATE('type-change');
  return CONFLICT();
}
