// Which on-demand pair and which synced items `pin`, `unpin` and `free` mean: local paths inside a pair's folder, checked before anything changes.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAtOrBelow } from '../../model/selection.ts';
import { ancestorIds } from '../../index/ancestors.ts';
import { META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { findPairOf, type FolderPair } from '../../profile/folder-pairs.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { readPairOnDemand, type PairOnDemand, type PinnedItem } from '../../profile/pair-on-demand.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { withIndex } from '../sync-commands/folder-service.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';

/** A synced item of an on-demand pair: its path below the pair's folder ('' the folder itself) and device id. */
export interface OnDemandItem {
  path: string;
  id: string;
}

/** The paths given, all in one on-demand pair, each an item the index knows. */
export interface OnDemandPlace {
  pair: FolderPair;
  onDemand: PairOnDemand;
  items: OnDemandItem[];
  /** The device ids of each item's folders up to the pair's (the pair's own id last), for pins above it. */
  ancestors: Map<string, string[]>;
  /** Where each pinned item is now (its index row's path; the recorded path if the index lost it). */
  pinnedPaths: Map<string, string>;
}

/**
 * The pair and items of `args` (local paths). Refused, before anything is read further or changed: a
 * path in no pair, in a pair that is not on demand, in several pairs, or not synced yet.
 */
export async function onDemandPlaceOf(
  context: CommandContext,
  args: readonly string[],
  usage: string,
): Promise<OnDemandPlace> {
  if (args.length === 0 || args.some((given) => given === ''))
    throw new UsageError('Say which: a PATH.', usage);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  let pair: FolderPair | undefined;
  const paths: string[] = [];
  for (const given of args) {
    const found = findPairOf(pairs, given);
    if (found.kind !== 'inside') {
      throw new UsageError(
        `${terminalSafe(resolve(given))} is not inside a synced folder of this profile (see \`mch-sync folders list\`).`,
        usage,
      );
    }
    if (pair !== undefined && pair.localRoot !== found.place.pair.localRoot) {
      throw new UsageError('The paths are in different synced folders: give those of one at a time.', usage);
    }
    pair = found.place.pair;
    paths.push(found.place.relativePath);
  }
  if (pair === undefined) throw new UsageError('Say which: a PATH.', usage);
  const onDemand = readPairOnDemand(context.profileDir, pair.localRoot);
  if (onDemand === undefined) {
    throw new UsageError(
      `${terminalSafe(pair.localRoot)} is not on demand: every file of it is on this computer. To leave a folder off this computer, use \`mch-sync exclude\` (selective sync).`,
      usage,
    );
  }
  if (!existsSync(pair.indexPath)) throw notSynced(paths[0] ?? '', pair, usage);
  const chosen = pair;
  return withIndex(pair.indexPath, (index) => {
    const rootId = index.getMeta(META_REMOTE_ROOT);
    const items: OnDemandItem[] = [];
    const ancestors = new Map<string, string[]>();
    for (const path of paths) {
      const id = path === '' ? rootId : index.byPath(path)?.remoteId;
      if (id === undefined) throw notSynced(path, chosen, usage);
      items.push({ path, id });
      ancestors.set(id, path === '' ? [] : ancestorIds(index, id));
    }
    const pinnedPaths = new Map<string, string>();
    for (const pin of onDemand.pinned) {
      pinnedPaths.set(pin.id, pin.id === rootId ? '' : (index.get(pin.id)?.path ?? pin.path));
    }
    return { pair: chosen, onDemand, items, ancestors, pinnedPaths };
  });
}

function notSynced(path: string, pair: FolderPair, usage: string): UsageError {
  const what = path === '' ? terminalSafe(pair.localRoot) : terminalSafe(path);
  return new UsageError(
    `${what} is not synced yet (the index of ${terminalSafe(pair.localRoot)} does not know it): let \`mch-sync run\` sync it first.`,
    usage,
  );
}

/** The pinned item that keeps `item` (itself or a folder above it), if any. */
export function pinOf(place: OnDemandPlace, item: OnDemandItem): PinnedItem | undefined {
  const ids = [item.id, ...(place.ancestors.get(item.id) ?? [])];
  for (const id of ids) {
    const pin = place.onDemand.pinned.find((pinned) => pinned.id === id);
    if (pin !== undefined) return { id: pin.id, path: place.pinnedPaths.get(pin.id) ?? pin.path };
  }
  return undefined;
}

/** The pins at or below `item`: what unpinning it removes. */
export function pinsWithin(place: OnDemandPlace, item: OnDemandItem): PinnedItem[] {
  return place.onDemand.pinned.filter((pin) => {
    const path = place.pinnedPaths.get(pin.id) ?? pin.path;
    return item.path === '' || isAtOrBelow(path, item.path);
  });
}

/** How a path is shown: the pair's folder by its name, an item by its path below it. */
export function shownItem(place: OnDemandPlace, path: string): string {
  return terminalSafe(path === '' ? place.pair.localRoot : path);
}
