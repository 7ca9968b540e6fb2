// The states of paths in pairs no running client serves: read from each pair's index as its last pass left it.
import { existsSync } from 'node:fs';
import type { FileStateAnswer } from '../../common/file-state.ts';
import { openIndexDb } from '../index/index-db.ts';
import { IndexStore } from '../index/index-store.ts';
import type { FolderPair } from '../profile/folder-pairs.ts';
import { pinnedIdsReader, readPairOnDemand, syncRootOf } from '../profile/pair-on-demand.ts';
import { readPairSelection } from '../profile/pair-selection.ts';
import { PairStates } from './pair-states.ts';
import { StateBook } from './state-book.ts';

/**
 * Each path's state from the index of its pair (only the pairs the paths are in are opened): synced
 * items, conflicts, exclusions and placeholders are known; what waits or failed since is not, so a
 * path here and not in the index reads `waiting`. The indexes are closed before this returns.
 */
export function offlineStates(
  profileDir: string,
  pairs: readonly FolderPair[],
  paths: readonly string[],
): FileStateAnswer[] {
  const book = new StateBook();
  const opened: Array<{ close(): void }> = [];
  try {
    for (const pair of pairs) {
      const inside = paths.some((path) => path === pair.localRoot || path.startsWith(`${pair.localRoot}/`));
      if (!inside || !existsSync(pair.indexPath)) continue;
      const db = openIndexDb(pair.indexPath);
      opened.push(db);
      const onDemand = readPairOnDemand(profileDir, pair.localRoot);
      book.add(
        new PairStates({
          folder: pair.localRoot,
          syncRoot: syncRootOf(pair, onDemand),
          index: new IndexStore(db),
          onDemand: onDemand !== undefined,
          pinnedIds: pinnedIdsReader(profileDir, pair.localRoot),
          excluded: () => {
            const { excluded, waiting } = readPairSelection(profileDir, pair.localRoot);
            return [...excluded, ...waiting].map((folder) => folder.path);
          },
          onChange: () => {},
        }),
      );
    }
    return paths.map((path) => book.stateOf(path));
  } finally {
    for (const db of opened) db.close();
  }
}
