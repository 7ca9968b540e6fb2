// The downloads on opening under way, one empty file each in the cache folder's state folder: what a crash left half filled is put back at the next start.
import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexStore } from '../index/index-store.ts';
import { STATE_FOLDER_NAME } from '../model/names.ts';
import { localPath, statOrUndefined } from '../sync/local/local-paths.ts';
import { isPlaceholder, placeholderAttributes } from '../sync/local/placeholders.ts';

/** `<cache>/.mch-sync/hydrating/<inode>` while the placeholder of that inode is being filled. */
export class HydrationJournal {
  readonly #dir: string;

  constructor(cacheRoot: string) {
    this.#dir = join(cacheRoot, STATE_FOLDER_NAME, 'hydrating');
  }

  /** Before the first byte is written into the placeholder of `inode`. */
  async begin(inode: string): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    await (await open(join(this.#dir, inode), 'w')).close();
  }

  /** Once the placeholder is whole, or put back as it was. */
  async end(inode: string): Promise<void> {
    await unlink(join(this.#dir, inode)).catch(() => undefined);
  }

  /**
   * At the start of the service, before any download: a placeholder a crash left half filled (its mark
   * still on, its bytes and mtime moved) is emptied again and given its row's size and mtime, so the
   * pass's digests match and the mount shows the device's time. Says how many it put back.
   */
  async tidy(cacheRoot: string, index: Pick<IndexStore, 'byInode'>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return 0;
    }
    let putBack = 0;
    for (const inode of names) {
      const row = index.byInode(inode).find((entry) => entry.kind === 'file');
      const path = row === undefined ? undefined : localPath(cacheRoot, row.path);
      const stats = path === undefined ? undefined : await statOrUndefined(path);
      if (row !== undefined && path !== undefined && stats?.ino.toString() === inode && isPlaceholder(path)) {
        const handle = await open(path, 'r+');
        try {
          // Emptied, then as long as the row says: sparse again, none of the half download kept.
          await handle.truncate(0);
          await handle.truncate(row.size);
          if (row.localMtimeNs !== null) placeholderAttributes().setMtimeNs(handle.fd, row.localMtimeNs);
          putBack += 1;
        } finally {
          await handle.close();
        }
      }
      await this.end(inode);
    }
    return putBack;
  }
}
