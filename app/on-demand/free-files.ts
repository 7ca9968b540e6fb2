// Free up space: whole files of an on-demand pair made placeholders again, only those the index says are synced.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexStore } from '../index/index-store.ts';
import type { IndexRow } from '../model/items.ts';
import { isPlaceholder } from '../sync/local/placeholders.ts';

import { freeInPlace, type FreeExpectation, type FreeResult } from './free-in-place.ts';

/** How freeing one file ended: `busy` open in a program, `changed` since the index saw it, `failed` otherwise. */
export type FreeOutcome = 'freed' | 'busy' | 'changed' | 'failed';

/** Frees one file (below the cache folder): through the mount when it runs, else in place. */
export type FreeOne = (path: string, expected: FreeExpectation) => Promise<FreeOutcome>;

/** A free's answer (the mount's, or freeInPlace's) as an outcome: ENOENT and EIO are failures. */
export function outcomeOf(result: FreeResult): FreeOutcome {
  if (result.type === 'freed') return 'freed';
  if (result.errno === 'EBUSY') return 'busy';
  if (result.errno === 'ESTALE') return 'changed';
  return 'failed';
}

/** Frees in place, for when no mount runs (the caller holds the pair's folder lock, or is its service). */
export function inPlaceFreeOne(cacheRoot: string): FreeOne {
  return async (path, expected) => outcomeOf(await freeInPlace(cacheRoot, path, expected));
}

/** What a free did: files made placeholders and their bytes, and the paths left whole, by why. */
export interface FreeTally {
  freed: number;
  bytesFreed: number;
  /** Open in a program: tried again by a later free. */
  busy: string[];
  /** Changed here and not synced yet (or changed while freed): never freed, its bytes may be the only copy. */
  changed: string[];
  failed: string[];
}

export function emptyFreeTally(): FreeTally {
  return { freed: 0, bytesFreed: 0, busy: [], changed: [], failed: [] };
}

/** A file of the index that is whole in the cache folder, with its access time. */
export interface WholeFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly atimeNs: bigint;
  /** Whether it is what its index row says (size, mtime, inode): only such a file may be freed. */
  readonly synced: boolean;
}

/** The file of `row` in the cache folder when it is whole (not a placeholder, a regular file); else undefined. */
export async function wholeFileOf(cacheRoot: string, row: IndexRow): Promise<WholeFile | undefined> {
  if (row.kind !== 'file') return undefined;
  const absolute = join(cacheRoot, row.path);
  const stats = await lstat(absolute, { bigint: true }).catch(() => undefined);
  if (stats === undefined || !stats.isFile() || isPlaceholder(absolute)) return undefined;
  const synced =
    row.inode === String(stats.ino) &&
    row.localSize !== null &&
    BigInt(row.localSize) === stats.size &&
    row.localMtimeNs === stats.mtimeNs;
  return {
    path: row.path,
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs,
    atimeNs: stats.atimeNs,
    synced,
  };
}

/** Frees `file` and counts how it ended in `tally`. */
export async function freeCounted(file: WholeFile, freeOne: FreeOne, tally: FreeTally): Promise<FreeOutcome> {
  const outcome = file.synced
    ? await freeOne(file.path, { size: file.size, mtimeNs: file.mtimeNs })
    : 'changed';
  switch (outcome) {
    case 'freed':
      tally.freed += 1;
      tally.bytesFreed += file.size;
      break;
    case 'busy':
      tally.busy.push(file.path);
      break;
    case 'changed':
      tally.changed.push(file.path);
      break;
    case 'failed':
      tally.failed.push(file.path);
      break;
  }
  return outcome;
}

/**
 * Frees every whole file at or below each of `paths` (below the cache folder, '' for all) that its
 * index row says is synced; a file changed since is reported, never freed.
 */
export async function freeBelow(
  index: Pick<IndexStore, 'rowsWithin' | 'entries'>,
  cacheRoot: string,
  paths: readonly string[],
  freeOne: FreeOne,
): Promise<FreeTally> {
  const tally = emptyFreeTally();
  const seen = new Set<string>();
  for (const path of paths) {
    // The whole pair: every row, read before any file is freed (the connection is busy while it reads).
    const rows = path === '' ? [...index.entries()] : index.rowsWithin(path);
    for (const row of rows) {
      if (seen.has(row.path)) continue;
      seen.add(row.path);
      const file = await wholeFileOf(cacheRoot, row);
      if (file !== undefined) await freeCounted(file, freeOne, tally);
    }
  }
  return tally;
}
