// Before a folder is deleted on the device: its contents must still be what this round's walk saw.
import { ApiError } from '../../../common/errors.ts';
import type { ExecutionContext } from './execution-context.ts';
import { currentETag } from './execution-context.ts';
import { ReplanNeeded } from './replan-needed.ts';
import type { RelativePath } from '../../model/items.ts';

/**
 * A subtree this small is emptied item by item, each DELETE under its own If-Match, before the folder
 * goes: no window is left in which another client's change inside it is deleted unseen. A bigger one
 * goes in one DELETE after the listings (a request per item would cost too much there).
 */
export const ITEM_BY_ITEM_FILES = 32;
export const ITEM_BY_ITEM_FOLDERS = 8;

interface Listed {
  files: { id: string; eTag: string }[];
  /** Below the folder, parents first. */
  folders: string[];
}

/**
 * Makes the folder `folderId` ready for its DELETE and returns the If-Match that DELETE must carry.
 * The device's DELETE of a folder takes its whole subtree, and its If-Match covers only the folder's
 * own eTag, which a child's content edit does not change (a changed child bumps the folder's listing,
 * not the folder): another client's edit made after the walk was deleted with the folder, never seen
 * (soak seeds 253 and 411, issue 18). So the subtree is listed again, and a new or changed item
 * re-plans the round. A small subtree is then emptied item by item (soak seed 2176: an edit made
 * between that listing and the DELETE), and the folder deleted under its eTag of after that, which a
 * child added meanwhile would change. Items gone since the walk are fine: the delete wanted them gone.
 */
export async function prepareFolderDelete(
  context: ExecutionContext,
  folderId: string,
  path: RelativePath,
  ifMatch: string,
): Promise<string> {
  const listed = await listAsWalked(context, folderId, path);
  if (listed.files.length > ITEM_BY_ITEM_FILES || listed.folders.length > ITEM_BY_ITEM_FOLDERS)
    return ifMatch;
  for (const file of listed.files) {
    try {
      await context.setup.client.delete(file.id, { ifMatch: file.eTag, signal: context.setup.signal });
    } catch (error) {
      if (codeOf(error) === 'NOT_FOUND') continue;
      if (codeOf(error) === 'PRECONDITION_FAILED') throw changed(path, 'holds a file changed since the walk');
      throw error;
    }
  }
  // Deepest first; each must be empty under the eTag it has now (a child added later changes it).
  for (const id of [...listed.folders].reverse()) {
    const eTag = await emptyFolderETag(context, id, path);
    if (eTag === undefined) continue;
    try {
      await context.setup.client.delete(id, { ifMatch: eTag, signal: context.setup.signal });
    } catch (error) {
      if (codeOf(error) === 'NOT_FOUND') continue;
      if (codeOf(error) === 'PRECONDITION_FAILED')
        throw changed(path, 'holds a folder changed since the walk');
      throw error;
    }
  }
  return (await emptyFolderETag(context, folderId, path)) ?? ifMatch;
}

/** Every item below `folderId` as listed now; throws ReplanNeeded when one is not as the walk saw it. */
async function listAsWalked(
  context: ExecutionContext,
  folderId: string,
  path: RelativePath,
): Promise<Listed> {
  const result: Listed = { files: [], folders: [] };
  const pending = [folderId];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    const listing = await context.setup.client.listAll(next, { signal: context.setup.signal });
    if (listing.notModified) continue;
    if (listing.rejected.length > 0) throw changed(path, 'holds items this round could not read');
    for (const file of listing.files) {
      const walked = context.setup.remote.get(file.id);
      if (walked === undefined) throw changed(path, `holds ${JSON.stringify(file.name)}, new since the walk`);
      if (file.eTag !== currentETag(context, file.id, walked.eTag)) {
        throw changed(path, `holds ${JSON.stringify(file.name)}, changed since the walk`);
      }
      if (file.isFolder) {
        result.folders.push(file.id);
        pending.push(file.id);
      } else {
        result.files.push({ id: file.id, eTag: file.eTag });
      }
    }
  }
  return result;
}

/** The folder's eTag now, when it holds nothing; undefined when it is gone. */
async function emptyFolderETag(
  context: ExecutionContext,
  folderId: string,
  path: RelativePath,
): Promise<string | undefined> {
  let eTag: string;
  try {
    eTag = (await context.setup.client.getFile(folderId, { signal: context.setup.signal })).eTag;
  } catch (error) {
    if (codeOf(error) === 'NOT_FOUND') return undefined;
    throw error;
  }
  const listing = await context.setup.client.list(folderId, { signal: context.setup.signal });
  if (!listing.notModified && (listing.files.length > 0 || listing.rejected.length > 0)) {
    throw changed(path, 'holds an item new since the walk');
  }
  return eTag;
}

function codeOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

function changed(path: RelativePath, why: string): ReplanNeeded {
  return new ReplanNeeded(
    'REMOTE_CHANGED',
    path,
    `The folder was not deleted on the device: it ${why}. Looked at again next round.`,
  );
}
