// Contract calls about folder pairs: add and remove them, pause, resume, sync now, answer a hold, their activity and issues, and the synced items on disk.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LocalEntryView } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import { findPairOf, STATE_FOLDER_NAME } from '../../profile/folder-pairs.ts';
import { placePairInSidebars, takePairFromSidebars } from '../../integrate/sidebar-places.ts';
import { temporaryOrSystemReason } from '../../sync/local/local-names.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { openFailedError } from '../ui-errors.ts';
import { newPairPreparation } from './pair-on-demand-handlers.ts';
import { excludedAtStart } from './pair-selection-handlers.ts';
import { pauseDeadline } from '../../live-service/pause-state.ts';
import { updatePairMetered } from '../../profile/pair-metered.ts';

type Handlers = Pick<
  ContractHandlers,
  | 'pairs:list'
  | 'pairs:check'
  | 'pairs:add'
  | 'pairs:remove'
  | 'pairs:setMetered'
  | 'sync:pause'
  | 'sync:resume'
  | 'sync:now'
  | 'sync:confirmDeletes'
  | 'sync:restore'
  | 'activity:list'
  | 'issues:list'
  | 'local:browse'
  | 'shell:openPath'
  | 'shell:showItem'
  | 'shell:openUrl'
>;

export class LocalPathError extends MchError {
  constructor(message: string) {
    super('NOT_IN_SYNCED_FOLDER', 'Not in a synced folder', message);
  }
}

/** A sidebar place that could not change is logged; the pair is added or removed either way. */
function sidebarWarning(core: HandlerCore): (message: string) => void {
  return (message) => core.log('warn', message);
}

export function pairHandlers(core: HandlerCore): Handlers {
  const pairs = (): ReturnType<HandlerCore['connection']>['pairs'] => core.connection().pairs;
  return {
    // Asked while the pairs restart, both lists wait for them: an empty answer would stay in the window.
    'pairs:list': async () => {
      await core.pairsSettled();
      return core.pairViews();
    },
    'pairs:check': ({ localRoot, remoteFolder }) => pairs().check(localRoot, remoteFolder),
    'pairs:add': async ({ localRoot, remoteFolder, excluded, onDemand }) => {
      const left = await excludedAtStart(core, remoteFolder, excluded ?? []);
      const prepare = newPairPreparation(core, { excluded: left, onDemand: onDemand === true });
      const added = await pairs().add(localRoot, remoteFolder, prepare);
      // In the file managers' sidebars where `integrate --install` (or the entries' switch) put the others.
      await placePairInSidebars(core.options.profileDir, added.localRoot, sidebarWarning(core));
      return added;
    },
    'pairs:remove': async ({ pairId, keepLocalFiles }) => {
      const { localRoot } = pairs().view(pairId);
      await pairs().remove(pairId, keepLocalFiles);
      await takePairFromSidebars(core.options.profileDir, localRoot, sidebarWarning(core));
      core.emit('pairs:changed', core.pairViews());
      return {};
    },
    // Kept in the pair's record (its next start reads it), then told to its running service.
    'pairs:setMetered': async ({ pairId, onMetered }) => {
      const { pair, service } = pairs().selectionTarget(pairId);
      await updatePairMetered(core.options.profileDir, pair.localRoot, onMetered);
      service?.syncOnMetered?.(onMetered === 'sync');
      return core.pairViews();
    },
    'sync:pause': ({ pairId, for: length }) => {
      // The end is fixed now, for every pair alike; `1h` and `tomorrow` always read (the schema has only them).
      const untilMs = length === undefined ? null : (pauseDeadline(length, Date.now()) ?? null);
      return control(core, pairId, (live) => live.pause(untilMs));
    },
    'sync:resume': ({ pairId }) => control(core, pairId, (live) => live.resume()),
    // A pair that could not start because its folder was busy or missing tries again at once.
    'sync:now': async ({ pairId }) => {
      await pairs().retry(pairId);
      return control(core, pairId, (live) => live.syncNow());
    },
    'sync:confirmDeletes': ({ pairId, reason }) =>
      Promise.resolve(pairs().answer(pairId, 'confirm-deletes', reason)),
    'sync:restore': ({ pairId, reason }) => Promise.resolve(pairs().answer(pairId, 'restore', reason)),
    // Kept by the core, so a restart of the pairs (a setting saved, a sign-in) does not empty it.
    'activity:list': ({ pairId }) => Promise.resolve(core.history.activity(pairId)),
    'issues:list': async ({ pairId }) => {
      await core.pairsSettled();
      return core.isConnected() ? pairs().issues(pairId) : [];
    },
    'local:browse': ({ path }) => Promise.resolve(browse(core, path)),
    'shell:openPath': async ({ path }) => {
      await open(core, syncedPath(core, path), 'item');
      return {};
    },
    // A file manager has no portable "select this file": its folder is opened.
    'shell:showItem': async ({ path }) => {
      const checked = syncedPath(core, path);
      const inside = findPairOf(pairs().pairs(), checked);
      const folder =
        inside.kind === 'inside' && inside.place.relativePath === '' ? checked : dirname(checked);
      await open(core, folder, 'item');
      return {};
    },
    'shell:openUrl': async ({ url }) => {
      await open(core, url, 'link');
      return {};
    },
  };
}

/** The system's opener, its failure in words: where the item is, so the person can open it themselves. */
async function open(core: HandlerCore, target: string, kind: 'item' | 'link'): Promise<void> {
  try {
    await core.options.openExternal(target);
  } catch (error) {
    core.log('warn', `${target} was not opened: ${error instanceof Error ? error.message : String(error)}`);
    throw openFailedError(target, kind, error);
  }
}

async function control(
  core: HandlerCore,
  pairId: string | null,
  action: Parameters<ReturnType<HandlerCore['connection']>['pairs']['control']>[1],
): Promise<ReturnType<HandlerCore['pairViews']>> {
  core.connection().pairs.control(pairId, action);
  return Promise.resolve(core.pairViews());
}

/**
 * Only paths in a synced folder (and not its state folder) are opened or listed: the window (or a page
 * that reached the host) must not open or list anything else on this computer.
 */
function syncedPath(core: HandlerCore, path: string): string {
  const found = findPairOf(core.connection().pairs.pairs(), path);
  if (found.kind !== 'inside') {
    throw new LocalPathError(`${path} is not in a synced folder; only synced items are opened from here.`);
  }
  return found.place.relativePath === ''
    ? found.place.pair.localRoot
    : join(found.place.pair.localRoot, ...found.place.relativePath.split('/'));
}

function browse(core: HandlerCore, path: string | null): LocalEntryView[] {
  if (path === null) {
    return core
      .connection()
      .pairs.pairs()
      .map((pair) => ({ name: pair.localRoot, path: pair.localRoot, isFolder: true }));
  }
  const folder = syncedPath(core, path);
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw new LocalPathError(
      `${folder} cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  // What is never synced (the client's own folder, system and temporary files) has no link to make.
  return entries
    .filter(
      (entry) =>
        entry.name !== STATE_FOLDER_NAME &&
        temporaryOrSystemReason(entry.name) === undefined &&
        (entry.isFile() || entry.isDirectory()),
    )
    .map((entry) => ({ name: entry.name, path: join(folder, entry.name), isFolder: entry.isDirectory() }))
    .sort((a, b) => (a.isFolder === b.isFolder ? a.name.localeCompare(b.name) : a.isFolder ? -1 : 1));
}
