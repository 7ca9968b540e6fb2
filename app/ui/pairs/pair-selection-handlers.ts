// Contract calls of selective sync: a pair's device folder tree (and a new pair's, before it is made), a folder included or left out, the threshold for new folders; a change asks the pair's live service for a pass at once.
import type { PairView, SelectionFolderView } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import { EMPTY_SELECTION, isAtOrBelow, type ExcludedFolder } from '../../model/selection.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { excludeFolder, includeFolder, setAskOver } from '../../selection/selection-change.ts';
import { findDeviceFolder, selectionChildren, type SelectionFolder } from '../../selection/selection-tree.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { WindowError } from '../ui-errors.ts';

type Handlers = Pick<
  ContractHandlers,
  'selection:list' | 'selection:preview' | 'selection:set' | 'selection:askOver'
>;

export function pairSelectionHandlers(core: HandlerCore): Handlers {
  const pairs = (): ReturnType<HandlerCore['connection']>['pairs'] => core.connection().pairs;
  const client = (): DeviceClient => core.connection().client;
  const profileDir = core.options.profileDir;
  return {
    'selection:list': async ({ pairId, path }) => {
      const { pair, store: index } = pairs().selectionTarget(pairId);
      const selection = readPairSelection(profileDir, pair.localRoot);
      return (await selectionChildren(client(), pair, selection, path, index)).map(folderView);
    },
    'selection:preview': async ({ remoteFolder, excluded, path }) => {
      // No ids before the pair is made: the folders left out are matched by path (stateOf does both).
      const selection = {
        ...EMPTY_SELECTION,
        excluded: excluded.map((left): ExcludedFolder => ({ path: left, id: '', localCopy: 'keep' })),
      };
      try {
        return (await selectionChildren(client(), { remoteFolder }, selection, path)).map(folderView);
      } catch (error) {
        throw path === '' ? notThereYet(error, remoteFolder) : error;
      }
    },
    'selection:set': async (change) => {
      const { pair } = pairs().selectionTarget(change.pairId);
      const outcome = change.include
        ? await includeFolder(client(), profileDir, pair, change.path)
        : await excludeFolder(client(), profileDir, pair, change.path, change.localCopy);
      // The engine takes the selection at the start of a pass: one now, not at the next poll.
      if (outcome.changed) pairs().control(change.pairId, (live) => live.syncNow());
      return changed(core, change.pairId);
    },
    'selection:askOver': async ({ pairId, bytes }) => {
      const { pair } = pairs().selectionTarget(pairId);
      await setAskOver(profileDir, pair, { bytes });
      return changed(core, pairId);
    },
  };
}

/**
 * The device folders a new pair leaves out from its first pass, found on the device (each must be a
 * folder below `remoteFolder`): refused before anything is recorded, as a change of a pair's is.
 */
export async function excludedAtStart(
  core: HandlerCore,
  remoteFolder: string,
  paths: readonly string[],
): Promise<ExcludedFolder[]> {
  const client = core.connection().client;
  const excluded: ExcludedFolder[] = [];
  for (const path of new Set(paths)) {
    // A folder inside one already left out adds nothing (its parent takes it along).
    if (paths.some((other) => other !== path && isAtOrBelow(path, other))) continue;
    const folder = await findDeviceFolder(client, remoteFolder, path);
    // Nothing of it is here yet to remove: whatever is in the folder of that name stays, unsynced.
    excluded.push({ path, id: folder.id, localCopy: 'keep' });
  }
  return excluded;
}

/** The pair's view after a change, told to every listener too (the tray, another window). */
function changed(core: HandlerCore, pairId: string): PairView {
  const view = core.connection().pairs.view(pairId);
  core.emit('pairs:changed', core.pairViews());
  return view;
}

function folderView(folder: SelectionFolder): SelectionFolderView {
  const { path, name, id, state, bytes, files } = folder;
  return { path, name, id, state, bytes, files };
}

/** A device folder a new pair would make: there is nothing in it to choose yet, said so. */
function notThereYet(error: unknown, remoteFolder: string): unknown {
  if (!(error instanceof MchError) || error.code !== 'SELECTION_PATH_MISSING') return error;
  return new WindowError(
    'SELECTION_PATH_MISSING',
    'Not on the device yet',
    `${remoteFolder} is not on the device yet: it is made when syncing starts, with what your folder holds. There is nothing in it to choose.`,
    { details: error.message },
  );
}
