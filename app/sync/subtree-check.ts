// Before a folder is deleted on the device: its contents must still be what this round's walk saw.
import type { ExecutionContext } from './execution-context.ts';
import { currentETag, ReplanNeeded } from './execution-context.ts';
import type { RelativePath } from './model.ts';

/**
 * Lists the folder `folderId` and every folder below it again, and throws ReplanNeeded when an item
 * there is new or has another eTag than the walk (or this pass) gave it. The device's DELETE of a
 * folder takes its whole subtree, and its If-Match covers only the folder's own eTag, which a child's
 * content edit does not change (a changed child bumps the folder's listing, not the folder): without
 * this look, another client's edit made after the walk was deleted with the folder, never seen
 * (soak seeds 253 and 411, issue 18). Items gone since the walk are fine: the delete wanted them gone.
 * What is left is the short time between these listings and the DELETE.
 */
export async function assertSubtreeAsWalked(
  context: ExecutionContext,
  folderId: string,
  path: RelativePath,
): Promise<void> {
  const folders = [folderId];
  for (let next = folders.pop(); next !== undefined; next = folders.pop()) {
    const listing = await context.client.listAll(next, { signal: context.signal });
    if (listing.notModified) continue;
    if (listing.rejected.length > 0) throw changed(path, 'holds items this round could not read');
    for (const file of listing.files) {
      const walked = context.remote.get(file.id);
      if (walked === undefined) throw changed(path, `holds ${JSON.stringify(file.name)}, new since the walk`);
      if (file.eTag !== currentETag(context, file.id, walked.eTag)) {
        throw changed(path, `holds ${JSON.stringify(file.name)}, changed since the walk`);
      }
      if (file.isFolder) folders.push(file.id);
    }
  }
}

function changed(path: RelativePath, why: string): ReplanNeeded {
  return new ReplanNeeded(
    'REMOTE_CHANGED',
    path,
    `The folder was not deleted on the device: it ${why}. Looked at again next round.`,
  );
}
