// An on-demand pair's placeholders of items it keeps here (pinned, or below a pinned folder) planned to come down whole.
import { nameKey } from '../../model/items.ts';
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
  // Nothing kept (no pins): nothing to bring down, nothing to wait for.
  if (onDemand.keptVersion?.() === '') return { operations: [], deferred: false };
  // Folders by their path here: where a placeholder moved here now is, on the device once moved there.
  const folders = new Map<string, string>();
  for (const { local, remote: found } of items) {
    if (local?.kind === 'folder' && found !== null) folders.set(nameKey(local.path), found.id);
  }
  const operations: Operation[] = [];
  let deferred = false;
  for (const item of items) {
    const { local, remote: found, localChange, remoteChange } = item;
    if (local === null || found === null || !placeholders.has(local.inode)) continue;
    const movedHere = localChange === 'moved';
    const movedThere = remoteChange === 'moved';
    if ((localChange !== 'none' && !movedHere) || (remoteChange !== 'none' && !movedThere)) continue;
    // Kept where it is going: a move here puts it below the folder it went to (seed 685), a move there
    // below the device's; moved both ways, either may win (seed 421), so another round decides.
    const slash = local.path.lastIndexOf('/');
    const newParent = slash < 0 ? remoteRootId : folders.get(nameKey(local.path.slice(0, slash)));
    if (movedHere && newParent === undefined) {
      // Into a folder made this round: the next round knows its id.
      deferred = true;
      continue;
    }
    const here = (id: string): string | undefined =>
      id === found.id ? (newParent === remoteRootId ? undefined : newParent) : parentOf(id);
    const keptHere = movedHere && onDemand.keepsContent(found, here);
    const keptThere = (!movedHere || movedThere) && onDemand.keepsContent(found, parentOf);
    if (!keptHere && !keptThere) continue;
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
