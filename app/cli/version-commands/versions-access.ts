// A pair's versions as the commands reach them: read from its index (beside a running live sync too), changed through the live sync when it runs, else under the pair's lock.
import { existsSync } from 'node:fs';
import { assertNever, BugError } from '../../../common/errors.ts';
import type { EngineState } from '../../../common/sync-status.ts';
import { openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { askService } from '../../live-service/control-client.ts';
import { ServiceRefusalError } from '../../live-service/control-errors.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import {
  carryOutVersions,
  type VersionsAction,
  type VersionsOutcome,
} from '../../versions/versions-actions.ts';
import { acquireFolderLock, folderLockPath } from '../../profile/folder-lock.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { PairVersionsPlace } from '../../versions/version-restore.ts';
import { VersionsError } from '../../versions/versions-errors.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import type { VersionsPair } from './versions-place.ts';
import { shellWord } from './versions-words.ts';

/**
 * Runs `read` on the pair's versions; undefined when the pair was never synced (it has no index, and
 * none is made). The index is read in WAL mode: a live sync writing it meanwhile is no obstacle.
 */
export async function readVersions<T>(
  pair: VersionsPair,
  read: (place: PairVersionsPlace) => T | Promise<T>,
): Promise<T | undefined> {
  if (!existsSync(pair.pair.indexPath)) return undefined;
  const db = openIndexDb(pair.pair.indexPath);
  try {
    return await read({ index: new IndexStore(db), root: pair.syncRoot });
  } finally {
    db.close();
  }
}

export interface VersionsChange {
  outcome: VersionsOutcome;
  /** Carried out by the pair's running live sync, which asks for a pass at once. */
  running: boolean;
  /** How it reaches the device. */
  way: SyncWay;
}

/** How a change reaches the device: now (live sync's pass), once live sync can, or at the next run. */
export type SyncWay = { kind: 'now' } | { kind: 'waiting'; state: EngineState } | { kind: 'next-run' };

/** States in which a running live sync does not pass at once: paused, or waiting for the device or the user. */
const HELD_BACK: ReadonlySet<EngineState> = new Set(['paused', 'offline', 'sign-in-needed', 'held', 'error']);

/** The words of `way` for the pair of `folder`. */
export function syncWords(folder: string, way: SyncWay): string {
  const shown = terminalSafe(folder);
  switch (way.kind) {
    case 'now':
      return `Live sync of ${shown} is carrying it to the device now.`;
    case 'waiting':
      return way.state === 'paused'
        ? `Live sync of ${shown} is paused: it goes to the device once you resume it (\`mch-sync resume --folder ${shellWord(folder)}\`).`
        : `Live sync of ${shown} sends it at its next pass; it is ${way.state} now (\`mch-sync status --folder ${shellWord(folder)}\` says why).`;
    case 'next-run':
      return `It goes to the device at the next sync of ${shown} (\`mch-sync run --folder ${shellWord(folder)} --once\`, or live sync).`;
    default:
      return assertNever(way, 'sync way');
  }
}

/** The outcome of the kind asked for (a service answering another is a bug). */
export function outcomeOf<K extends VersionsOutcome['kind']>(
  change: VersionsChange,
  kind: K,
): Extract<VersionsOutcome, { kind: K }> {
  if (change.outcome.kind !== kind) {
    throw new BugError(`A versions request for ${kind} was answered with ${change.outcome.kind}.`);
  }
  return change.outcome as Extract<VersionsOutcome, { kind: K }>;
}

/** A restore waits for the pass under way; a big folder's restore moves many files. */
const CHANGE_TIMEOUT_MS = 10 * 60_000;

/**
 * Carries out `action`: through the pair's live sync when it runs (between two passes, then a pass),
 * else here under the pair's lock, so no pass runs meanwhile (FOLDER_BUSY names a `run --once` that
 * holds it). Bad input throws with nothing changed.
 */
export async function changeVersions(
  context: CommandContext,
  pair: VersionsPair,
  action: VersionsAction,
): Promise<VersionsChange> {
  const signal = context.deps.signal;
  const answer = await askService(
    controlSocketPath(context.profileDir, pair.pair.localRoot),
    // Its turn may wait for a pass under way: should this command stop waiting, the service drops it.
    { op: 'versions', action, keepsOpen: true },
    { timeoutMs: CHANGE_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) },
  );
  if (answer !== undefined) {
    if (!answer.ok) throw new ServiceRefusalError(answer.error);
    if (answer.versions === undefined) {
      throw new ServiceRefusalError({
        code: 'CONTROL_BAD_ANSWER',
        message:
          'The live sync service answered without saying what it did: is it another version of mch-sync?',
      });
    }
    const state = answer.status.state;
    const way: SyncWay = HELD_BACK.has(state) ? { kind: 'waiting', state } : { kind: 'now' };
    return { outcome: answer.versions, running: true, way };
  }
  const lock = acquireFolderLock(folderLockPath(context.profileDir, pair.pair.localRoot), {
    folder: pair.pair.localRoot,
    profile: context.profileDir,
  });
  try {
    const outcome = await readVersions(pair, (place) => carryOutVersions(place, action));
    return { outcome: outcome ?? neverSynced(pair, action), running: false, way: { kind: 'next-run' } };
  } finally {
    lock.release();
  }
}

/** A pair with no index keeps nothing: each action's own refusal, or nothing cleared. */
function neverSynced(pair: VersionsPair, action: VersionsAction): VersionsOutcome {
  const folder = terminalSafe(pair.pair.localRoot);
  switch (action.kind) {
    case 'clear':
      return { kind: 'cleared', count: 0, bytes: 0 };
    case 'restore':
      throw new VersionsError('VERSION_NOT_FOUND', `${folder} was never synced: no versions are kept.`);
    case 'restore-deleted':
    case 'restore-since':
      throw new VersionsError('NOTHING_DELETED', `${folder} was never synced: nothing deleted is kept.`);
    case 'resolve':
      throw new VersionsError('NOT_A_CONFLICT', `${folder} was never synced: it has no conflicts.`);
    default:
      return assertNever(action, 'versions action');
  }
}
