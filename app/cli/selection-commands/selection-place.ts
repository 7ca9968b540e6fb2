// Which pair and which device folder a selection command means: a local path inside a pair, or `--folder F` and a device path.
import { resolve } from 'node:path';
import { nameKey } from '../../model/items.ts';
import { findPairOf, type FolderPair } from '../../profile/folder-pairs.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { SelectionError } from '../../selection/selection-errors.ts';
import { remoteFolderSegments, RemoteFolderError } from '../../sync/remote/remote-folder.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;

/** A folder of a pair, below the pair's device folder ('' is the pair's folder itself). */
export interface SelectionPlace {
  pair: FolderPair;
  path: string;
}

/** The recorded pair of `--folder` (a usage error when the folder is not a pair of this profile). */
export async function pairOfFolder(
  context: CommandContext,
  folder: string,
  usage: string,
): Promise<FolderPair> {
  const localRoot = resolve(folder);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const pair = pairs.find((known) => known.localRoot === localRoot);
  if (pair === undefined) {
    throw new UsageError(
      `${terminalSafe(localRoot)} is not a synced folder of this profile (see \`mch-sync folders list\`).`,
      usage,
    );
  }
  return pair;
}

/**
 * `PATH` alone: a local path inside a pair. `--folder F PATH`: PATH is a device path from the device's
 * root (as `--remote-folder` takes it), inside the pair's device folder.
 */
export async function placeOf(
  context: CommandContext,
  values: Values,
  args: readonly string[],
  usage: string,
): Promise<SelectionPlace> {
  const [given, ...extra] = args;
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${terminalSafe(extra[0] ?? '')}".`, usage);
  if (given === undefined || given === '') throw new UsageError('Say which folder: a PATH.', usage);
  const folder = values['folder'];
  if (typeof folder === 'string')
    return devicePlace(await pairOfFolder(context, folder, usage), given, usage);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const found = findPairOf(pairs, given);
  if (found.kind !== 'inside') {
    throw new SelectionError(
      'SELECTION_PATH_OUTSIDE',
      `${terminalSafe(resolve(given))} is not inside a synced folder of this profile; for a device folder, give --folder and its device path.`,
    );
  }
  return { pair: found.place.pair, path: found.place.relativePath };
}

function devicePlace(pair: FolderPair, devicePath: string, usage: string): SelectionPlace {
  let segments: string[];
  let pairSegments: string[];
  try {
    segments = remoteFolderSegments(devicePath);
    pairSegments = remoteFolderSegments(pair.remoteFolder);
  } catch (error) {
    if (error instanceof RemoteFolderError) throw new UsageError(error.message, usage);
    throw error;
  }
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new UsageError(
      `The device path must not contain "." or ".." (got ${terminalSafe(devicePath)}).`,
      usage,
    );
  }
  const inside =
    segments.length >= pairSegments.length &&
    pairSegments.every((segment, at) => nameKey(segment) === nameKey(segments[at] ?? ''));
  if (!inside) {
    throw new SelectionError(
      'SELECTION_PATH_OUTSIDE',
      `${terminalSafe(devicePath)} is not inside ${terminalSafe(pair.remoteFolder)}, the device folder of ${terminalSafe(pair.localRoot)}.`,
    );
  }
  return { pair, path: segments.slice(pairSegments.length).join('/') };
}
