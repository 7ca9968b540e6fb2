// A delete made on the device carried out here: placeholders dropped, the rest kept as versions (or moved to the trash), the rows removed.
import { unlink } from 'node:fs/promises';
import type { ExecutionContext } from './execution-context.ts';
import { ReplanNeeded } from './replan-needed.ts';
import { fileErrorOf } from '../local/file-errors.ts';
import { entryFromStats, localPath, statOrUndefined } from '../local/local-paths.ts';
import { moveToTrash, TrashError } from '../trash/local-trash.ts';
import { dropPlaceholdersBelow, isPlaceholder } from '../local/placeholders.ts';
import type { LocalEntry, RelativePath } from '../../model/items.ts';
import type { Operation } from '../plan/operations.ts';
import { indexRowOf, leftBothSides } from './trash-rows.ts';
import { keepRemoved } from './execute-keep.ts';

type Op<Name extends Operation['op']> = Extract<Operation, { op: Name }>;

/**
 * An on-demand pair's placeholders hold nothing worth a trash (restored from there they would read as
 * zeros): they are removed, a folder's first; true when nothing is left to trash.
 */
async function placeholdersDropped(
  context: ExecutionContext,
  absolute: string,
  now: LocalEntry,
  dropped: string[],
): Promise<boolean> {
  if (context.setup.onDemand === undefined) return false;
  if (now.kind === 'file') {
    if (!isPlaceholder(absolute)) return false;
    context.setup.onLocalWrite({ kind: 'deleted', path: now.path });
    await unlink(absolute);
    return true;
  }
  context.setup.onLocalWrite({ kind: 'deleted', path: now.path });
  return dropPlaceholdersBelow(absolute, (inode) => dropped.push(inode));
}

/**
 * Rows of placeholders dropped below a trashed folder but not of its tree: moved into it as the device
 * deleted their items (followGonePlaceholders moves a row for the round only; seed 9037). Items gone there.
 */
function forgetGoneDropped(context: ExecutionContext, dropped: readonly string[]): number {
  let removed = 0;
  for (const inode of dropped) {
    for (const row of context.setup.index.store.byInode(inode)) {
      if (row.kind === 'file' && !context.setup.remote.has(row.remoteId)) {
        removed += context.setup.index.removeTree(row.remoteId);
      }
    }
  }
  return removed;
}

/** Why the last resort, the folder's own trash, failed is the folder's own reason (read-only...). */
function trashFailure(error: unknown): unknown {
  if (error instanceof TrashError && error.errno !== undefined) {
    return fileErrorOf(error.errno, 'trash', { cause: error });
  }
  return error;
}

/** The OS trash (or the folder's own): where a device delete goes when versions are off or cannot take it. */
async function trashItem(context: ExecutionContext, absolute: string, path: RelativePath): Promise<void> {
  try {
    const trashed = await moveToTrash(absolute, {
      syncRoot: context.setup.localRoot,
      env: context.setup.env,
    });
    context.setup.log({ level: 'info', message: `moved to the trash: ${trashed.location}`, path });
  } catch (error) {
    // Gone already is what the delete wanted.
    if (!(error instanceof TrashError && error.code === 'TRASH_SOURCE_MISSING')) throw trashFailure(error);
  }
}

export async function trashLocal(context: ExecutionContext, op: Op<'local-trash'>): Promise<void> {
  const absolute = localPath(context.setup.localRoot, op.path);
  const now = entryFromStats(op.path, await statOrUndefined(absolute));
  const row = indexRowOf(context, op);
  // Only what was synced goes: an edit made since is kept (and goes back up on the next pass).
  const synced =
    now !== undefined &&
    now.inode === op.inode &&
    now.kind === op.kind &&
    (now.kind === 'folder' || (now.size === row?.localSize && now.mtimeNs === row.localMtimeNs));
  if (now !== undefined && !synced) {
    throw new ReplanNeeded('LOCAL_CHANGED', op.path, 'It changed on this computer during the pass.');
  }
  const dropped: string[] = [];
  const spared = await leftBothSides(context, row, op);
  if (now !== undefined && !(await placeholdersDropped(context, absolute, now, dropped))) {
    context.setup.onLocalWrite({ kind: 'deleted', path: op.path });
    // Kept as a version (restorable from "Recently deleted"), else to the trash as before.
    if (!(await keepRemoved(context, op))) await trashItem(context, absolute, op.path);
  }
  let removed = row ? context.setup.index.removeTree(row.remoteId, (child) => spared.has(child.remoteId)) : 0;
  removed += forgetGoneDropped(context, dropped);
  // A folder counts with everything it held.
  if (op.reason !== 'type-change') {
    context.ledger.counts.deleted += Math.max(1, removed);
    context.ledger.deletedItems.local += Math.max(1, removed);
  }
}
