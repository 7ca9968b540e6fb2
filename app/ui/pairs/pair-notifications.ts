// The notifications a pair's changes make (desktop-app.md §5): conflicts kept, deletes held, sign-in needed, a folder that stopped; and the words of a grouped burst.
import type { ActivityView, PairView } from '../../../common/contract.ts';
import { originalPathOfConflictedCopy } from '../../sync/plan/conflict-names.ts';
import type { NotificationInput } from '../notification-grouper.ts';

/** One per conflict among new activity: the grouper makes a burst of them one. */
export function conflictNotifications(pairId: string, added: readonly ActivityView[]): NotificationInput[] {
  return added
    .filter((entry) => entry.kind === 'conflict')
    .map((entry) => ({
      kind: 'conflict',
      title: 'Both versions kept',
      body: `${originalPathOfConflictedCopy(entry.path)}: changed here and on the device; both copies are kept.`,
      view: 'issues',
      pairId,
    }));
}

/** What a pair's new state tells, if anything (held, sign-in needed, stopped). */
export function stateNotification(view: PairView): NotificationInput | null {
  if (view.state === 'held') {
    return {
      kind: 'held-deletes',
      title: 'Deletes wait for you',
      body: view.detail ?? `${view.localRoot}: deletes wait for your choice.`,
      view: 'issues',
      pairId: view.id,
    };
  }
  if (view.state === 'sign-in-needed') {
    return {
      kind: 'sign-in-needed',
      title: 'Sign in again',
      body: view.detail ?? '',
      view: 'settings',
      pairId: null,
    };
  }
  if (view.state === 'error') {
    return {
      kind: 'folder-stopped',
      title: 'A folder stopped syncing',
      body: `${view.localRoot}: ${view.detail ?? 'see the status'}`,
      view: 'status',
      pairId: view.id,
    };
  }
  return null;
}

export function summarizeNotifications(last: NotificationInput, count: number): NotificationInput {
  if (last.kind === 'conflict') {
    return {
      ...last,
      title: `${count} conflicts`,
      body: 'Each was changed here and on the device; both copies are kept.',
    };
  }
  return { ...last, title: `${last.title} (${count})` };
}
