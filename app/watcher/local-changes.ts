// The watcher's words: raw events as seen and the cleaned local changes made of them (types only, a leaf).
import type { ItemKind, RelativePath } from '../model/items.ts';

/** chokidar's five events. */
export type RawEventType = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir';

/** One event as the watcher saw it; the item kind follows from `type`. */
export interface RawEvent {
  type: RawEventType;
  path: RelativePath;
  /** From an lstat right after an add, addDir or change (decimal, like the scanner's); none on unlink. */
  inode?: string;
  size?: number;
  mtimeNs?: bigint;
  /** When it was seen, in the watcher's monotonic milliseconds. */
  atMs: number;
}

export type LocalChangeKind = 'created' | 'modified' | 'deleted' | 'moved';

/**
 * One cleaned change. `path` is where the item is after the batch, except for 'deleted' (where it
 * was). A created, deleted or moved folder stands for its whole subtree: what happened below it is
 * not listed again, except changes the folder's own change does not explain (a file created inside a
 * folder that was moved, say).
 */
export interface LocalChange {
  kind: LocalChangeKind;
  path: RelativePath;
  /** Where a moved item was before the batch. */
  fromPath?: RelativePath;
  itemKind: ItemKind;
}

/** What a batch tells the live service. */
export interface CleanedBatch {
  changes: LocalChange[];
  /** Subtrees an incremental pass must read again (on disk and in the index); see affected-paths.ts. */
  affectedPaths: RelativePath[];
  /**
   * Events held back (deletions that may still turn out to be one half of a move) become ready at
   * this time; drain again then.
   */
  heldUntilMs?: number;
}

/** What is known of an item: its identity (inode) and, for files, what a rename keeps (size, mtime). */
export interface KnownItem {
  kind: ItemKind;
  inode?: string;
  size?: number;
  mtimeNs?: bigint;
}
