// The tray's one state for all pairs, the first of six that holds (desktop-app.md §3).
import type { AccountView, PairView } from '../../common/contract.ts';
import { assertNever } from '../../common/errors.ts';
import type { EngineState } from '../../common/sync-status.ts';

export type TrayState = 'up-to-date' | 'syncing' | 'paused' | 'offline' | 'sign-in-needed' | 'attention';

/**
 * One state for all pairs, the first that holds of:
 * 1. sign-in-needed: signed out, or any pair's sign-in expired (nothing syncs until the user acts);
 * 2. attention: any pair holds deletes, stopped on an error, or has items not synced or conflicts
 *    (PairView.issueCount): the user must look. What Issues lists quietly (left out by the client's
 *    rules, synced with a warning) is not counted, or the icon would never leave attention;
 * 3. offline: any pair cannot reach the device (it retries by itself, so it ranks below attention);
 * 4. syncing: any pair scans or syncs;
 * 5. paused: any pair is paused and the others are idle. Some paused and some idle is still "paused"
 *    (the tooltip says how many): the icon must not say "up to date" while a folder does not sync;
 * 6. up-to-date: every pair idle, or no pair yet.
 */
export function trayStateOf(account: AccountView, pairs: PairView[]): TrayState {
  if (!account.signedIn) return 'sign-in-needed';
  const states = new Set<EngineState>(pairs.map((pair) => pair.state));
  if (states.has('sign-in-needed')) return 'sign-in-needed';
  if (pairs.some(needsAttention)) return 'attention';
  if (states.has('offline')) return 'offline';
  if (states.has('syncing') || states.has('scanning')) return 'syncing';
  if (states.has('paused')) return 'paused';
  return 'up-to-date';
}

function needsAttention(pair: PairView): boolean {
  const state = pair.state;
  switch (state) {
    case 'held':
    case 'error':
      return true;
    case 'idle':
    case 'scanning':
    case 'syncing':
    case 'paused':
    case 'offline':
    case 'sign-in-needed':
      return pair.hold !== null || pair.issueCount > 0;
    default:
      return assertNever(state, 'engine state');
  }
}
