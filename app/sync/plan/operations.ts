// The operations a sync plan is made of: what the executor does, in order, to make both sides match.
import type { IndexRow, ItemKind, LocalEntry, RelativePath, RemoteEntry } from '../../model/items.ts';

/**
 * The remote folder a create or move goes into: one that exists (by id), or one created earlier in the
 * same plan, known only by its local path until the executor has created it.
 */
export type RemoteParent = { kind: 'existing'; remoteId: string } | { kind: 'planned'; path: RelativePath };

/** Why an operation is in the plan, for the pass summary (conflicts, restores after a delete). */
export type OperationReason =
  'sync' | 'conflict' | 'edit-beats-delete' | 'type-change' | 'case-clash' | 'kept-unsynced-content';

export type Operation =
  /** POST a folder; `replacesRemoteId` is an index row the new item takes over (a restore). */
  | {
      op: 'remote-create-folder';
      path: RelativePath;
      name: string;
      parent: RemoteParent;
      local: LocalEntry;
      replacesRemoteId: string | null;
      reason: OperationReason;
    }
  /** POST a new file with its content (mTime = the local mtime). */
  | {
      op: 'upload';
      path: RelativePath;
      name: string;
      parent: RemoteParent;
      local: LocalEntry;
      replacesRemoteId: string | null;
      reason: OperationReason;
    }
  /** PUT new content into an existing file. */
  | {
      op: 'upload-content';
      path: RelativePath;
      remoteId: string;
      ifMatch: string;
      local: LocalEntry;
      reason: OperationReason;
    }
  /** One PATCH (name and/or parentID): a rename or move, however many items a folder holds. */
  | {
      op: 'remote-move';
      remoteId: string;
      ifMatch: string;
      fromPath: RelativePath;
      toPath: RelativePath;
      /** Null when the name stays. */
      name: string | null;
      /** Null when the folder stays. */
      parent: RemoteParent | null;
      reason: OperationReason;
    }
  /** DELETE with If-Match; one request for a folder and everything in it. */
  | {
      op: 'remote-delete';
      remoteId: string;
      ifMatch: string;
      path: RelativePath;
      kind: ItemKind;
      reason: OperationReason;
      /** The index row of the item when it is another id (a folder the device made again at its path). */
      indexRemoteId?: string;
    }
  | { op: 'local-mkdir'; path: RelativePath; remote: RemoteEntry; reason: OperationReason }
  /** Download a file that is not on disk at `path` (temporary file, then renamed into place). */
  | { op: 'download'; path: RelativePath; remote: RemoteEntry; reason: OperationReason }
  /** Replace the content of `expected` (checked again just before, so a fresh local edit is kept). */
  | {
      op: 'download-content';
      path: RelativePath;
      remote: RemoteEntry;
      expected: LocalEntry;
      reason: OperationReason;
    }
  | {
      op: 'local-move';
      fromPath: RelativePath;
      toPath: RelativePath;
      inode: string;
      /** The remote id the moved item is synced with, or null for a local-only item (a conflict copy). */
      remoteId: string | null;
      reason: OperationReason;
    }
  /** To the OS trash (or `.mch-sync/trash/`), never unlinked; a folder goes with what is in it. */
  | {
      op: 'local-trash';
      path: RelativePath;
      inode: string;
      kind: ItemKind;
      reason: OperationReason;
      /** The item's index row: paired by path, its entry may have another inode and spelling (seed 3680). */
      indexRemoteId?: string;
    }
  /** Both sides already agree: record them as the new common base. */
  | {
      op: 'index-update';
      remoteId: string;
      local: LocalEntry;
      remote: RemoteEntry;
      /** The row of the same item under the id it had before the device re-created it. */
      replacesRemoteId?: string;
    }
  /** The item is gone on both sides. */
  | { op: 'index-remove'; remoteId: string; index: IndexRow };

export type OperationName = Operation['op'];

/** Records local and remote as the new common base; the row under an id the device replaced goes. */
export function indexUpdate(index: IndexRow | null, local: LocalEntry, remote: RemoteEntry): Operation {
  const replaces = index !== null && index.remoteId !== remote.id ? { replacesRemoteId: index.remoteId } : {};
  return { op: 'index-update', remoteId: remote.id, local, remote, ...replaces };
}
