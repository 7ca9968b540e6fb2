// `mch-sync include PATH`: sync a device folder to this computer again (or answer "sync it" for a new one).
import { includeFolder } from '../../selection/selection-change.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { openDeviceSession } from '../account-commands/device-session.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { applyNow, whenApplied } from './selection-applied.ts';
import { placeOf } from './selection-place.ts';

export const INCLUDE_USAGE = `Usage: mch-sync [--profile DIR] include PATH [--json]
       mch-sync [--profile DIR] include --folder DIR DEVICE-PATH [--json]

Syncs an excluded device folder to this computer again (selective sync), or answers "sync it" for a
new folder waiting for an answer. Its content comes down; a copy kept here meanwhile is merged (equal
files are kept as they are, a file that differs is kept beside the device's as a conflicted copy). A
folder inside an excluded one comes down alone: the folders beside it stay excluded.

Options:
  --folder DIR   the synced folder whose device folder DEVICE-PATH is in
  --json         {"changed", "folder", "path"}
  -h, --help     show this help`;

type Values = Record<string, string | boolean | undefined>;

export async function runInclude(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const place = await placeOf(context, values, args, INCLUDE_USAGE);
  const { client } = await openDeviceSession(context);
  const outcome = await includeFolder(client, context.profileDir, place.pair, place.path);
  const running = outcome.changed && (await applyNow(context, place.pair));
  if (values['json'] === true) {
    context.print(
      JSON.stringify({ changed: outcome.changed, folder: place.pair.localRoot, path: place.path }, null, 2),
    );
    return 0;
  }
  context.print(
    outcome.changed
      ? `${terminalSafe(place.path)} is synced to this computer again; ${whenApplied(running)}.`
      : `${terminalSafe(place.path)} is synced already; nothing changed.`,
  );
  return 0;
}
