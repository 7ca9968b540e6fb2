// What changed on one side of an item since the index's common base.
import type { IndexRow, LocalEntry, RelativePath, RemoteEntry } from '../../model/items.ts';
import { hasName, sameName } from '../../model/items.ts';

/**
 * One side's change since the index. `moved` covers renames and moves (the item's own name or parent
 * changed, not an ancestor's); `type-changed` means a file became a folder or the other way round.
 */
export type Change =
  'none' | 'created' | 'modified' | 'moved' | 'moved-modified' | 'deleted' | 'type-changed';

export function deriveLocalChange(
  index: IndexRow | null,
  local: LocalEntry | null,
  parentIdOfLocalPath: (path: RelativePath) => string | null,
): Change {
  if (!index) return local ? 'created' : 'none';
  // A row whose download never finished has no local half: nothing was deleted locally.
  if (!local) return index.inode === null ? 'none' : 'deleted';
  if (local.kind !== index.kind) return 'type-changed';
  const moved = !hasName(local.path, index.name) || parentIdOfLocalPath(local.path) !== index.parentRemoteId;
  // A folder's mtime moves whenever its children change: only files have content.
  const modified =
    local.kind === 'file' && (local.size !== index.localSize || local.mtimeNs !== index.localMtimeNs);
  return combine(moved, modified);
}

export function deriveRemoteChange(index: IndexRow | null, remote: RemoteEntry | null): Change {
  if (!index) return remote ? 'created' : 'none';
  if (!remote) return 'deleted';
  if (remote.kind !== index.kind) return 'type-changed';
  const moved = remote.parentId !== index.parentRemoteId || !sameName(remote.name, index.name);
  // device-api.md §3: a folder's eTag changes when a direct child changes, so it says nothing about
  // the folder itself; a file's eTag also changes on metadata edits, so size or mTime must differ too.
  const modified =
    remote.kind === 'file' &&
    remote.eTag !== index.eTag &&
    (remote.size !== index.size || remote.mTimeMs !== index.mTimeMs);
  return combine(moved, modified);
}

function combine(moved: boolean, modified: boolean): Change {
  if (moved) return modified ? 'moved-modified' : 'moved';
  return modified ? 'modified' : 'none';
}
