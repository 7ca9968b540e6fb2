// An on-demand pair's placeholders of items it keeps here (pinned, or below a pinned folder) planned to come down whole.
import type { OnDemandPolicy } from '../engine-options.ts';
import type { Operation } from '../plan/operations.ts';
import type { ReconciledItem, ReconcileInput } from '../plan/reconcile.ts';

/**
 * The downloads of the kept placeholders whose content is as the index has it on both sides (the
 * download the plan would make of a new file, last in the plan: after the round's moves, so a
 * placeholder moved on one side comes down where the move put it; issue 30's model, seed 188), and
 * whether one had to wait (moved on both sides): the next pass must then plan rather than end quiet.
 */
export function keptPlaceholders(
  items: readonly ReconciledItem[],
  placeholders: ReadonlySet<string>,
  onDemand: OnDemandPolicy,
  remote: ReconcileInput['remote'],
  remoteRootId: string,
): { operations: Operation[]; deferred: boolean } {
  const parentOf = (id: string): string | undefined => {
    const parent = remote.get(id)?.parentId;
    return parent === remoteRootId ? undefined : parent;
  };
  const operations: Operation[] = [];
  let deferred = false;
  for (const item of items) {
    const { local, remote: found } = item;
    if (local === null || found === null || !placeholders.has(local.inode)) continue;
    if (!onDemand.keepsContent(found, parentOf)) continue;
    const { localChange, remoteChange } = item;
    const movedHere = localChange === 'moved';
    const movedThere = remoteChange === 'moved';
    if ((localChange !== 'none' && !movedHere) || (remoteChange !== 'none' && !movedThere)) continue;
    if (movedHere && movedThere) {
      deferred = true;
      continue;
    }
    // Where the file is once the round's moves are made: a move here stays, one there is made here.
    const path = movedThere ? found.path : local.path;
    operations.push({ op: 'download-content', path, remote: found, expected: local, reason: 'sync' });
  }
  return { operations, deferred };
}
