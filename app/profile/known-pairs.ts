// Every folder pair of a profile: the recorded ones, and pairs synced before pairs were recorded (found from their indexes, then recorded).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openIndexDb } from '../index/index-db.ts';
import { IndexStore } from '../index/index-store.ts';
import { META_LOCAL_ROOT, META_REMOTE_FOLDER } from '../index/meta-keys.ts';
import { listFolderPairs, registerFolderPair, type FolderPair } from './folder-pairs.ts';

/**
 * The profile's pairs. An index with a paired folder but no recorded pair (a profile from before
 * pairs were recorded) is read and recorded, so the file-manager entries see it too.
 */
export async function knownFolderPairs(
  profileDir: string,
  warn: (message: string) => void,
): Promise<FolderPair[]> {
  const pairs = listFolderPairs(profileDir, warn);
  const covered = new Set(pairs.map((pair) => pair.indexPath));
  const dir = join(profileDir, 'index');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => /^[0-9a-f]{16}\.db$/.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let added = false;
  for (const name of names) {
    const indexPath = join(dir, name);
    if (covered.has(indexPath)) continue;
    try {
      const found = readPairing(indexPath);
      if (found === undefined) continue;
      await registerFolderPair(profileDir, found);
      added = true;
    } catch (error) {
      warn(`skipped the index ${indexPath}: ${(error as Error).message}`);
    }
  }
  return added ? listFolderPairs(profileDir, warn) : pairs;
}

/** The folders an index was paired with, or undefined when no pass paired it yet. */
function readPairing(indexPath: string): { localRoot: string; remoteFolder: string } | undefined {
  // openIndexDb would create a missing index.
  if (!existsSync(indexPath)) return undefined;
  const db = openIndexDb(indexPath);
  try {
    const store = new IndexStore(db);
    const localRoot = store.getMeta(META_LOCAL_ROOT);
    const remoteFolder = store.getMeta(META_REMOTE_FOLDER);
    return localRoot === undefined || remoteFolder === undefined ? undefined : { localRoot, remoteFolder };
  } finally {
    db.close();
  }
}
