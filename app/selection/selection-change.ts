// Changes to a pair's selection, checked against the device first: exclude a folder, include one again, the threshold for new folders.
import type { DeviceClient } from '../api/device-client.ts';
import type { RelativePath } from '../model/items.ts';
import {
  isAtOrBelow,
  type ExcludedFolder,
  type LocalCopyChoice,
  type PairSelection,
} from '../model/selection.ts';
import { readPairSelection, updatePairSelection } from '../profile/pair-selection.ts';
import { SelectionError } from './selection-errors.ts';
import { findDeviceFolder, stateOf } from './selection-tree.ts';

export interface SelectionPair {
  localRoot: string;
  remoteFolder: string;
}

/** What a change did: `unchanged` when the selection already said so (nothing was written). */
export interface SelectionOutcome {
  changed: boolean;
  selection: PairSelection;
}

function notRoot(path: RelativePath, verb: string): void {
  if (path === '') {
    throw new SelectionError(
      'SELECTION_PATH_IS_ROOT',
      `The pair's folder itself cannot be ${verb}: choose a folder inside it (or remove the pair with \`mch-sync folders remove\`).`,
    );
  }
}

/**
 * Leaves the device folder `path` (below the pair's device folder) off this computer. Its local copy
 * is removed (to the trash, once everything in it is synced) or kept here unsynced, as `localCopy`
 * says; the next pass does it. A waiting folder is answered "no".
 */
export async function excludeFolder(
  client: DeviceClient,
  profileDir: string,
  pair: SelectionPair,
  path: RelativePath,
  localCopy: LocalCopyChoice,
): Promise<SelectionOutcome> {
  notRoot(path, 'excluded');
  const folder = await findDeviceFolder(client, pair.remoteFolder, path);
  const current = readPairSelection(profileDir, pair.localRoot);
  const state = stateOf(current, { path, id: folder.id });
  if (state === 'excluded') return { changed: false, selection: current };
  const selection = await updatePairSelection(profileDir, pair.localRoot, (before) => ({
    ...before,
    waiting: before.waiting.filter((waiting) => waiting.id !== folder.id && !isAtOrBelow(waiting.path, path)),
    excluded: [
      ...before.excluded.filter((excluded) => excluded.id !== folder.id && !isAtOrBelow(excluded.path, path)),
      { path, id: folder.id, localCopy },
    ],
  }));
  return { changed: true, selection };
}

/**
 * Brings the device folder `path` (and all it holds) to this computer again. A folder inside an excluded
 * one: the excluded folder is included, and each folder beside the way down to `path` stays excluded,
 * so that only `path` comes down.
 */
export async function includeFolder(
  client: DeviceClient,
  profileDir: string,
  pair: SelectionPair,
  path: RelativePath,
): Promise<SelectionOutcome> {
  notRoot(path, 'included');
  const current = readPairSelection(profileDir, pair.localRoot);
  let folder: { id: string };
  try {
    folder = await findDeviceFolder(client, pair.remoteFolder, path);
  } catch (error) {
    // A folder excluded by name that is gone from the device: the name is simply no longer excluded.
    const named = [...current.excluded, ...current.waiting].find((known) => known.path === path);
    if (!(error instanceof SelectionError && error.code === 'SELECTION_PATH_MISSING') || named === undefined)
      throw error;
    folder = named;
  }
  if (stateOf(current, { path, id: folder.id }) === 'synced') return { changed: false, selection: current };
  const above = current.excluded.find(
    (excluded) => excluded.id !== folder.id && excluded.path !== path && isAtOrBelow(path, excluded.path),
  );
  const besides = above === undefined ? [] : await foldersBeside(client, pair, above, path);
  const selection = await updatePairSelection(profileDir, pair.localRoot, (before) => ({
    ...before,
    waiting: before.waiting.filter((waiting) => waiting.id !== folder.id && !isAtOrBelow(waiting.path, path)),
    excluded: [
      ...before.excluded.filter(
        (excluded) =>
          excluded.id !== folder.id && !isAtOrBelow(excluded.path, path) && excluded.id !== above?.id,
      ),
      ...besides,
    ],
  }));
  return { changed: true, selection };
}

/** The folders beside the way from the excluded folder `above` down to `path`, excluded as `above` was. */
async function foldersBeside(
  client: DeviceClient,
  pair: SelectionPair,
  above: ExcludedFolder,
  path: RelativePath,
): Promise<ExcludedFolder[]> {
  const besides: ExcludedFolder[] = [];
  const way = path.slice(above.path.length + 1).split('/');
  let level = above.path;
  for (const name of way) {
    const folder = await findDeviceFolder(client, pair.remoteFolder, level);
    const listing = await client.listAll(folder.id);
    if (!listing.notModified) {
      for (const file of listing.files) {
        if (!file.isFolder || file.name === name) continue;
        besides.push({ path: `${level}/${file.name}`, id: file.id, localCopy: above.localCopy });
      }
    }
    level = `${level}/${name}`;
  }
  return besides;
}

/**
 * Parses a threshold as people write it (`500MB`, `2 GB`, `750kB`, `1000000`; powers of 1000, as
 * everywhere in mch-sync) or `off`; null means off.
 */
export function parseSize(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'off') return null;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?$/i.exec(trimmed);
  const units: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };
  const bytes = match === null ? NaN : Number(match[1]) * (units[(match[2] ?? 'b').toLowerCase()] ?? NaN);
  if (!Number.isFinite(bytes) || bytes < 1) {
    throw new SelectionError(
      'SELECTION_THRESHOLD_INVALID',
      `${JSON.stringify(text)} is not a size: write it as 500MB, 2GB or off.`,
    );
  }
  return Math.round(bytes);
}

/** The thresholds over which a new device folder waits (null: off); a field absent stays as it is. */
export interface AskOver {
  bytes?: number | null;
  files?: number | null;
}

/** Sets the thresholds over which a new device folder waits for an answer. */
export async function setAskOver(
  profileDir: string,
  pair: SelectionPair,
  asked: AskOver,
): Promise<PairSelection> {
  return updatePairSelection(profileDir, pair.localRoot, (before) => ({
    ...before,
    ...(asked.bytes === undefined ? {} : { askOverBytes: asked.bytes }),
    ...(asked.files === undefined ? {} : { askOverFiles: asked.files }),
  }));
}
