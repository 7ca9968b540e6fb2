// The folders a pass leaves off this computer: what the remote walk does not list and the scan skips.
import { nameKey, type RelativePath } from '../../model/items.ts';

/** One excluded folder as the index last applied it: where it was, and its device id. */
export interface AppliedFolder {
  path: RelativePath;
  id: string;
  /**
   * The local copy the user kept, when there is one, as `birthIdentity` (inode and birth time): the scan
   * knows it wherever it goes, and a new folder given its inode is not it.
   */
  keptCopy?: string;
  /** Applied as a new folder waiting for an answer (no answer yet). */
  waiting?: true;
}

export class ExcludedFolders {
  readonly #ids: ReadonlySet<string>;
  /** `nameKey` of each path: the scan's `excluded`. */
  readonly keys: ReadonlySet<string>;
  /** The kept copies by inode, with their identity: the scan's `excludedInodes`. */
  readonly inodes: ReadonlyMap<string, string>;

  constructor(folders: readonly AppliedFolder[]) {
    this.#ids = new Set(folders.map((folder) => folder.id));
    this.keys = new Set(folders.map((folder) => nameKey(folder.path)));
    this.inodes = new Map(
      folders.flatMap((folder) =>
        folder.keptCopy === undefined
          ? []
          : [[folder.keptCopy.slice(0, folder.keptCopy.indexOf('@')), folder.keptCopy] as const],
      ),
    );
  }

  get size(): number {
    return this.#ids.size;
  }

  /**
   * Whether the walk leaves this folder unlisted: its id is excluded (wherever it moved), or its path is
   * (a folder deleted and made again under the excluded name stays excluded).
   */
  readonly excludes = (folder: { id: string; path: RelativePath }): boolean =>
    this.#ids.has(folder.id) || this.keys.has(nameKey(folder.path));

  /** Whether `path` is an excluded folder or below one. */
  covers(path: RelativePath): boolean {
    if (this.keys.size === 0) return false;
    const key = nameKey(path);
    for (let end = key.length; end > 0; end = key.lastIndexOf('/', end - 1)) {
      if (this.keys.has(key.slice(0, end))) return true;
    }
    return false;
  }
}
