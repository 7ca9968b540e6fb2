// A disk's own folders (its trash, lost+found) and the engine's state folder (its versions) in a soak seed: left out of the trees compared, and never to reach the other side.
import { showPath, type SnapshotItem, type Violation } from './invariants.ts';

/** Names the engine never syncs at any depth, of those a seed can meet (app/sync/local/local-names.ts has them all). */
const BOOKKEEPING = /^(?:\.Trash|\.Trash-\d+|lost\+found|\.mch-sync)$/;

/** The engine's state folder, where it keeps versions (issue 31): this computer's own, never the device's. */
const STATE_FOLDER = '.mch-sync';

export function isBookkeeping(path: string): boolean {
  return path.split('/').some((name) => BOOKKEEPING.test(name));
}

export function withoutBookkeeping(items: readonly SnapshotItem[]): SnapshotItem[] {
  return items.filter((item) => !isBookkeeping(item.path));
}

/**
 * Nothing under a disk's trash or lost+found, nor the engine's state folder with its versions, reaches
 * the other side: the device holds only such items the other client put there itself (`madeOnDevice`),
 * and the local folder none of those.
 */
export function checkBookkeeping(
  local: readonly SnapshotItem[],
  remote: readonly SnapshotItem[],
  madeOnDevice: ReadonlySet<string>,
): Violation[] {
  const violations: Violation[] = [];
  for (const item of remote) {
    if (isBookkeeping(item.path) && !madeOnDevice.has(item.path))
      violations.push({
        code: 'trash-synced',
        message: `the device holds ${showPath(item.path)}, ${item.path.split('/').includes(STATE_FOLDER) ? "of this computer's state folder" : "a disk's own folder"}`,
      });
  }
  for (const item of local) {
    if (madeOnDevice.has(item.path))
      violations.push({
        code: 'trash-synced',
        message: `the local folder holds ${showPath(item.path)}, which the other client put in the device's ${item.path.split('/')[0] ?? ''}`,
      });
  }
  return violations;
}
