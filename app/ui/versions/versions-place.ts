// Where a pair's versions are for the window's calls: its open index and the folder its engine syncs, read while its live service runs in this process, and changed through that service between two passes; a synced file found by its path here.
import { basename, join } from 'node:path';
import type { EngineState } from '../../../common/sync-status.ts';
import { folderKey } from '../../index/index-db.ts';
import type { VersionsAction, VersionsOutcome } from '../../versions/versions-actions.ts';
import { findPairOf, type FolderPair } from '../../profile/folder-pairs.ts';
import { readPairOnDemand, syncRootOf } from '../../profile/pair-on-demand.ts';
import type { PairVersionsPlace } from '../../versions/version-restore.ts';
import type { HandlerCore } from '../handler-core.ts';
import { WindowError } from '../ui-errors.ts';

export interface VersionsTarget {
  pairId: string;
  pair: FolderPair;
  /** The pair's open index and its sync root (an on-demand pair's cache folder), to read. */
  place: PairVersionsPlace;
  /**
   * A change (restore, settle, clear) made by the pair's live service between two of its passes (a
   * pass and a change both move files and rows), followed by a pass that carries it to the device.
   */
  change(action: VersionsAction): Promise<VersionsOutcome>;
  /**
   * When what `count` changes made reaches the device, in words: now, once the user resumes a paused
   * pair, or once a pair offline, held or stopped syncs again ("It syncs to the device now.").
   */
  deviceWords(count: number): string;
  /** The path as the window shows it: below the pair's folder (an on-demand pair's mount). */
  localPath(path: string): string;
}

/**
 * The pair's versions, read with the index its live service holds open (this process's own: a second
 * connection would wait on its writes). A pair that does not run has none to show now.
 */
export function versionsTarget(core: HandlerCore, pairId: string): VersionsTarget {
  const { pair, store, service } = core.connection().pairs.selectionTarget(pairId);
  if (store === undefined || service === undefined) {
    throw new WindowError(
      'PAIR_NOT_SYNCING',
      'This folder does not sync now',
      `${pair.localRoot} is not syncing (see its state on the status view); its versions show once it syncs again.`,
    );
  }
  const root = syncRootOf(pair, readPairOnDemand(core.options.profileDir, pair.localRoot));
  return {
    pairId,
    pair,
    place: { index: store, root },
    change: (action) => service.versions(action),
    deviceWords: (count) => deviceWords(service.live.status().state, basename(pair.localRoot), count),
    localPath: (path) => join(pair.localRoot, ...path.split('/')),
  };
}

/** The pair of a synced file's path here and its path in the pair; refused outside every pair. */
export function fileTarget(core: HandlerCore, localPath: string): { target: VersionsTarget; path: string } {
  const found = findPairOf(core.connection().pairs.pairs(), localPath);
  if (found.kind !== 'inside' || found.place.relativePath === '') {
    throw new WindowError(
      'NOT_IN_SYNCED_FOLDER',
      'Not in a synced folder',
      `${localPath} is not a file in a synced folder; only synced files have versions.`,
    );
  }
  // A pair's id is the key of its folder (the manager's own).
  return {
    target: versionsTarget(core, folderKey(found.place.pair.localRoot)),
    path: found.place.relativePath,
  };
}

/** The pairs whose live service runs: a stopped one has no index open to read. */
export function runningPairIds(core: HandlerCore): string[] {
  const pairs = core.connection().pairs;
  return pairs.ids().filter((id) => {
    try {
      return pairs.selectionTarget(id).store !== undefined;
    } catch {
      // Listed while its folder is switched (files on demand turned on): not running.
      return false;
    }
  });
}

/** The states in which a running service makes no pass at once (the command line's too). */
const HELD_BACK: ReadonlySet<EngineState> = new Set(['paused', 'offline', 'sign-in-needed', 'held', 'error']);

function deviceWords(state: EngineState, name: string, count: number): string {
  const [it, syncs, goes] = count === 1 ? ['It', 'syncs', 'goes'] : ['They', 'sync', 'go'];
  if (!HELD_BACK.has(state)) return `${it} ${syncs} to the device now.`;
  if (state === 'paused')
    return `Syncing of ${name} is paused: ${it.toLowerCase()} ${goes} to the device when you resume it.`;
  return `${it} ${goes} to the device once ${name} syncs again (its status says why it does not now).`;
}
