// A pair's state in words for the window's card and the tray: the engine state, and beside it what needs the user, so "Up to date" is never said alone over a conflict.
import { assertNever } from '../../../common/errors.ts';
import type { EngineState } from '../../../common/sync-status.ts';

/** The engine state alone, in a few words. */
export function stateWords(state: EngineState): string {
  switch (state) {
    case 'idle':
      return 'Up to date';
    case 'scanning':
      return 'Looking for changes';
    case 'syncing':
      return 'Syncing';
    case 'paused':
      return 'Paused';
    case 'offline':
      return 'Device not reachable';
    case 'sign-in-needed':
      return 'Sign in needed';
    case 'held':
      return 'Waiting for you';
    case 'error':
      return 'Stopped';
    default:
      return assertNever(state, 'engine state');
  }
}

/**
 * "Up to date · 1 new folder waiting · 1 conflict · 2 not synced": the state, then the new device
 * folders waiting for an answer (selective sync), the conflicts and the items not synced (retried or
 * failed). Items Issues lists quietly (left out by the rules, synced with a warning) are not "not
 * synced". A hold says "Waiting for you" itself.
 */
export function pairWords(
  state: EngineState,
  counts: { conflicts: number; unsynced: number; waitingFolders?: number; pause?: string },
): string {
  // A pause says how long it lasts, or why ("Paused until 14:30", "Paused: metered network").
  const parts = [state === 'paused' && counts.pause !== undefined ? counts.pause : stateWords(state)];
  const waiting = counts.waitingFolders ?? 0;
  if (waiting > 0) parts.push(`${waiting} new ${waiting === 1 ? 'folder' : 'folders'} waiting`);
  if (counts.conflicts > 0)
    parts.push(`${counts.conflicts} ${counts.conflicts === 1 ? 'conflict' : 'conflicts'}`);
  if (counts.unsynced > 0) parts.push(`${counts.unsynced} not synced`);
  return parts.join(' · ');
}
