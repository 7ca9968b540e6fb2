// The executor's writes to the index: rows placed at paths other rows may still hold mid-pass.
import type { IndexStore } from './index-store.ts';
import type { IndexEntry, RelativePath } from '../model/items.ts';

/**
 * Rows whose path another item took before their own operation ran (a swap, a type change) wait under
 * this prefix. A synced path never starts with a slash, so no real path is ever below it. (It was NUL
 * once, but SQLite's length() stops at a NUL: moving a parked row with children rewrote their paths
 * wrongly and the next write met a UNIQUE path, seed 20694. Such rows are still dropped.)
 */
const PARKED = '/parked';
const PARKED_BEFORE = '\u0000';

/** Whether an index path is a parked row's, not a place on disk. */
export function isParkedPath(path: RelativePath): boolean {
  return path.startsWith(`${PARKED}/`) || path.startsWith(PARKED_BEFORE);
}

export class IndexWriter {
  readonly store: IndexStore;

  constructor(store: IndexStore) {
    this.store = store;
  }

  /** Writes `entry` at its path, moving its subtree there if it was elsewhere; one transaction. */
  place(entry: IndexEntry): void {
    this.store.transaction(() => {
      this.#claim(entry.path, entry.remoteId);
      const existing = this.store.get(entry.remoteId);
      if (existing && existing.path !== entry.path) {
        this.#yieldBelow(existing.path, entry.path);
        this.store.moveSubtree({
          remoteId: entry.remoteId,
          toPath: entry.path,
          toName: entry.name,
          toParentRemoteId: entry.parentRemoteId,
        });
      }
      this.store.upsert(entry);
    });
  }

  /**
   * A new remote item takes over an old row (an item created again after a delete, or a type change):
   * the old row goes, its children (still to be trashed, moved or kept) now belong to the new item.
   */
  replace(oldRemoteId: string, entry: IndexEntry): void {
    this.store.transaction(() => {
      this.store.delete(oldRemoteId);
      this.store.reparent(oldRemoteId, entry.remoteId);
      this.place(entry);
    });
  }

  /** A rename or move of an indexed item and everything below it; false when the item is not indexed. */
  move(remoteId: string, toPath: RelativePath, toParentRemoteId: string | null, eTag?: string): boolean {
    return this.store.transaction(() => {
      const existing = this.store.get(remoteId);
      if (!existing) return false;
      this.#claim(toPath, remoteId);
      // The claim may have parked an ancestor of the item, with it: where it is now.
      this.#yieldBelow(this.store.get(remoteId)?.path ?? existing.path, toPath);
      this.store.moveSubtree({
        remoteId,
        toPath,
        toName: toPath.slice(toPath.lastIndexOf('/') + 1),
        toParentRemoteId: toParentRemoteId ?? existing.parentRemoteId,
        ...(eTag === undefined ? {} : { eTag }),
      });
      return true;
    });
  }

  /**
   * Removes an item's row and every row below it (a folder deleted with its content). Rows below it
   * that `survives` names (items that left the folder on the other side before it went) are parked
   * instead, with what is below them: their own operation later in the plan places them. Returns how
   * many rows went (the item and what it held), which is how many items the delete counts.
   */
  removeTree(remoteId: string, survives: (row: IndexEntry) => boolean = () => false): number {
    return this.store.transaction(() => {
      const existing = this.store.get(remoteId);
      if (!existing) return 0;
      const folders = existing.kind === 'folder' ? [existing] : [];
      for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
        for (const child of this.store.children(folder.remoteId)) {
          if (survives(child)) this.#park(child);
          else if (child.kind === 'folder') folders.push(child);
        }
      }
      return this.store.deleteSubtree(existing.path);
    });
  }

  /** At the end of a pass: rows still parked belong to items no operation placed; the next pass re-derives them. */
  dropParked(): number {
    return this.store.deleteSubtree(PARKED) + this.store.deleteSubtree(PARKED_BEFORE);
  }

  #claim(path: RelativePath, remoteId: string): void {
    const occupant = this.store.byPath(path);
    if (!occupant || occupant.remoteId === remoteId) return;
    this.#park(occupant);
  }

  /**
   * Before the subtree at `fromPath` moves to `toPath`: a row this pass already placed below `toPath`
   * keeps its place, and the row the move would carry onto that path waits parked for its own
   * operation instead (seed 24304: a folder made where a moved folder's file was, before the move).
   */
  #yieldBelow(fromPath: RelativePath, toPath: RelativePath): void {
    if (fromPath === toPath) return;
    for (const occupant of this.store.below(toPath)) {
      // Rows of the moving subtree itself are not in its way (a move up into a parked ancestor's place).
      if (occupant.path.startsWith(`${fromPath}/`)) continue;
      const carried = this.store.byPath(`${fromPath}${occupant.path.slice(toPath.length)}`);
      if (carried !== undefined) this.#park(carried);
    }
  }

  #park(occupant: IndexEntry): void {
    this.store.moveSubtree({
      remoteId: occupant.remoteId,
      toPath: `${PARKED}/${occupant.remoteId}`,
      toName: occupant.name,
      toParentRemoteId: occupant.parentRemoteId,
    });
  }
}
