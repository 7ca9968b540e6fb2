// Selective sync's vocabulary: the device folders a pair leaves off this computer, and the ones waiting for an answer.
import { nameKey, type RelativePath } from './items.ts';

/** What happens to the local copy of a folder when it is excluded. */
export type LocalCopyChoice = 'remove' | 'keep';

/**
 * A device folder this computer does not hold. `path` is below the pair's device folder; `id` is the
 * device's id of it, which the exclusion follows when the folder is renamed or moved.
 */
export interface ExcludedFolder {
  path: RelativePath;
  id: string;
  /** `remove`: the local copy goes to the trash once everything in it is synced; `keep`: it stays, unsynced. */
  localCopy: LocalCopyChoice;
}

/** A new device folder over the pair's threshold: excluded until the user answers. */
export interface WaitingFolder {
  path: RelativePath;
  id: string;
  /** What the walk that found it counted below it (files only; folders add nothing). */
  bytes: number;
  files: number;
}

/** A pair's selection, kept in its profile record (app/profile/pair-selection.ts). */
export interface PairSelection {
  excluded: ExcludedFolder[];
  waiting: WaitingFolder[];
  /** Ask before syncing a new device folder holding more than this many bytes; null: never ask. */
  askOverBytes: number | null;
  /** The same in files; null: not by count. */
  askOverFiles: number | null;
}

/** As Nextcloud: ask before a new folder over 500 MB comes down. */
export const DEFAULT_ASK_OVER_BYTES = 500_000_000;

export const EMPTY_SELECTION: PairSelection = {
  excluded: [],
  waiting: [],
  askOverBytes: DEFAULT_ASK_OVER_BYTES,
  askOverFiles: null,
};

/**
 * Where a pair's selection is kept, as the engine sees it: read at the start of each pass, and told when
 * an excluded folder moved on the device (the exclusion follows it) or a new folder waits.
 */
export interface SelectionStore {
  read(): PairSelection;
  update(change: (selection: PairSelection) => PairSelection): Promise<void>;
}

/** Whether `path` is `folder` or below it (names compared as the sync compares them). */
export function isAtOrBelow(path: RelativePath, folder: RelativePath): boolean {
  const key = nameKey(path);
  const folderKey = nameKey(folder);
  return key === folderKey || key.startsWith(`${folderKey}/`);
}
