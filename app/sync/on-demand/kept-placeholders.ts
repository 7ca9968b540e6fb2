// An on-demand pair's placeholders of items it keeps here (pinned, or below a pinned folder) planned to come down whole.
import { nameKey, type RemoteEntry } from '../../model/items.ts';
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
  // Folders moved here this round, and the folder each goes into (null: one made this round).
  const movedFolders = new Map<string, string | null>();
  for (const { local, remote: found, localChange } of items) {
    if (local?.kind !== 'folder' || found === null || localChange !== 'moved') continue;
    const slash = local.path.lastIndexOf('/');
    movedFolders.set(
      found.id,
      slash < 0 ? remoteRootId : (folders.get(nameKey(local.path.slice(0, slash))) ?? null),
    );
  }
  const operations: Operation[] = [];
  let deferred = false;
  for (const item of items) {
    const { local, remote: found, localChange, remoteChange } = item;
    if (local === null || found === null || !placeholders.has(local.inode)) continue;
    // Below a folder moved here this round, it is kept by where that folder goes, and it is at neither
    // its path here nor the device's until the round's moves are made: the next round plans it (seed 1513).
    if (keptBelowMovedFolder(found, movedFolders, parentOf, onDemand, remoteRootId)) {
      deferred = true;
      continue;
    }
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

/**
 * Whether an item below a folder moved here this round (by the device's parents) is kept once the moves
 * are made, or cannot be known yet (moved into a folder made this round).
 */
function keptBelowMovedFolder(
  found: RemoteEntry,
  movedFolders: ReadonlyMap<string, string | null>,
  parentOf: (id: string) => string | undefined,
  onDemand: OnDemandPolicy,
  remoteRootId: string,
): boolean {
  if (movedFolders.size === 0) return false;
  let below = false;
  const seen = new Set<string>();
  for (let id = parentOf(found.id); id !== undefined && !seen.has(id); id = parentOf(id)) {
    seen.add(id);
    if (movedFolders.has(id)) below = true;
  }
  if (!below) return false;
  let unknown = false;
  const after = (id: string): string | undefined => {
    if (!movedFolders.has(id)) return parentOf(id);
    const parent = movedFolders.get(id) ?? null;
    if (parent === null) unknown = true;
    return parent === null || parent === remoteRootId ? undefined : parent;
  };
  const kept = onDemand.keepsContent(found, after);
  return kept || unknown;
}
