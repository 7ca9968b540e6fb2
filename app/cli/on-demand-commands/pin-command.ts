// `mch-sync pin PATH…`: keep files of an on-demand folder on this computer (downloaded whole, and what arrives later below a pinned folder).
import { updatePairOnDemand, type PinnedItem } from '../../profile/pair-on-demand.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { applyNow } from '../selection-commands/selection-applied.ts';
import { onDemandPlaceOf, pinOf, shownItem } from './on-demand-place.ts';

export const PIN_USAGE = `Usage: mch-sync [--profile DIR] pin PATH... [--json]

Keeps files of an on-demand folder on this computer ("Keep on this device"): each PATH, a file or a
folder inside the folder (the folder itself: everything), is downloaded whole, and so is every file
that arrives later below a pinned folder. Pinned files are never freed by the cache limit. Live sync
downloads them now when it runs; otherwise the next \`mch-sync run\` does.

Options:
  --json       {"folder", "pinned": [PATH], "already": [{"path", "by"}], "running"}
  -h, --help   show this help

Exit codes: 0 pinned (or pinned already), 2 a PATH outside an on-demand folder or not synced yet
(nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

export async function runPin(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const place = await onDemandPlaceOf(context, args, PIN_USAGE);
  const added: PinnedItem[] = [];
  const already: Array<{ path: string; by: string }> = [];
  for (const item of place.items) {
    const pin = pinOf(place, item) ?? added.find((pinned) => pinned.id === item.id);
    if (pin === undefined) added.push({ path: item.path, id: item.id });
    else already.push({ path: item.path, by: pin.path });
  }
  if (added.length > 0) {
    await updatePairOnDemand(context.profileDir, place.pair.localRoot, (onDemand) =>
      onDemand === undefined ? undefined : { ...onDemand, pinned: [...onDemand.pinned, ...added] },
    );
  }
  const running = added.length > 0 && (await applyNow(context, place.pair));
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        { folder: place.pair.localRoot, pinned: added.map((pin) => pin.path), already, running },
        null,
        2,
      ),
    );
    return 0;
  }
  for (const { path, by } of already) {
    context.print(
      by === path
        ? `${shownItem(place, path)} is pinned already.`
        : `${shownItem(place, path)} is kept already: ${shownItem(place, by)} is pinned.`,
    );
  }
  if (added.length > 0) {
    const when = running
      ? 'live sync downloads what is not here yet now'
      : 'the next `mch-sync run` downloads what is not here yet';
    for (const pin of added) context.print(`${shownItem(place, pin.path)} is kept on this computer.`);
    context.print(`Pinned: ${when}.`);
  }
  return 0;
}
