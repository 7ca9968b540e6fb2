// The folder pairs a profile syncs, one small JSON file each under `<profile>/folders/`, so that a command given only a path (and the file-manager entries) find its pair.
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { folderKey, indexFilePath } from '../index/index-db.ts';
import { ensurePrivateDir, writePrivateFileAtomic } from './private-file.ts';
import { ProfileError } from './profile-errors.ts';

/** The folder below the profile that holds one `<key>.json` per pair (the key of the pair's index file). */
export const FOLDER_PAIRS_DIR = 'folders';

/** The name of the state folder inside a synced folder; nothing in it is ever synced or shared. */
export const STATE_FOLDER_NAME = '.mch-sync';

export interface FolderPair {
  /** The absolute local folder, as given to `mch-sync run` (resolved, not through links). */
  localRoot: string;
  /** The device folder, a slash path from the device root (`/Photos`). */
  remoteFolder: string;
  /** The pair's SQLite index. */
  indexPath: string;
}

// The file format is read by the file-manager extensions too (Python): keep it flat and versioned.
const pairFileSchema = z.looseObject({
  version: z.literal(1),
  localRoot: z.string().refine(isAbsolute, { message: 'not an absolute path' }),
  remoteFolder: z.string().startsWith('/'),
  indexPath: z.string().refine(isAbsolute, { message: 'not an absolute path' }),
});

export function folderPairsDir(profileDir: string): string {
  return join(profileDir, FOLDER_PAIRS_DIR);
}

/** The record of the pair of `localRoot` (resolved). */
export function pairFilePath(profileDir: string, localRoot: string): string {
  return join(folderPairsDir(profileDir), `${folderKey(localRoot)}.json`);
}

/**
 * Records (or updates) the pair of `localRoot`. One file per pair, written atomically: two runs of
 * different folders starting at once never lose each other's entry, as one shared file could.
 */
export async function registerFolderPair(
  profileDir: string,
  pair: { localRoot: string; remoteFolder: string },
): Promise<FolderPair> {
  const localRoot = resolve(pair.localRoot);
  const recorded: FolderPair = {
    localRoot,
    remoteFolder: pair.remoteFolder,
    indexPath: indexFilePath(profileDir, localRoot),
  };
  await ensurePrivateDir(folderPairsDir(profileDir));
  const path = pairFilePath(profileDir, localRoot);
  // What else the record holds (the pair's selection) stays as it is.
  const kept = recordedExtras(path);
  const text = `${JSON.stringify({ ...kept, version: 1, ...recorded }, null, 2)}\n`;
  await writePrivateFileAtomic(path, text);
  return recorded;
}

/** The fields of an existing record beyond the pair itself; none when there is no readable record. */
function recordedExtras(path: string): Record<string, unknown> {
  try {
    const found: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof found !== 'object' || found === null || Array.isArray(found)) return {};
    const {
      version: _version,
      localRoot: _l,
      remoteFolder: _r,
      indexPath: _i,
      ...extras
    } = found as Record<string, unknown>;
    return extras;
  } catch {
    return {};
  }
}

/** Takes back a record just written (its pair never synced): the index, if any, is left alone. */
export function unregisterFolderPair(profileDir: string, localRoot: string): void {
  rmSync(pairFilePath(profileDir, resolve(localRoot)), { force: true });
}

/**
 * Forgets the pair of `localRoot` and deletes its index (with SQLite's side files), so that the folder
 * can later be paired again, with any device folder; false when no pair was recorded. The caller has
 * stopped its sync.
 */
export function forgetFolderPair(profileDir: string, localRoot: string): boolean {
  const path = pairFilePath(profileDir, resolve(localRoot));
  const indexPath = indexFilePath(profileDir, resolve(localRoot));
  for (const file of [indexPath, `${indexPath}-wal`, `${indexPath}-shm`]) rmSync(file, { force: true });
  try {
    rmSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Every recorded pair, sorted by folder. A damaged file is skipped with a warning (it names the file
 * to delete); it never hides the other pairs.
 */
export function listFolderPairs(profileDir: string, warn: (message: string) => void): FolderPair[] {
  const dir = folderPairsDir(profileDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^[0-9a-f]{16}\.json$/.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const pairs: FolderPair[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const parsed = pairFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (!parsed.success) throw new Error(z.prettifyError(parsed.error).replace(/\n/g, ' '));
      const { localRoot, remoteFolder, indexPath } = parsed.data;
      pairs.push({ localRoot, remoteFolder, indexPath });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed by another process between the listing and the read: simply not a pair any more.
      if (code === 'ENOENT') continue;
      warn(`skipped ${path} (${(error as Error).message}); delete it and run \`mch-sync run\` again.`);
    }
  }
  return pairs.sort((a, b) => (a.localRoot < b.localRoot ? -1 : a.localRoot > b.localRoot ? 1 : 0));
}

/** Where a path lies in a pair: the pair and the path inside it (`''` for the folder itself, `/` separators). */
export interface PlaceInPair {
  pair: FolderPair;
  relativePath: string;
}

export type PairLookup =
  | { kind: 'inside'; place: PlaceInPair }
  /** Inside a pair, but in its `.mch-sync` state folder. */
  | { kind: 'state-folder'; pair: FolderPair }
  | { kind: 'outside' };

/**
 * Which pair `path` belongs to. The path and the pairs' folders are compared both as given and with
 * links resolved (a file manager may show a folder through a link); the deepest folder wins, so a pair
 * nested in another keeps its own items.
 */
export function findPairOf(pairs: readonly FolderPair[], path: string): PairLookup {
  const candidates = uniqueForms(resolve(path));
  let best: { pair: FolderPair; relativePath: string; depth: number } | undefined;
  for (const pair of pairs) {
    for (const root of uniqueForms(pair.localRoot)) {
      for (const candidate of candidates) {
        const inside = relative(root, candidate);
        if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) continue;
        const depth = root.length;
        if (best === undefined || depth > best.depth) {
          best = { pair, relativePath: inside.split(sep).join('/'), depth };
        }
      }
    }
  }
  if (best === undefined) return { kind: 'outside' };
  const segments = best.relativePath === '' ? [] : best.relativePath.split('/');
  if (segments.includes(STATE_FOLDER_NAME)) return { kind: 'state-folder', pair: best.pair };
  return { kind: 'inside', place: { pair: best.pair, relativePath: best.relativePath } };
}

/** The path as given and with its links resolved (when it exists), without repeats. */
function uniqueForms(path: string): string[] {
  try {
    const real = realpathSync.native(path);
    return real === path ? [path] : [path, real];
  } catch {
    // A path that does not exist (yet) can still be inside a pair; it is looked up as given.
    return [path];
  }
}

/** A pair's record as JSON; undefined when there is none. Its fields are read by their own modules. */
export function readPairRecord(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ProfileError(`The folder pair's record ${path} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
