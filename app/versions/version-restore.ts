// Putting a kept version back: over the file at its path (which is kept in turn), at another place, or a deleted file (or folder) where it was.
import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { IndexStore } from '../index/index-store.ts';
import type { VersionRow } from '../index/version-rows.ts';
import { errnoOf } from '../sync/local/file-errors.ts';
import { localPath, statOrUndefined } from '../sync/local/local-paths.ts';
import { isPlaceholder } from '../sync/local/placeholders.ts';
import { VersionStore } from '../sync/versions/version-store.ts';
import { listDeleted, listVersions, type DeletedEntry } from './version-list.ts';
import { VersionsError } from './versions-errors.ts';

export interface RestoreResult {
  /** Relative to the pair, or absolute for a `--to` outside it. */
  restoredTo: string;
  path: string;
  /** The version restored (1 = the newest of its path when it was restored). */
  number: number;
  size: number;
  /** The file it replaced was kept as a version ("replaced by a restore"). */
  replacedKept: boolean;
}

/** The pair's versions: its index and the folder the engine syncs (an on-demand pair's cache folder). */
export interface PairVersionsPlace {
  index: IndexStore;
  root: string;
}

function storeOf(place: PairVersionsPlace): VersionStore {
  return new VersionStore(place.root, place.index.versions);
}

/**
 * Restores version `number` (default 1, the newest) of `path`: at `path`, where the current file is
 * kept as a version first and replaced in one rename, or at `to` (absolute), where nothing may be. The
 * restored file is a change like any other: the next pass syncs it up.
 */
export async function restoreVersion(
  place: PairVersionsPlace,
  path: string,
  options: { number?: number; to?: string } = {},
): Promise<RestoreResult> {
  const versions = place.index.versions.ofPath(path);
  const number = options.number ?? 1;
  const row = versions[number - 1];
  if (row === undefined) {
    throw new VersionsError(
      'VERSION_NOT_FOUND',
      versions.length === 0
        ? `No versions of ${path} are kept.`
        : `${path} has ${versions.length} kept version${versions.length === 1 ? '' : 's'}; there is no version ${number}.`,
    );
  }
  const store = storeOf(place);
  if (options.to !== undefined) {
    if ((await statOrUndefined(options.to)) !== undefined) {
      throw new VersionsError('DESTINATION_EXISTS', `${options.to} exists; choose a name that is free.`);
    }
    await takeOutAnywhere(place, store, row, options.to);
    return { restoredTo: options.to, path, number, size: row.size, replacedKept: false };
  }
  const absolute = localPath(place.root, path);
  const current = await statOrUndefined(absolute);
  if (current !== undefined && !current.isFile()) {
    throw new VersionsError('DESTINATION_EXISTS', `${path} is a folder now; restore the version with --to.`);
  }
  // The file it replaces is kept in turn (a placeholder holds nothing: the device has that version).
  const kept =
    current === undefined || isPlaceholder(absolute)
      ? undefined
      : await store.linkBeforeReplace(
          path,
          { inode: current.ino.toString() },
          { size: Number(current.size), mTimeMs: Number(current.mtimeMs), remoteId: null, contentHash: null },
          'restored',
        );
  try {
    await takeOutAnywhere(place, store, row, absolute);
  } catch (error) {
    await kept?.abandon();
    throw error;
  }
  kept?.confirm();
  return { restoredTo: path, path, number, size: row.size, replacedKept: kept !== undefined };
}

/**
 * One rename out of the store; a copy when the destination is on another file system, or when the
 * version's inode is a synced item's (a file kept by a link and never synced since, as the one a restore
 * replaced): moved out as it is, the next scan would take that item for moved to the destination.
 */
async function takeOutAnywhere(
  place: PairVersionsPlace,
  store: VersionStore,
  row: VersionRow,
  destination: string,
): Promise<void> {
  const blob = await statOrUndefined(store.blobPath(row.blob));
  const known = blob !== undefined && place.index.byInode(blob.ino.toString()).length > 0;
  if (!known) {
    try {
      await store.takeOut(row, destination);
      return;
    } catch (error) {
      if (errnoOf(error) !== 'EXDEV') throw error;
    }
  }
  await mkdir(dirname(destination), { recursive: true });
  await copyFile(store.blobPath(row.blob), destination, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  await store.remove(row);
}

export interface DeletedRestore {
  restored: RestoreResult[];
  /** Deleted paths where something is now (left as they are). */
  skipped: { path: string; reason: string }[];
}

/**
 * Restores deleted files where they were: the file at `path`, or every deleted file below the folder
 * `path`, or (`sinceMs`) every file deleted since then below `folder`. Folders they were in are made again.
 */
export async function restoreDeleted(
  place: PairVersionsPlace,
  which: { path: string } | { sinceMs: number; folder?: string },
): Promise<DeletedRestore> {
  const entries = deletedOf(place, which);
  const store = storeOf(place);
  const result: DeletedRestore = { restored: [], skipped: [] };
  for (const entry of entries) {
    const absolute = localPath(place.root, entry.path);
    if ((await statOrUndefined(absolute)) !== undefined) {
      result.skipped.push({ path: entry.path, reason: 'something is at its place now' });
      continue;
    }
    const row = place.index.versions.get(entry.id);
    if (row === undefined) continue;
    try {
      await takeOutAnywhere(place, store, row, absolute);
      result.restored.push({
        restoredTo: entry.path,
        path: entry.path,
        number: 1,
        size: row.size,
        replacedKept: false,
      });
    } catch (error) {
      result.skipped.push({ path: entry.path, reason: (error as Error).message });
    }
  }
  return result;
}

function deletedOf(
  place: PairVersionsPlace,
  which: { path: string } | { sinceMs: number; folder?: string },
): DeletedEntry[] {
  if ('sinceMs' in which) {
    const found = listDeleted(place.index, which.folder ?? '', which.sinceMs);
    if (found.length === 0) {
      throw new VersionsError(
        'NOTHING_DELETED',
        `No file deleted since ${new Date(which.sinceMs).toISOString()} is kept.`,
      );
    }
    return found;
  }
  const newest = place.index.versions.ofPath(which.path)[0];
  const exact =
    newest === undefined || place.index.byPath(which.path) !== undefined
      ? []
      : [
          {
            ...listVersions(place.index, which.path)[0]!,
            versions: place.index.versions.ofPath(which.path).length,
          },
        ];
  const below = listDeleted(place.index, which.path, 0);
  const found = [...exact, ...below];
  if (found.length === 0) {
    throw new VersionsError('NOTHING_DELETED', `Nothing deleted at or below ${which.path} is kept.`);
  }
  return found;
}
