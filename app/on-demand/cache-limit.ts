// The cache limit of an on-demand pair: past it, the least recently used whole files that are not kept are freed.
//
// "Recently used" is the access time of the file in the cache folder. Reads through the mount are reads
// of that file (a passthrough), so they set it as the cache folder's file system does: with Linux's
// default `relatime`, at the first read after the file changed, and otherwise at most once a day. A file
// read several times today counts as used once today; that is enough to tell what was opened lately.
import type { IndexStore } from '../index/index-store.ts';
import {
  emptyFreeTally,
  freeCounted,
  wholeFileOf,
  type FreeOne,
  type FreeTally,
  type WholeFile,
} from './free-files.ts';

/** The files to try, in order: least recently used first (the path breaks a tie, so the order is stable). */
export function leastRecentlyUsedFirst(files: readonly WholeFile[]): WholeFile[] {
  return [...files].sort((a, b) =>
    a.atimeNs === b.atimeNs
      ? a.path < b.path
        ? -1
        : a.path > b.path
          ? 1
          : 0
      : a.atimeNs < b.atimeNs
        ? -1
        : 1,
  );
}

/**
 * Frees files of `candidates` (whole, synced, not kept), least recently used first, until their bytes
 * are at most `limitBytes`; a file open in a program (or changed) is passed over for the next one.
 */
export async function freeUntilUnder(
  candidates: readonly WholeFile[],
  limitBytes: number,
  freeOne: FreeOne,
): Promise<FreeTally> {
  const tally = emptyFreeTally();
  let used = candidates.reduce((sum, file) => sum + file.size, 0);
  for (const file of leastRecentlyUsedFirst(candidates)) {
    if (used <= limitBytes) break;
    if ((await freeCounted(file, freeOne, tally)) === 'freed') used -= file.size;
  }
  return tally;
}

/** What the limit is applied to: the pair's index, cache folder, limit and kept items. */
export interface CacheLimitInput {
  index: Pick<IndexStore, 'entries'>;
  cacheRoot: string;
  limitBytes: number;
  /** The ids of the pinned items: they and everything below them are never freed. */
  pinned: ReadonlySet<string>;
  freeOne: FreeOne;
}

/** The whole, synced files not kept: what the limit counts. */
export async function cacheCandidates(
  input: Omit<CacheLimitInput, 'limitBytes' | 'freeOne'>,
): Promise<WholeFile[]> {
  const parents = new Map<string, string>();
  const files = [];
  // Read whole before any file is looked at: the index's connection is busy while it iterates.
  for (const row of input.index.entries()) {
    parents.set(row.remoteId, row.parentRemoteId);
    if (row.kind === 'file') files.push(row);
  }
  const kept = (id: string): boolean => {
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); at = parents.get(at)) {
      if (input.pinned.has(at)) return true;
      seen.add(at);
    }
    return false;
  };
  const candidates: WholeFile[] = [];
  for (const row of files) {
    if (kept(row.remoteId)) continue;
    const file = await wholeFileOf(input.cacheRoot, row);
    if (file?.synced === true) candidates.push(file);
  }
  return candidates;
}

/** Applies the limit: undefined when under it (nothing freed), else what was freed. */
export async function applyCacheLimit(input: CacheLimitInput): Promise<FreeTally | undefined> {
  const candidates = await cacheCandidates(input);
  const used = candidates.reduce((sum, file) => sum + file.size, 0);
  if (used <= input.limitBytes) return undefined;
  return freeUntilUnder(candidates, input.limitBytes, input.freeOne);
}
