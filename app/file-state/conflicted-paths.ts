// The paths of a pair in conflict: each conflicted copy still synced and not settled, and the file it was made beside.
import type { IndexStore } from '../index/index-store.ts';
import { originalPathOfConflictedCopy } from '../sync/plan/conflict-names.ts';

/**
 * The copies this computer made (the conflicts table) and those another computer made (known by their
 * name), as `listConflicts` finds them, but from the index alone: a copy without a row is gone.
 * `namedCopies`: the synced files named as conflicted copies (a scan of every row: a caller that asks
 * often keeps it, and reads it again only when the files changed).
 */
export function conflictedPaths(
  index: IndexStore,
  namedCopies: readonly string[] = index.versions.conflictedCopyPaths(),
): string[] {
  const rows = index.versions;
  const copies = new Map<string, string>();
  const settled = new Set<string>();
  for (const row of rows.conflicts()) {
    if (row.settled === null) copies.set(row.copyPath, row.originalPath);
    else settled.add(row.copyPath);
  }
  for (const copyPath of namedCopies) {
    if (copies.has(copyPath) || settled.has(copyPath)) continue;
    const originalPath = originalPathOfConflictedCopy(copyPath);
    if (originalPath !== copyPath) copies.set(copyPath, originalPath);
  }
  const paths: string[] = [];
  for (const [copyPath, originalPath] of copies) {
    if (index.byPath(copyPath) === undefined) continue;
    paths.push(copyPath);
    if (index.byPath(originalPath) !== undefined) paths.push(originalPath);
  }
  return paths;
}
