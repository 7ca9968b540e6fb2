// `mch-sync free PATH…`: Free up space: whole, synced files of an on-demand folder become placeholders again (the entries stay).
import { formatBytes } from '../../../common/units.ts';
import { openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { askService } from '../../live-service/control-client.ts';
import { ServiceRefusalError } from '../../live-service/control-errors.ts';
import type { FreeCounts } from '../../live-service/control-protocol.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { freeBelow, inPlaceFreeOne } from '../../on-demand/free-files.ts';
import { acquireFolderLock, folderLockPath } from '../../profile/folder-lock.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { onDemandPlaceOf, shownItem, type OnDemandPlace } from './on-demand-place.ts';
import { pinsToRemove, removePins } from './unpin-command.ts';

export const FREE_USAGE = `Usage: mch-sync [--profile DIR] free PATH... [--json]

Frees up space in an on-demand folder: every file at or below each PATH (a file or a folder inside the
folder; the folder itself: all) whose content is here becomes a placeholder again. Its entry stays,
with its name, size and time, and opening it downloads it again. Pins at or below PATH are removed
first. Only synced files are freed: one changed here and not synced yet is left as it is, and so is one
a program has open (try again once it is closed). Through live sync when it runs, else directly.

Options:
  --json       {"folder", "unpinned", "freed", "bytesFreed", "busy", "changed", "failed", "running"}
  -h, --help   show this help

Exit codes: 0 freed, 1 some files were left whole (open, changed, or failed), 2 a PATH outside an
on-demand folder, not synced yet, or kept by a pinned folder above it (nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

/** A free takes a file at a time; a big folder may take a while, and the service answers when done. */
const FREE_TIMEOUT_MS = 10 * 60_000;

export async function runFree(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const place = await onDemandPlaceOf(context, args, FREE_USAGE);
  const removed = pinsToRemove(place, FREE_USAGE);
  await removePins(context, place, removed);
  const paths = place.items.map((item) => item.path);
  const viaService = await freeThroughService(context, place, paths);
  const counts = viaService ?? (await freeHere(context, place, paths));
  const unpinned = removed.map((pin) => place.pinnedPaths.get(pin.id) ?? pin.path);
  const leftWhole = counts.busy.length + counts.changed.length + counts.failed.length;
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        { folder: place.pair.localRoot, unpinned, ...counts, running: viaService !== undefined },
        null,
        2,
      ),
    );
    return leftWhole > 0 ? 1 : 0;
  }
  for (const path of unpinned) context.print(`${shownItem(place, path)} is no longer pinned.`);
  context.print(
    `Freed ${counts.freed} ${counts.freed === 1 ? 'file' : 'files'} (${formatBytes(counts.bytesFreed)}): ` +
      'their entries stay, and opening one downloads it again.',
  );
  for (const path of counts.busy) context.print(`  open in a program, left whole: ${terminalSafe(path)}`);
  for (const path of counts.changed) {
    context.print(`  changed here and not synced yet, left whole: ${terminalSafe(path)}`);
  }
  for (const path of counts.failed) context.print(`  could not be freed: ${terminalSafe(path)}`);
  if (counts.busy.length > 0) context.print('Close the programs that have them open, then free again.');
  return leftWhole > 0 ? 1 : 0;
}

/** What the running live service freed; undefined when none runs. */
async function freeThroughService(
  context: CommandContext,
  place: OnDemandPlace,
  paths: string[],
): Promise<FreeCounts | undefined> {
  const signal = context.deps.signal;
  const answer = await askService(
    controlSocketPath(context.profileDir, place.pair.localRoot),
    { op: 'free', paths },
    { timeoutMs: FREE_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) },
  );
  if (answer === undefined) return undefined;
  if (!answer.ok) throw new ServiceRefusalError(answer.error);
  return answer.freed ?? { freed: 0, bytesFreed: 0, busy: [], changed: [], failed: [] };
}

/** No service runs: freed in place in the cache folder, under the pair's lock (no pass or mount meanwhile). */
async function freeHere(context: CommandContext, place: OnDemandPlace, paths: string[]): Promise<FreeCounts> {
  const lock = acquireFolderLock(folderLockPath(context.profileDir, place.pair.localRoot), {
    folder: place.pair.localRoot,
    profile: context.profileDir,
  });
  try {
    const db = openIndexDb(place.pair.indexPath);
    try {
      const cache = place.onDemand.cache;
      return await freeBelow(new IndexStore(db), cache, paths, inPlaceFreeOne(cache));
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
}
