// New device folders over the pair's threshold: found in a walk, excluded until the user answers.
import type { IndexStore } from '../../index/index-store.ts';
import type { RemoteEntry } from '../../model/items.ts';
import type { PairSelection, WaitingFolder } from '../../model/selection.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';

/**
 * The folders this walk listed for the first time that hold more than the pair's threshold. A folder
 * counts when the index has no row of it and its parent is the pair's folder or a synced folder (the
 * top of something new); what it holds is what the walk listed below it: the sizes of its files, and
 * their number (folders count for nothing). A pair's first pass asks nothing: its folders were chosen
 * when it was made; a folder the user just included (`answered`) is not asked about again.
 */
export function foldersToAskAbout(
  walk: RemoteWalkResult,
  index: IndexStore,
  remoteRootId: string,
  selection: PairSelection,
  answered: ReadonlySet<string> = new Set(),
): WaitingFolder[] {
  const { askOverBytes, askOverFiles } = selection;
  if ((askOverBytes === null && askOverFiles === null) || walk.listed.size === 0) return [];
  const known = new Set([...selection.waiting, ...selection.excluded].map((folder) => folder.id));
  const candidates: RemoteEntry[] = [];
  for (const id of walk.listed) {
    const entry = walk.entries.get(id);
    if (entry === undefined || entry.kind !== 'folder' || known.has(id) || answered.has(id)) continue;
    if (index.get(id) !== undefined) continue;
    if (entry.parentId !== remoteRootId && index.get(entry.parentId) === undefined) continue;
    candidates.push(entry);
  }
  if (candidates.length === 0 || index.count() === 0) return [];
  const totals = subtreeTotals(walk.entries, new Set(candidates.map((entry) => entry.id)));
  const waiting: WaitingFolder[] = [];
  for (const entry of candidates) {
    const { bytes, files } = totals.get(entry.id) ?? { bytes: 0, files: 0 };
    const over =
      (askOverBytes !== null && bytes > askOverBytes) || (askOverFiles !== null && files > askOverFiles);
    if (over) waiting.push({ path: entry.path, id: entry.id, bytes, files });
  }
  return waiting;
}

/** Bytes and files below each of `roots`, from the walk's entries (parents come before children). */
function subtreeTotals(
  entries: ReadonlyMap<string, RemoteEntry>,
  roots: ReadonlySet<string>,
): Map<string, { bytes: number; files: number }> {
  // The root each entry is below, found through its parent (listed before it).
  const rootOf = new Map<string, string>();
  const totals = new Map<string, { bytes: number; files: number }>();
  for (const id of roots) totals.set(id, { bytes: 0, files: 0 });
  for (const entry of entries.values()) {
    if (roots.has(entry.id)) {
      rootOf.set(entry.id, entry.id);
      continue;
    }
    const root = rootOf.get(entry.parentId);
    if (root === undefined) continue;
    rootOf.set(entry.id, root);
    if (entry.kind === 'file') {
      const total = totals.get(root) as { bytes: number; files: number };
      total.bytes += entry.size;
      total.files += 1;
    }
  }
  return totals;
}
