// What the engine tells its owner while a pass runs: its own local writes, finished items, progress.
import type { ActivityEntry, SyncProgress } from '../../common/sync-status.ts';
import type { RelativePath } from '../model/items.ts';

/** A change the engine is about to make on disk (the watcher swallows its echo). */
export interface LocalWrite {
  kind: 'created' | 'modified' | 'deleted' | 'moved';
  path: RelativePath;
  /** For a move: where the item is now. */
  fromPath?: RelativePath;
  /**
   * For a file written: what it will be at `path` (inode, size, mtime), so that a write of the user's
   * right after it is not taken for its echo.
   */
  item?: WrittenItem;
}

export interface WrittenItem {
  inode: string;
  size: number;
  mtimeNs: bigint;
}

export interface EngineEvents {
  /** Called right before the engine changes a local path. */
  onLocalWrite?: (write: LocalWrite) => void;
  /** Called after an item's operation succeeded. */
  onActivity?: (entry: ActivityEntry) => void;
  /** Items and bytes of the running plan done, out of how many, and the transfers running now. */
  onProgress?: (progress: SyncProgress) => void;
}
