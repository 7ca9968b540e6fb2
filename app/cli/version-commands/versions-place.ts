// Which pair a versions command means: a PATH (absolute, or relative to the working folder; in an on-demand pair's folder too) as its pair, its path in the pair, and the folder that holds the pair's versions.
import { join, resolve } from 'node:path';
import { findPairOf, type FolderPair } from '../../profile/folder-pairs.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { readPairOnDemand, syncRootOf } from '../../profile/pair-on-demand.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';

/** A pair as the versions see it. */
export interface VersionsPair {
  pair: FolderPair;
  /**
   * The folder the engine syncs, whose `.mch-sync/versions` holds the versions: the pair's folder, or
   * an on-demand pair's cache folder (its folder is a mount of it, or empty while live sync is stopped).
   */
  syncRoot: string;
}

/** A place in a pair: its path below the pair's folder ('' the folder itself). */
export interface VersionsPlace extends VersionsPair {
  path: string;
}

function versionsPairOf(context: CommandContext, pair: FolderPair): VersionsPair {
  return { pair, syncRoot: syncRootOf(pair, readPairOnDemand(context.profileDir, pair.localRoot)) };
}

/**
 * The pair and path of `given`; refused (exit 2, nothing read further) when it is in no pair or in a
 * pair's own `.mch-sync` folder.
 */
export async function placeOfPath(
  context: CommandContext,
  given: string | undefined,
  usage: string,
  what = 'PATH',
): Promise<VersionsPlace> {
  if (given === undefined || given === '') throw new UsageError(`Say which file: a ${what}.`, usage);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const found = findPairOf(pairs, given);
  if (found.kind === 'state-folder') {
    throw new UsageError(
      `${terminalSafe(resolve(given))} is in the client's own .mch-sync folder: give the file's path in ${terminalSafe(found.pair.localRoot)}.`,
      usage,
    );
  }
  if (found.kind === 'outside') {
    throw new UsageError(
      `${terminalSafe(resolve(given))} is not inside a synced folder of this profile (see \`mch-sync folders list\`).`,
      usage,
    );
  }
  return { ...versionsPairOf(context, found.place.pair), path: found.place.relativePath };
}

/**
 * `--folder DIR` (a synced folder, or a folder inside one: only what is below it), else every pair of
 * the profile, each at ''.
 */
export async function placesOfFolder(
  context: CommandContext,
  folder: string | boolean | undefined,
  usage: string,
): Promise<VersionsPlace[]> {
  if (typeof folder === 'string') return [await placeOfPath(context, folder, usage, 'folder')];
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  return pairs.map((pair) => ({ ...versionsPairOf(context, pair), path: '' }));
}

/** `--folder DIR` as a whole synced folder, else the profile's only one (a usage error that lists several). */
export async function wholePairOf(
  context: CommandContext,
  folder: string | boolean | undefined,
  usage: string,
): Promise<VersionsPair> {
  if (typeof folder === 'string') {
    const place = await placeOfPath(context, folder, usage, 'folder');
    if (place.path !== '') {
      throw new UsageError(
        `${terminalSafe(resolve(folder))} is inside ${terminalSafe(place.pair.localRoot)}: give the synced folder itself.`,
        usage,
      );
    }
    return place;
  }
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const [only] = pairs;
  if (only === undefined) throw new UsageError('This profile syncs no folder yet.', usage);
  if (pairs.length > 1) {
    const list = pairs.map((pair) => `  ${terminalSafe(pair.localRoot)}`).join('\n');
    throw new UsageError(`This profile syncs several folders; choose one with --folder:\n${list}`, usage);
  }
  return versionsPairOf(context, only);
}

/** The path as the user knows it: in the pair's folder (never an on-demand pair's cache folder). */
export function userPath(pair: Pick<VersionsPair, 'pair'>, path: string): string {
  return path === '' ? pair.pair.localRoot : join(pair.pair.localRoot, ...path.split('/'));
}

/** Where `--to DEST` puts a version, and the pair it lands in (undefined: outside every pair). */
export interface Destination {
  /** Where the file goes: DEST resolved, or the same place in an on-demand pair's cache folder. */
  absolute: string;
  /** DEST as the user knows it. */
  shown: string;
  pair: FolderPair | undefined;
}

/**
 * Where `--to DEST` puts a version: DEST resolved, and inside an on-demand pair's folder the same place
 * in its cache folder (a rename there, not a copy through the mount). Refused in a `.mch-sync` folder.
 */
export async function destinationOf(
  context: CommandContext,
  given: string,
  usage: string,
): Promise<Destination> {
  if (given === '') throw new UsageError('--to needs a path.', usage);
  const shown = resolve(given);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const found = findPairOf(pairs, given);
  if (found.kind === 'state-folder') {
    throw new UsageError(
      `--to ${terminalSafe(shown)} is in the client's own .mch-sync folder: choose another place.`,
      usage,
    );
  }
  if (found.kind === 'outside') return { absolute: shown, shown, pair: undefined };
  const { pair, relativePath } = found.place;
  if (relativePath === '') return { absolute: shown, shown, pair };
  const { syncRoot } = versionsPairOf(context, pair);
  return { absolute: join(syncRoot, ...relativePath.split('/')), shown, pair };
}
