// The live watcher's knowledge of items it has not seen events for, read from the index on demand instead of a scan held in memory.
import type { IndexStore } from '../index/index-store.ts';
import type { RelativePath } from '../model/items.ts';
import type { KnownItem } from './local-changes.ts';

/**
 * What the last pass recorded at a path, as the cleaner pairs it (kind, local inode, size, mtime);
 * undefined where the index has no row or the item never existed here (a download not finished).
 * With it the watcher needs no scan at start: at 1,000,000 files that scan took about 3 s and its
 * result 200 MB of heap for as long as the service ran (docs/benchmarks.md, "Watcher memory").
 */
export function knownItemsFromIndex(index: IndexStore): (path: RelativePath) => KnownItem | undefined {
  return (path) => {
    const entry = index.byPath(path);
    if (entry === undefined || entry.inode === null) return undefined;
    const item: KnownItem = { kind: entry.kind, inode: entry.inode };
    if (entry.kind === 'file') {
      if (entry.localSize !== null) item.size = entry.localSize;
      if (entry.localMtimeNs !== null) item.mtimeNs = entry.localMtimeNs;
    }
    return item;
  };
}
