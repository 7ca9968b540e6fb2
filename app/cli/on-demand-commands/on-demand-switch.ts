// `folders add|set --on-demand` and `folders set --no-on-demand`: a pair switched to files on demand and back, its live sync stopped, every file kept.
import { askService } from '../../live-service/control-client.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { acquireFolderLock, folderLockPath } from '../../profile/folder-lock.ts';
import { readPairOnDemand, updatePairOnDemand, type PairOnDemand } from '../../profile/pair-on-demand.ts';
import { indexFilePath } from '../../index/index-db.ts';
import { META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { makePairOnDemand, OnDemandError } from '../../on-demand/on-demand-pair.ts';
import { makePairWhole } from '../../on-demand/whole-pair.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { FoldersError, withIndex } from '../sync-commands/folder-service.ts';
import { runRun } from '../sync-commands/run-command.ts';

async function refuseWhileRunning(context: CommandContext, localRoot: string): Promise<void> {
  if ((await askService(controlSocketPath(context.profileDir, localRoot), { op: 'status' })) !== undefined) {
    throw new FoldersError(
      'PAIR_RUNNING',
      `Live sync of ${terminalSafe(localRoot)} is running: stop it (Ctrl+C, or quit the app), then switch it.`,
    );
  }
}

/** Runs `change` under the pair's lock (the profile's lock of its index): no pass runs meanwhile. */
async function underLock<T>(
  context: CommandContext,
  localRoot: string,
  change: () => Promise<T>,
): Promise<T> {
  await refuseWhileRunning(context, localRoot);
  const lock = acquireFolderLock(folderLockPath(context.profileDir, localRoot), {
    folder: localRoot,
    profile: context.profileDir,
  });
  try {
    return await change();
  } finally {
    lock.release();
  }
}

/** Makes the pair on demand (its files move, by one rename, into its cache folder). */
export async function switchOnDemand(context: CommandContext, localRoot: string): Promise<void> {
  const onDemand = await underLock(context, localRoot, () => makePairOnDemand(context.profileDir, localRoot));
  context.print(
    `${terminalSafe(localRoot)} is on demand: it shows every file of the device and downloads one when it is opened, ` +
      `while \`mch-sync run\` runs (files kept in ${terminalSafe(onDemand.cache)}).`,
  );
}

/**
 * Makes the on-demand pair whole again: one pass with everything kept brings every placeholder down
 * (its summary printed as `run --once` prints it), then the cache folder moves back to the pair's
 * folder. Anything left only on the device (offline, no room) stops it with nothing changed, and the
 * pins are put back as they were.
 */
export async function switchWhole(context: CommandContext, localRoot: string): Promise<number> {
  const before = readPairOnDemand(context.profileDir, localRoot);
  if (before === undefined) {
    context.print(`${terminalSafe(localRoot)} holds every file already (it is not on demand).`);
    return 0;
  }
  await refuseWhileRunning(context, localRoot);
  const rootId = withIndex(indexFilePath(context.profileDir, localRoot), (store) =>
    store.getMeta(META_REMOTE_ROOT),
  );
  if (rootId !== undefined) await keepAll(context, localRoot, before, rootId);
  try {
    if (rootId !== undefined) {
      const code = await runRun(context, { folder: localRoot, once: true });
      if (code !== 0) {
        throw new OnDemandError(
          'ON_DEMAND_MOVE_FAILED',
          `The pass that brings every file down did not finish (exit ${code}): nothing was changed.`,
        );
      }
    }
    await underLock(context, localRoot, () => makePairWhole(context.profileDir, localRoot, async () => {}));
  } catch (error) {
    // Kept everything only for the switch: the user's own pins are what they were.
    await updatePairOnDemand(context.profileDir, localRoot, (now) =>
      now === undefined ? undefined : { ...now, pinned: before.pinned },
    );
    throw error;
  }
  context.print(`${terminalSafe(localRoot)} holds every file again (files on demand are off).`);
  return 0;
}

/** Everything kept for the pass: the device folder of the pair pinned, beside the user's pins. */
async function keepAll(
  context: CommandContext,
  localRoot: string,
  before: PairOnDemand,
  rootId: string,
): Promise<void> {
  await updatePairOnDemand(context.profileDir, localRoot, (now) =>
    now === undefined ? undefined : { ...now, pinned: [...before.pinned, { path: '', id: rootId }] },
  );
}
