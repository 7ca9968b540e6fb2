// The subtrees an incremental pass must read again after a batch of local changes, kept few by collapsing to folders.
import type { RelativePath } from '../model/items.ts';

export interface AffectedPathLimits {
  /** More changed entries than this in one folder: read the whole folder instead (default 16). */
  perFolder?: number;
  /** More subtrees than this in all: collapse the deepest ones to their folders (default 64). */
  total?: number;
}

export function parentOf(path: RelativePath): RelativePath {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** Whether `path` is `ancestor` or lies below it ('' is the root, above everything). */
export function isAtOrUnder(path: RelativePath, ancestor: RelativePath): boolean {
  if (ancestor === '') return true;
  return path === ancestor || (path.startsWith(ancestor) && path.charCodeAt(ancestor.length) === 0x2f);
}

function depth(path: RelativePath): number {
  if (path === '') return 0;
  let count = 1;
  for (let index = path.indexOf('/'); index !== -1; index = path.indexOf('/', index + 1)) count += 1;
  return count;
}

/** Sorted, without any path that lies under another one of the set. */
function withoutNested(paths: Iterable<RelativePath>): RelativePath[] {
  // Sorted by code unit, a folder comes right before what lies under it, except for names that sort
  // between ("a" < "a b" < "a/b"), so every kept ancestor of a path is checked, not only the last one.
  const sorted = [...new Set(paths)].sort();
  const kept = new Set<RelativePath>();
  for (const path of sorted) {
    let covered = kept.has('');
    for (let parent = path; !covered && parent !== '';) {
      parent = parentOf(parent);
      covered = kept.has(parent);
    }
    if (!covered) kept.add(path);
  }
  return [...kept];
}

/**
 * The smallest list of subtrees that holds every path of `paths`: nested paths dropped, a folder with
 * many changed entries read whole, and the deepest paths collapsed while there are too many. A path
 * that no longer exists stays listed: reading it finds it gone. Sorted; `['']` means "everything".
 */
export function collapseAffectedPaths(
  paths: Iterable<RelativePath>,
  limits: AffectedPathLimits = {},
): RelativePath[] {
  const perFolder = limits.perFolder ?? 16;
  const total = Math.max(1, limits.total ?? 64);
  let current = withoutNested(paths);
  for (;;) {
    const byParent = new Map<RelativePath, number>();
    for (const path of current) {
      if (path !== '') byParent.set(parentOf(path), (byParent.get(parentOf(path)) ?? 0) + 1);
    }
    const crowded = [...byParent].filter(([, count]) => count > perFolder).map(([parent]) => parent);
    if (crowded.length === 0) break;
    current = withoutNested([...current, ...crowded]);
  }
  while (current.length > total) {
    const deepest = Math.max(...current.map(depth));
    current = withoutNested(current.map((path) => (depth(path) === deepest ? parentOf(path) : path)));
  }
  return current;
}
