// A pair's files on demand in its profile record: where its cache folder is, what is kept here, and how much room it may take.
import { statSync } from 'node:fs';
import { join, resolve, isAbsolute } from 'node:path';
import { z } from 'zod';
import { folderKey } from '../index/index-db.ts';
import { pairFilePath, readPairRecord, type FolderPair } from './folder-pairs.ts';
import { ProfileError } from './profile-errors.ts';
import { writePrivateFileAtomic } from './private-file.ts';

/**
 * An on-demand pair: the user's folder (`localRoot`) is a mount of the cache folder, which the engine
 * syncs; device files are placeholders there until opened or kept (app/sync/local/placeholders.ts).
 */
export interface PairOnDemand {
  /** The cache folder (absolute): the engine's local root. */
  readonly cache: string;
  /** Content kept on this computer whatever the cache limit: device items by id, with their path when kept. */
  readonly pinned: readonly PinnedItem[];
  /** Above this many bytes of content, the least recently used unpinned files are freed; null: no limit. */
  readonly cacheLimitBytes: number | null;
  /**
   * The programs that never download (indexers, thumbnailers, file managers' previews): names or
   * patterns (`gvfsd*`, `*thumbnail*`) matched against the process name; absent: the mount's defaults.
   */
  readonly noDownload?: readonly string[];
}

export interface PinnedItem {
  /** Below the pair, as it was when pinned (shown to the user; the id is what counts). */
  readonly path: string;
  readonly id: string;
}

/** 10 GB: a laptop's spare room for what its user opened lately. Changed per pair in the settings. */
export const DEFAULT_CACHE_LIMIT_BYTES = 10_000_000_000;

const onDemandSchema = z.object({
  cache: z.string().refine(isAbsolute, { message: 'not an absolute path' }),
  pinned: z.array(z.object({ path: z.string(), id: z.string().min(1) })),
  cacheLimitBytes: z.number().int().positive().nullable(),
  noDownload: z.array(z.string().min(1).max(255)).max(1000).optional(),
});

/** Where a new on-demand pair's cache folder goes: `<profile>/on-demand/<folder key>`. */
export function defaultCacheFolder(profileDir: string, localRoot: string): string {
  return join(resolve(profileDir), 'on-demand', folderKey(resolve(localRoot)));
}

/** The folder the engine syncs for a pair: its cache folder when it is on demand, else the folder itself. */
export function syncRootOf(pair: Pick<FolderPair, 'localRoot'>, onDemand: PairOnDemand | undefined): string {
  return onDemand?.cache ?? pair.localRoot;
}

function onDemandOfRecord(
  record: Record<string, unknown> | undefined,
  path: string,
): PairOnDemand | undefined {
  const found = record?.['onDemand'];
  if (found === undefined || found === null) return undefined;
  const parsed = onDemandSchema.safeParse(found);
  if (!parsed.success) {
    // Taken for "not on demand", the engine would read the cache folder's placeholders as files.
    throw new ProfileError(
      `The files-on-demand setting of ${path} cannot be read (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}); ` +
        'fix its "onDemand" field.',
    );
  }
  return parsed.data;
}

/** The on-demand setting of the pair of `localRoot`; undefined for a pair that holds every file. */
export function readPairOnDemand(profileDir: string, localRoot: string): PairOnDemand | undefined {
  const path = pairFilePath(profileDir, resolve(localRoot));
  return onDemandOfRecord(readPairRecord(path), path);
}

/**
 * Changes the on-demand setting of a recorded pair (read, changed, written atomically); `change` gets
 * undefined for a pair not on demand and returns undefined to make it hold every file again.
 */
export async function updatePairOnDemand(
  profileDir: string,
  localRoot: string,
  change: (onDemand: PairOnDemand | undefined) => PairOnDemand | undefined,
): Promise<PairOnDemand | undefined> {
  const path = pairFilePath(profileDir, resolve(localRoot));
  const record = readPairRecord(path);
  if (record === undefined) {
    throw new ProfileError(`${localRoot} is not a synced folder of this profile (no record ${path}).`);
  }
  const next = change(onDemandOfRecord(record, path));
  const { onDemand: _old, ...rest } = record;
  const written = next === undefined ? rest : { ...rest, onDemand: onDemandSchema.parse(next) };
  await writePrivateFileAtomic(path, `${JSON.stringify(written, null, 2)}\n`);
  return next;
}

/**
 * The ids of the items the pair of `localRoot` keeps here, for the engine's questions: read again only
 * when the record changed (every write is a new file renamed into place, so inode, size and time tell).
 */
export function pinnedIdsReader(profileDir: string, localRoot: string): () => ReadonlySet<string> {
  const path = pairFilePath(profileDir, resolve(localRoot));
  let kept: { key: string; ids: ReadonlySet<string> } | undefined;
  return () => {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    const key = stats === undefined ? '' : `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    if (kept?.key !== key) {
      const onDemand = readPairOnDemand(profileDir, localRoot);
      kept = { key, ids: new Set(onDemand?.pinned.map((item) => item.id) ?? []) };
    }
    return kept.ids;
  };
}
