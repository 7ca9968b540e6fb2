// Contract calls of files on demand: whether this computer can have them, a pair turned on demand (its service stopped, its files moved by one rename, started again) or off again (every file downloaded first), its cache limit; and a new pair's preparation before its first pass.
import type { PairView } from '../../../common/contract.ts';
import { makePairOnDemand, onDemandUnavailable } from '../../on-demand/on-demand-pair.ts';
import type { ExcludedFolder } from '../../model/selection.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import { readPairOnDemand, updatePairOnDemand } from '../../profile/pair-on-demand.ts';
import { updatePairSelection } from '../../profile/pair-selection.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { WindowError } from '../ui-errors.ts';
import { onDemandSupport } from './on-demand-views.ts';
import type { StoppedWork } from './pair-start.ts';
import { makeWholeWithPass } from './whole-pair-pass.ts';

type Handlers = Pick<
  ContractHandlers,
  'onDemand:support' | 'onDemand:turnOn' | 'onDemand:turnOff' | 'onDemand:cacheLimit'
>;

/** What the calls use of app/on-demand/: the real functions, or a test's. */
export interface OnDemandOps {
  /** Why files on demand cannot work here; undefined when they can. */
  unavailable: () => string | undefined;
  /** Makes the recorded pair of `localRoot` on demand (its service stopped, its folder locked). */
  make: (profileDir: string, localRoot: string) => Promise<unknown>;
  /** Makes the on-demand pair whole: every file downloaded, then moved back (its service stopped). */
  makeWhole: StoppedWork;
}

export const ON_DEMAND_OPS: OnDemandOps = {
  unavailable: onDemandUnavailable,
  make: makePairOnDemand,
  makeWhole: makeWholeWithPass,
};

export function pairOnDemandHandlers(core: HandlerCore, ops: OnDemandOps = ON_DEMAND_OPS): Handlers {
  const pairs = (): ReturnType<HandlerCore['connection']>['pairs'] => core.connection().pairs;
  const profileDir = core.options.profileDir;
  return {
    'onDemand:support': () => Promise.resolve(onDemandSupport(ops.unavailable())),
    'onDemand:turnOn': async ({ pairId }) => {
      const manager = pairs();
      const { pair } = manager.selectionTarget(pairId);
      // Asked twice (two windows): the second finds it done.
      if (readPairOnDemand(profileDir, pair.localRoot) !== undefined) return changed(core, pairId);
      refuseUnavailable(ops);
      // The service starts again whatever happened: on a failure the folder is as it was, whole files.
      await switchStopped(core, pairId, 'Turning on files on demand…', async () => {
        await ops.make(profileDir, pair.localRoot);
      });
      return changed(core, pairId);
    },
    'onDemand:turnOff': async ({ pairId }) => {
      const { pair } = pairs().selectionTarget(pairId);
      // Asked twice (two windows): the second finds it done.
      if (readPairOnDemand(profileDir, pair.localRoot) === undefined) return changed(core, pairId);
      // Started again whatever happened: on demand as before when anything was left only on the device.
      await switchStopped(core, pairId, 'Turning off files on demand…', ops.makeWhole);
      return changed(core, pairId);
    },
    'onDemand:cacheLimit': async ({ pairId, bytes }) => {
      const { pair } = pairs().selectionTarget(pairId);
      await updatePairOnDemand(profileDir, pair.localRoot, (before) => {
        if (before === undefined) {
          throw new WindowError(
            'ON_DEMAND_OFF',
            'Files on demand are off',
            `${pair.localRoot} keeps every file on this computer: it has no cache limit.`,
          );
        }
        return { ...before, cacheLimitBytes: bytes };
      });
      // The limit is applied after each pass (app/on-demand/on-demand-upkeep.ts): one now.
      pairs().control(pairId, (live) => live.syncNow());
      return changed(core, pairId);
    },
  };
}

/**
 * What a new pair needs before its first pass (the manager runs it under the folder's lock, and forgets
 * the pair if it fails): its device folders left out, or its files on demand (what the folder holds
 * moves into the cache folder, nothing copied).
 */
export function newPairPreparation(
  core: HandlerCore,
  choice: { excluded: ExcludedFolder[]; onDemand: boolean },
  ops: OnDemandOps = ON_DEMAND_OPS,
): ((pair: FolderPair) => Promise<void>) | undefined {
  const { excluded, onDemand } = choice;
  if (excluded.length === 0 && !onDemand) return undefined;
  // Refused before anything is recorded.
  if (onDemand) refuseUnavailable(ops);
  const profileDir = core.options.profileDir;
  return async (pair) => {
    if (excluded.length > 0)
      await updatePairSelection(profileDir, pair.localRoot, (before) => ({ ...before, excluded }));
    if (onDemand) await ops.make(profileDir, pair.localRoot);
  };
}

function refuseUnavailable(ops: OnDemandOps): void {
  const support = onDemandSupport(ops.unavailable());
  if (!support.available) {
    throw new WindowError(
      'ON_DEMAND_UNAVAILABLE',
      'Files on demand are not available here',
      support.reason ?? 'Use Choose folders instead.',
    );
  }
}

/**
 * Runs `work` with the pair's service stopped (the manager's whileStopped), the pair listed as busy in
 * `words` meanwhile: stopping waits for a pass under way, and the card must not vanish.
 */
async function switchStopped(
  core: HandlerCore,
  pairId: string,
  words: string,
  work: StoppedWork,
): Promise<void> {
  const manager = core.connection().pairs;
  const during: PairView = {
    ...manager.view(pairId),
    state: 'scanning',
    words,
    detail: null,
    progress: null,
  };
  const switched = manager.whileStopped(pairId, during, work);
  // Listed as `during` from the call on (whileStopped says so before it waits for anything).
  core.emit('pairs:changed', core.pairViews());
  await switched;
}

/** The pair's view after a change, told to every listener too (the tray, another window). */
function changed(core: HandlerCore, pairId: string): PairView {
  const view = core.connection().pairs.view(pairId);
  core.emit('pairs:changed', core.pairViews());
  return view;
}
