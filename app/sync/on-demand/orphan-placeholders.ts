// Placeholders that no index row stands for: their item is gone, and with it their only content; they are removed, never planned as uploads.
import { unlink } from 'node:fs/promises';
import type { IndexStore } from '../../index/index-store.ts';
import type { IndexRow, LocalEntry, RelativePath } from '../../model/items.ts';
import type { LocalWrite } from '../engine-events.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';
import { isPlaceholder } from '../local/placeholders.ts';

/**
 * `local` (a round's local side) without, and the disk without, every placeholder whose inode no index
 * row has (the same map when there is none). A placeholder's bytes are never sent, so planned as a new file it would be retried in every
 * round of every pass, never quiet (soak seed 181: a placeholder moved here while the device replaced
 * its item with a folder, its row dropped by the type change). Its content was only the device's item,
 * which is gone: nothing is lost by removing it. A crash between a placeholder's placing and its row is
 * settled before the rounds by the download's intent, so a placeholder of this pass is never taken.
 */
export async function dropOrphanPlaceholders(
  local: ReadonlyMap<RelativePath, LocalEntry>,
  placeholders: ReadonlySet<string> | undefined,
  options: {
    /** The round's rows: most placeholders are found among them without asking the index. */
    rows: Iterable<IndexRow>;
    index: Pick<IndexStore, 'byInode'>;
    localRoot: string;
    onLocalWrite: (write: LocalWrite) => void;
    log: (message: string, path: string) => void;
  },
): Promise<ReadonlyMap<RelativePath, LocalEntry>> {
  if (placeholders === undefined || placeholders.size === 0) return local;
  const known = new Set<string>();
  for (const row of options.rows) if (row.kind === 'file' && row.inode !== null) known.add(row.inode);
  let kept: Map<RelativePath, LocalEntry> | undefined;
  for (const entry of local.values()) {
    if (entry.kind !== 'file' || !placeholders.has(entry.inode) || known.has(entry.inode)) continue;
    // A scoped round holds only the rows around its scope: the index has the others.
    if (options.index.byInode(entry.inode).some((row) => row.kind === 'file')) continue;
    const absolute = localPath(options.localRoot, entry.path);
    const now = await statOrUndefined(absolute);
    // Only the file the scan saw, still a placeholder.
    if (now?.ino.toString() !== entry.inode || !isPlaceholder(absolute)) continue;
    options.onLocalWrite({ kind: 'deleted', path: entry.path });
    await unlink(absolute);
    kept ??= new Map(local);
    kept.delete(entry.path);
    options.log('a placeholder whose item is gone from the device removed', entry.path);
  }
  return kept ?? local;
}
