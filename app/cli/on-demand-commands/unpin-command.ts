// `mch-sync unpin PATH…`: no longer keep files of an on-demand folder here whatever the cache limit (their content stays until freed).
import { updatePairOnDemand, type PinnedItem } from '../../profile/pair-on-demand.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { onDemandPlaceOf, pinOf, pinsWithin, shownItem, type OnDemandPlace } from './on-demand-place.ts';

export const UNPIN_USAGE = `Usage: mch-sync [--profile DIR] unpin PATH... [--json]

Stops keeping files of an on-demand folder on this computer: the pins at or below each PATH (a file or
a folder inside the folder; the folder itself: every pin) are removed. Nothing is deleted or freed:
what is here stays until \`mch-sync free\` or the cache limit frees it, and new files below come down
as placeholders again.

Options:
  --json       {"folder", "unpinned": [PATH]}
  -h, --help   show this help

Exit codes: 0 done (or nothing was pinned there), 2 a PATH outside an on-demand folder, not synced
yet, or kept by a pinned folder above it (nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

/** The pins at or below the items of `place`; refused when a pinned folder above one keeps it. */
export function pinsToRemove(place: OnDemandPlace, usage: string): PinnedItem[] {
  const removed = new Map<string, PinnedItem>();
  for (const item of place.items) {
    const keeper = pinOf(place, item);
    if (keeper !== undefined && keeper.id !== item.id) {
      throw new UsageError(
        `${shownItem(place, item.path)} is kept because ${shownItem(place, keeper.path)} is pinned: unpin that folder (nothing changed).`,
        usage,
      );
    }
    for (const pin of pinsWithin(place, item)) removed.set(pin.id, pin);
  }
  return [...removed.values()];
}

/** Writes the record without `removed` (nothing when empty). */
export async function removePins(
  context: CommandContext,
  place: OnDemandPlace,
  removed: readonly PinnedItem[],
): Promise<void> {
  if (removed.length === 0) return;
  const ids = new Set(removed.map((pin) => pin.id));
  await updatePairOnDemand(context.profileDir, place.pair.localRoot, (onDemand) =>
    onDemand === undefined
      ? undefined
      : { ...onDemand, pinned: onDemand.pinned.filter((pin) => !ids.has(pin.id)) },
  );
}

export async function runUnpin(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const place = await onDemandPlaceOf(context, args, UNPIN_USAGE);
  const removed = pinsToRemove(place, UNPIN_USAGE);
  await removePins(context, place, removed);
  const paths = removed.map((pin) => place.pinnedPaths.get(pin.id) ?? pin.path);
  if (values['json'] === true) {
    context.print(JSON.stringify({ folder: place.pair.localRoot, unpinned: paths }, null, 2));
    return 0;
  }
  if (paths.length === 0) {
    context.print('Nothing there was pinned; nothing changed.');
    return 0;
  }
  for (const path of paths) context.print(`${shownItem(place, path)} is no longer pinned.`);
  context.print('What is on this computer stays until freed (`mch-sync free`, or the cache limit).');
  return 0;
}
