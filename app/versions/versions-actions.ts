// A versions request carried out on a pair's versions (restore, restore deleted, resolve, clear): by its live service, or by the command under the pair's lock when none runs.
import { assertNever } from '../../common/errors.ts';
import { resolveConflict, type ConflictEntry } from './conflict-list.ts';
import {
  restoreDeleted,
  restoreVersion,
  type PairVersionsPlace,
  type RestoreResult,
} from './version-restore.ts';
import { VersionStore } from '../sync/versions/version-store.ts';

/** What a command asks of a pair's versions; paths are relative to the pair, `to` is absolute. */
export type VersionsAction =
  | { kind: 'restore'; path: string; number?: number; to?: string }
  | { kind: 'restore-deleted'; path: string }
  | { kind: 'restore-since'; sinceMs: number; folder: string }
  | { kind: 'resolve'; path: string; keep: 'this' | 'device' | 'both' }
  | { kind: 'clear' };

/** What it did. */
export type VersionsOutcome =
  | { kind: 'restored'; restored: RestoreResult }
  | { kind: 'restored-deleted'; restored: RestoreResult[]; skipped: { path: string; reason: string }[] }
  | { kind: 'resolved'; keep: 'this' | 'device' | 'both'; conflict: ConflictEntry }
  | { kind: 'cleared'; count: number; bytes: number };

/**
 * Carries out `action` on the versions of the pair at `place`. The caller holds the pair: its live
 * service between two passes, or the pair's lock. Bad input throws a VersionsError, nothing changed.
 */
export async function carryOutVersions(
  place: PairVersionsPlace,
  action: VersionsAction,
): Promise<VersionsOutcome> {
  switch (action.kind) {
    case 'restore': {
      const options = {
        ...(action.number === undefined ? {} : { number: action.number }),
        ...(action.to === undefined ? {} : { to: action.to }),
      };
      return { kind: 'restored', restored: await restoreVersion(place, action.path, options) };
    }
    case 'restore-deleted':
      return { kind: 'restored-deleted', ...(await restoreDeleted(place, { path: action.path })) };
    case 'restore-since':
      return {
        kind: 'restored-deleted',
        ...(await restoreDeleted(place, { sinceMs: action.sinceMs, folder: action.folder })),
      };
    case 'resolve':
      return {
        kind: 'resolved',
        keep: action.keep,
        conflict: await resolveConflict(place, action.path, action.keep),
      };
    case 'clear':
      return { kind: 'cleared', ...(await clearVersions(place)) };
    default:
      return assertNever(action, 'versions action');
  }
}

/** Every kept version of the pair removed, content and row: the versions folder emptied. */
async function clearVersions(place: PairVersionsPlace): Promise<{ count: number; bytes: number }> {
  const store = new VersionStore(place.root, place.index.versions);
  // Read whole first: rows are deleted as the walk goes, which one open statement would not allow.
  const rows = [...place.index.versions.kept()];
  let bytes = 0;
  for (const row of rows) {
    await store.remove(row);
    bytes += row.size;
  }
  return { count: rows.length, bytes };
}

/** Whether the outcome changed the folder: a pass must carry it to the device. */
export function changesFolder(outcome: VersionsOutcome): boolean {
  switch (outcome.kind) {
    case 'restored':
      return true;
    case 'restored-deleted':
      return outcome.restored.length > 0;
    case 'resolved':
      return outcome.keep !== 'both';
    case 'cleared':
      return false;
    default:
      return assertNever(outcome, 'versions outcome');
  }
}

/** One line for the service's log. */
export function versionsLogLine(outcome: VersionsOutcome): string {
  switch (outcome.kind) {
    case 'restored':
      return `restored version ${outcome.restored.number} of ${outcome.restored.path} to ${outcome.restored.restoredTo}`;
    case 'restored-deleted':
      return `restored ${outcome.restored.length} deleted files (${outcome.skipped.length} left: something is there)`;
    case 'resolved':
      return `conflict of ${outcome.conflict.originalPath} settled: kept ${outcome.keep}`;
    case 'cleared':
      return `versions cleared: ${outcome.count} removed (${outcome.bytes} bytes)`;
    default:
      return assertNever(outcome, 'versions outcome');
  }
}
