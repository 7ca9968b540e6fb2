// The device folder tree of a pair as selective sync shows it: each folder's state and, where known, its size.
import { ROOT_ALIAS } from '../../common/wire/device-api.ts';
import type { DeviceClient, RemoteFile } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import { nameKey, type RelativePath } from '../model/items.ts';
import { isAtOrBelow, type PairSelection } from '../model/selection.ts';
import { remoteFolderSegments } from '../sync/remote/remote-folder.ts';
import { SelectionError } from './selection-errors.ts';

/**
 * `synced`: on this computer; `partly`: synced, with a folder below it excluded or waiting; `excluded`:
 * not on this computer (itself or a folder above it); `waiting`: new, over the threshold, not on this
 * computer until the user answers.
 */
export type SelectionState = 'synced' | 'partly' | 'excluded' | 'waiting';

export interface SelectionFolder {
  /** Below the pair's device folder. */
  path: RelativePath;
  name: string;
  id: string;
  state: SelectionState;
  /**
   * What it holds as far as this computer knows: for a synced folder the index's files below it, for
   * a waiting one what the walk that found it counted; null when unknown (an excluded folder).
   */
  bytes: number | null;
  files: number | null;
}

/** The device folder at `path` below the pair's device folder (`''`: the pair's folder itself). */
export async function findDeviceFolder(
  client: DeviceClient,
  remoteFolder: string,
  path: RelativePath,
  signal?: AbortSignal,
): Promise<RemoteFile> {
  const call = signal === undefined ? {} : { signal };
  const segments = [...remoteFolderSegments(remoteFolder), ...(path === '' ? [] : path.split('/'))];
  let found = await client.getFile(ROOT_ALIAS, call);
  for (const [at, name] of segments.entries()) {
    const child = await client.findByName(found.id, name, call);
    const soFar = `/${segments.slice(0, at + 1).join('/')}`;
    if (child === undefined) {
      throw new SelectionError('SELECTION_PATH_MISSING', `${soFar} is not on the device.`);
    }
    if (!child.isFolder) {
      throw new SelectionError(
        'SELECTION_NOT_A_FOLDER',
        `${soFar} on the device is a file: only folders are chosen.`,
      );
    }
    found = child;
  }
  return found;
}

/** A folder's state under `selection`. */
export function stateOf(
  selection: PairSelection,
  folder: { path: RelativePath; id: string },
): SelectionState {
  if (selection.waiting.some((waiting) => waiting.id === folder.id || isAtOrBelow(folder.path, waiting.path)))
    return 'waiting';
  if (
    selection.excluded.some(
      (excluded) => excluded.id === folder.id || isAtOrBelow(folder.path, excluded.path),
    )
  )
    return 'excluded';
  const below = [...selection.excluded, ...selection.waiting].some(
    (chosen) => chosen.path !== folder.path && isAtOrBelow(chosen.path, folder.path),
  );
  return below ? 'partly' : 'synced';
}

/** Bytes and files the index holds below `path`. */
export function indexedSize(index: IndexStore, path: RelativePath): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const row of index.rowsWithin(path)) {
    if (row.kind !== 'file') continue;
    bytes += row.size;
    files += 1;
  }
  return { bytes, files };
}

/**
 * The folders directly in the device folder `path` of a pair, sorted by name, each with its state;
 * `index` (when it can be read) gives the sizes of synced folders.
 */
export async function selectionChildren(
  client: DeviceClient,
  pair: { remoteFolder: string },
  selection: PairSelection,
  path: RelativePath,
  index?: IndexStore,
  signal?: AbortSignal,
): Promise<SelectionFolder[]> {
  const folder = await findDeviceFolder(client, pair.remoteFolder, path, signal);
  const listing = await client.listAll(folder.id, signal === undefined ? {} : { signal });
  if (listing.notModified) return [];
  const folders = listing.files.filter((file) => file.isFolder);
  folders.sort((a, b) =>
    nameKey(a.name) < nameKey(b.name) ? -1 : nameKey(a.name) > nameKey(b.name) ? 1 : 0,
  );
  return folders.map((file) => {
    const childPath = path === '' ? file.name : `${path}/${file.name}`;
    const state = stateOf(selection, { path: childPath, id: file.id });
    const waiting = selection.waiting.find((known) => known.id === file.id);
    const size =
      waiting !== undefined
        ? { bytes: waiting.bytes, files: waiting.files }
        : state !== 'excluded' && index !== undefined
          ? indexedSize(index, childPath)
          : null;
    return {
      path: childPath,
      name: file.name,
      id: file.id,
      state,
      bytes: size?.bytes ?? null,
      files: size?.files ?? null,
    };
  });
}
