// What the window's core does for the file manager's entries (the state socket's `act`): the window's own calls for selective sync, pins for files on demand, and the window shown at the item.
import type { InvokeName, InvokeRequest } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import type { FileStateAction, FileStateAnswer } from '../../../common/file-state.ts';
import type { WindowRoute } from '../../../common/window-route.ts';
import { StateError } from '../../file-state/state-errors.ts';
import type { StateActions } from '../../file-state/state-service.ts';
import { folderKey } from '../../index/index-db.ts';
import { findPairOf, type PlaceInPair } from '../../profile/folder-pairs.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { dispatch, type ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { freeItems, pinItems, unpinItems } from './pin-actions.ts';

/** What the actions use of the core: its calls, its pairs, its host's window. */
export type StateActionCore = Pick<HandlerCore, 'options' | 'connection'> & { handlers: ContractHandlers };

/**
 * The core's actions. `stateOf` is the state service's own answer for a path: "Why is this not
 * synced?" on a folder goes to the item below it that makes it so (`from`).
 */
export function windowStateActions(
  core: StateActionCore,
  stateOf: (path: string) => FileStateAnswer | undefined,
): StateActions {
  return async (action: FileStateAction, paths: readonly string[]): Promise<string> => {
    switch (action) {
      case 'pin':
        return pinItems(core, placesOf(core, paths));
      case 'unpin':
        return unpinItems(core, placesOf(core, paths));
      case 'free':
        return freeItems(core, placesOf(core, paths));
      case 'include':
      case 'exclude': {
        const words: string[] = [];
        for (const place of placesOf(core, paths)) words.push(await changeSelection(core, place, action));
        return words.join('\n');
      }
      case 'show': {
        const [path = ''] = paths;
        await showWindow(core, { view: 'status', item: path });
        return `The window shows the folder of ${path}.`;
      }
      case 'why': {
        const [path = ''] = paths;
        const item = stateOf(path)?.from ?? path;
        await showWindow(core, { view: 'issues', item });
        return `The window shows why ${item} is not synced.`;
      }
    }
  };
}

/** Each path's pair and its place in it; the state service let through only paths of served pairs. */
function placesOf(core: StateActionCore, paths: readonly string[]): PlaceInPair[] {
  const pairs = core.connection().pairs.pairs();
  return paths.map((path) => {
    const found = findPairOf(pairs, path);
    if (found.kind !== 'inside') {
      throw new StateError('STATE_NOT_SERVED', `${path} is not in a folder this window syncs.`);
    }
    return found.place;
  });
}

/**
 * "Sync this folder" and "Stop syncing this folder" as the window's folder tree does them
 * (`selection:set`); stopping removes the copy here once all of it is synced, as `mch-sync exclude
 * --remove-local` does: the entry is for a folder one no longer wants on this computer.
 */
async function changeSelection(
  core: StateActionCore,
  place: PlaceInPair,
  action: 'include' | 'exclude',
): Promise<string> {
  const { pair, relativePath: path } = place;
  const excluded = readPairSelection(core.options.profileDir, pair.localRoot).excluded;
  const isExcluded = excluded.some((folder) => folder.path === path);
  if (action === 'exclude' && isExcluded) return `${path} is not synced already; nothing changed.`;
  const pairId = folderKey(pair.localRoot);
  if (action === 'include') {
    await call(core, 'selection:set', { pairId, path, include: true, localCopy: null });
    return `${path} is synced to this computer again: it comes down now.`;
  }
  await call(core, 'selection:set', { pairId, path, include: false, localCopy: 'remove' });
  return `${path} is no longer synced to this computer and stays on the device; its copy here goes to the trash once everything in it is synced.`;
}

/** One of the window's calls, its failure in the window's words. */
async function call<N extends InvokeName>(
  core: StateActionCore,
  name: N,
  request: InvokeRequest<N>,
): Promise<void> {
  const result = await dispatch(core.handlers, name, request);
  if (!result.ok) {
    throw new StateError('STATE_ACTION_FAILED', result.error.message, { cause: result.error });
  }
}

async function showWindow(core: StateActionCore, route: WindowRoute): Promise<void> {
  const show = core.options.showWindow;
  if (show === undefined) {
    throw new StateError(
      'STATE_NO_WINDOW',
      'This mch-sync has no window to show: open the app or `mch-sync ui`.',
    );
  }
  try {
    await show(route);
  } catch (error) {
    if (error instanceof MchError) throw error;
    throw new StateError(
      'STATE_NO_WINDOW',
      `The window could not be shown (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
}
