// `mch-sync exclude PATH --remove-local|--keep-local`: leave a device folder off this computer, never deleting it on the device.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalCopyChoice } from '../../model/selection.ts';
import { excludeFolder } from '../../selection/selection-change.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { openDeviceSession } from '../account-commands/device-session.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { applyNow, whenApplied } from './selection-applied.ts';
import { placeOf } from './selection-place.ts';

export const EXCLUDE_USAGE = `Usage: mch-sync [--profile DIR] exclude PATH (--remove-local | --keep-local) [--json]
       mch-sync [--profile DIR] exclude --folder DIR DEVICE-PATH [--remove-local | --keep-local] [--json]

Stops syncing a device folder to this computer (selective sync). The folder stays on the device as it
is: mch-sync never changes or deletes anything in it, whatever happens on this computer. PATH is a
folder inside a synced folder; with --folder, DEVICE-PATH is the folder's path from the device's root
(as --remote-folder takes it), for folders that are not on this computer. A new folder waiting for an
answer is answered "do not sync".

Options:
  --remove-local   move the copy on this computer to the trash, once everything in it is synced
  --keep-local     keep the copy on this computer as it is, no longer synced (marked in the issues)
  --folder DIR     the synced folder whose device folder DEVICE-PATH is in
  --json           {"changed", "folder", "path", "localCopy"}
  -h, --help       show this help

One of --remove-local and --keep-local is needed when the folder is on this computer.`;

type Values = Record<string, string | boolean | undefined>;

export async function runExclude(context: CommandContext, values: Values, args: string[]): Promise<number> {
  if (values['remove-local'] === true && values['keep-local'] === true) {
    throw new UsageError('--remove-local and --keep-local are the two choices: say one.', EXCLUDE_USAGE);
  }
  const place = await placeOf(context, values, args, EXCLUDE_USAGE);
  const localCopy = join(place.pair.localRoot, place.path);
  const hasCopy = place.path !== '' && existsSync(localCopy);
  const choice: LocalCopyChoice | undefined =
    values['remove-local'] === true ? 'remove' : values['keep-local'] === true ? 'keep' : undefined;
  if (choice === undefined && hasCopy) {
    throw new UsageError(
      `${terminalSafe(localCopy)} is on this computer: say --remove-local (to the trash, once synced) or --keep-local (kept here, unsynced).`,
      EXCLUDE_USAGE,
    );
  }
  const { client } = await openDeviceSession(context);
  const outcome = await excludeFolder(client, context.profileDir, place.pair, place.path, choice ?? 'keep');
  const running = outcome.changed && (await applyNow(context, place.pair));
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        {
          changed: outcome.changed,
          folder: place.pair.localRoot,
          path: place.path,
          localCopy: choice ?? 'keep',
        },
        null,
        2,
      ),
    );
    return 0;
  }
  if (!outcome.changed) {
    context.print(`${terminalSafe(place.path)} is excluded already; nothing changed.`);
    return 0;
  }
  const local = !hasCopy
    ? 'nothing of it is on this computer'
    : choice === 'remove'
      ? `its copy here goes to the trash once everything in it is synced (${whenApplied(running)})`
      : `its copy here stays, no longer synced (${whenApplied(running)})`;
  context.print(
    `${terminalSafe(place.path)} is excluded from this computer and kept on the device; ${local}.`,
  );
  return 0;
}
