// `mch-sync conflicts`: the conflicts waiting to be settled, both sides of each with whose it is, its size and time.
import { formatBytes } from '../../../common/units.ts';
import { listConflicts, type ConflictSide } from '../../versions/conflict-list.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { readVersions } from './versions-access.ts';
import { placesOfFolder, userPath, type VersionsPlace } from './versions-place.ts';
import { counted, localTime } from './versions-words.ts';

export const CONFLICTS_USAGE = `Usage: mch-sync [--profile DIR] conflicts [--folder DIR] [--json]

Lists the conflicts waiting to be settled, newest first. A file changed both here and on the device
is kept as both: the device's version at its name, this computer's beside it as "NAME (conflicted
copy DATE TIME).EXT" (a copy another computer made is listed too). Each conflict shows both sides:
whose, size, modification time. Settle one with \`mch-sync resolve PATH --keep this|device|both\`; until
then both files sync as they are. A pair whose policy settles conflicts by itself (\`folders set
--conflicts newer|this|device\`) has none waiting.

Options:
  --folder DIR   only below DIR (a synced folder, or a folder in one); default every synced folder
  --json         [{"folder", "path", "copyPath", "madeAtMs", "madeHere", "copy": {"path", "size",
                 "mTimeMs", "from"}, "original": {...}}], paths absolute, "from" one of "this
                 computer", "another computer", "the device"
  -h, --help     show this help

Exit codes: 0 listed (none too), 1 failed, 2 usage error (a folder outside every synced folder).`;

type Values = Record<string, string | boolean | undefined>;

export interface SideJson {
  path: string;
  size: number;
  mTimeMs: number;
  from: string;
}

/** One conflict as `conflicts --json` prints it. */
export interface ConflictJson {
  folder: string;
  path: string;
  copyPath: string;
  madeAtMs: number;
  madeHere: boolean;
  copy: SideJson;
  original: SideJson;
}

export async function runConflicts(context: CommandContext, values: Values): Promise<number> {
  const places = await placesOfFolder(context, values['folder'], CONFLICTS_USAGE);
  const found: ConflictJson[] = [];
  for (const place of places) {
    const entries = (await readVersions(place, (pair) => listConflicts(pair, place.path))) ?? [];
    for (const entry of entries) {
      found.push({
        folder: place.pair.localRoot,
        path: userPath(place, entry.originalPath),
        copyPath: userPath(place, entry.copyPath),
        madeAtMs: entry.madeAtMs,
        madeHere: entry.madeHere,
        copy: sideJson(place, entry.copy),
        original: sideJson(place, entry.original),
      });
    }
  }
  found.sort((a, b) => b.madeAtMs - a.madeAtMs || a.copyPath.localeCompare(b.copyPath));
  if (values['json'] === true) {
    context.print(JSON.stringify(found, null, 2));
    return 0;
  }
  if (found.length === 0) {
    context.print('No conflict is waiting.');
    return 0;
  }
  for (const conflict of found) {
    context.print(terminalSafe(conflict.path));
    const width = Math.max(conflict.copy.from.length, conflict.original.from.length) + 1;
    for (const side of [conflict.copy, conflict.original]) {
      context.print(
        `  ${`${side.from}:`.padEnd(width)}  ${formatBytes(side.size).padStart(8)}, modified ${localTime(side.mTimeMs)}  ${terminalSafe(side.path)}`,
      );
    }
  }
  context.print(
    `${counted(found.length, 'conflict')} waiting. Settle one: mch-sync resolve PATH --keep this|device|both (PATH the file or its conflicted copy).`,
  );
  return 0;
}

function sideJson(place: VersionsPlace, side: ConflictSide): SideJson {
  return { path: userPath(place, side.path), size: side.size, mTimeMs: side.mTimeMs, from: side.from };
}
