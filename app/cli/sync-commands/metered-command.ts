// `mch-sync metered`: whether a folder syncs on metered networks (a phone's hotspot) or waits for another.
import { readPairMetered, updatePairMetered, type MeteredChoice } from '../../profile/pair-metered.ts';
import { pairFilePath, readPairRecord } from '../../profile/folder-pairs.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { askFolderService, chooseFolder, ServiceCommandError } from './folder-service.ts';

export const METERED_USAGE = `Usage: mch-sync [--profile DIR] metered [--folder DIR] [sync | pause]

What live sync of a folder does on a metered network (NetworkManager's "metered" connections on
Linux: a phone's hotspot, a connection marked so). \`pause\` (the default) waits until the network is
not metered; \`sync\` syncs on any network. Without a word, says which one the folder uses. A running
live sync follows the change at once.

Options:
  --folder DIR   the synced folder (default: the only folder this profile syncs)
  -h, --help     show this help

Exit codes: 0 done, 1 the folder is not a synced folder of this profile, 2 usage error.`;

export async function runMetered(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
  args: string[],
): Promise<number> {
  if (args.length > 1 || (args[0] !== undefined && args[0] !== 'sync' && args[0] !== 'pause')) {
    throw new UsageError(`Give sync or pause (not ${JSON.stringify(args.join(' '))}).`, METERED_USAGE);
  }
  const choice = args[0];
  const folder = chooseFolder(context, values, METERED_USAGE);
  if (choice === undefined) {
    context.print(`${folder.localRoot}: ${words(readPairMetered(context.profileDir, folder.localRoot))}`);
    return 0;
  }
  if (readPairRecord(pairFilePath(context.profileDir, folder.localRoot)) === undefined) {
    throw new ServiceCommandError(
      'NO_SYNCED_FOLDER',
      `${folder.localRoot} is not a synced folder of this profile: nothing changed.`,
    );
  }
  await updatePairMetered(context.profileDir, folder.localRoot, choice);
  const running = await askFolderService(context, folder, { op: 'metered', sync: choice === 'sync' });
  context.print(
    `${folder.localRoot}: ${words(choice)}${running === undefined ? ' (from its next run)' : ` (live sync: ${running.state})`}.`,
  );
  return 0;
}

function words(choice: MeteredChoice): string {
  return choice === 'sync' ? 'syncs on metered networks too' : 'pauses on metered networks';
}
