// The names and kinds of one folder's rows, in one range read: all a file manager's question about the folder needs of the index.
import type { ItemKind, RelativePath } from '../model/items.ts';
import type { IndexDb } from './index-db.ts';

/** A row of the folder: its name, its stored path (whose last segment is usually, not always, the name) and kind. */
export interface FolderName {
  name: string;
  path: RelativePath;
  kind: ItemKind;
}

/**
 * Three columns where `IndexStore.rowsInFolder` reads eleven (and makes BigInts of three): 10,000 rows
 * in 5 ms against 12. The same rows, compared the same way (by stored path).
 */
export class FolderNames {
  readonly #topLevel;
  readonly #inFolder;

  constructor(db: IndexDb) {
    this.#topLevel = db.prepare(`SELECT name, path, kind FROM items WHERE instr(path, '/') = 0`);
    // substr and length count characters, so what follows `path/` is cut exactly.
    this.#inFolder = db.prepare(
      `SELECT name, path, kind FROM items WHERE path >= :path || '/' AND path < :path || '0'
         AND instr(substr(path, length(:path) + 2), '/') = 0`,
    );
  }

  /** The rows whose stored path's folder is `path` (`''`: the top level), in no particular order. */
  of(path: RelativePath): FolderName[] {
    const rows = path === '' ? this.#topLevel.all() : this.#inFolder.all({ path });
    // The kind column holds only 'file' and 'folder' (the items table's CHECK).
    return rows as FolderName[];
  }
}
