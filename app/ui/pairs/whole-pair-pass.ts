// An on-demand pair made whole from the window: with its service stopped, everything pinned for one pass of its own engine that brings every placeholder down, then its cache folder moved back (app/on-demand/whole-pair.ts); the user's pins put back on any failure.
import { mkdir } from 'node:fs/promises';
import { indexFilePath, openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { pinnedPolicy } from '../../on-demand/pinned-policy.ts';
import { makePairWhole } from '../../on-demand/whole-pair.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import { pinnedIdsReader, readPairOnDemand, updatePairOnDemand } from '../../profile/pair-on-demand.ts';
import { pairSelectionStore } from '../../profile/pair-selection.ts';
import { readPairVersions } from '../../profile/pair-versions.ts';
import { SyncEngine } from '../../sync/engine.ts';
import { WindowError } from '../ui-errors.ts';
import type { StoppedWork } from './pair-start.ts';

/**
 * Makes the on-demand pair whole (the caller stopped its service and holds its folder's lock). The
 * pass is one `SyncEngine.syncOnce` over the cache folder, unmounted, as `mch-sync run --once` does,
 * not the pair's own live service run until its first pass ends: that would mount the folder (which
 * must then be unmounted again before the move), tell the window a "Syncing" card and activity of its
 * own over "Turning off files on demand…", and its first pass's end would have to be watched for; a
 * pass of one's own returns its report, and nothing is left running when it throws.
 */
export const makeWholeWithPass: StoppedWork = async (pair, { start, lock }) => {
  const { profileDir } = start;
  const before = readPairOnDemand(profileDir, pair.localRoot);
  if (before === undefined) return;
  const db = openIndexDb(indexFilePath(profileDir, pair.localRoot));
  try {
    const index = new IndexStore(db);
    // A pair that never finished a pass has no device folder recorded: nothing of the device is here.
    const rootId = index.getMeta(META_REMOTE_ROOT);
    if (rootId !== undefined) {
      // The pair's device folder pinned: the pinned policy keeps everything whole for this pass.
      await updatePairOnDemand(profileDir, pair.localRoot, (now) =>
        now === undefined ? undefined : { ...now, pinned: [...before.pinned, { path: '', id: rootId }] },
      );
    }
    try {
      await makePairWhole(profileDir, pair.localRoot, async () => {
        if (rootId !== undefined) await bringEverythingDown(start, pair, before.cache, index, lock);
      });
    } catch (error) {
      // Pinned only for the switch: the user's own pins are what they were.
      await updatePairOnDemand(profileDir, pair.localRoot, (now) =>
        now === undefined ? undefined : { ...now, pinned: before.pinned },
      );
      throw error;
    }
  } finally {
    db.close();
  }
};

/**
 * One pass of the pair's engine with everything kept. A pass with per-item errors is not refused here:
 * what counts is whether a placeholder is left (makePairWhole checks, and says which); a held pass
 * (a mass delete, a replaced folder) changes nothing and says what waits.
 */
async function bringEverythingDown(
  start: Parameters<StoppedWork>[1]['start'],
  pair: FolderPair,
  cache: string,
  index: IndexStore,
  lock: Parameters<StoppedWork>[1]['lock'],
): Promise<void> {
  const { profileDir } = start;
  await mkdir(cache, { recursive: true, mode: 0o700 });
  const engine = new SyncEngine({
    client: start.client,
    index,
    localRoot: cache,
    pairFolder: pair.localRoot,
    onDemand: pinnedPolicy(pinnedIdsReader(profileDir, pair.localRoot), () =>
      index.getMeta(META_REMOTE_ROOT),
    ),
    remoteFolder: pair.remoteFolder,
    ...(start.device === undefined ? {} : { device: start.device }),
    folderLock: lock,
    env: start.env,
    ...(start.ignoreRules === undefined ? {} : { ignoreRules: start.ignoreRules }),
    selection: pairSelectionStore(profileDir, pair.localRoot),
    versions: () => readPairVersions(profileDir, pair.localRoot),
  });
  const report = await engine.syncOnce();
  if (report.status === 'held') {
    const what = report.hold?.what;
    const words = what === undefined ? '' : ` (${what.replace(/\.$/, '')})`;
    throw new WindowError(
      'ON_DEMAND_MOVE_FAILED',
      'Could not switch',
      `The pass that downloads every file is held${words}: nothing was changed. Answer it on the status view, then turn files on demand off again.`,
    );
  }
}
