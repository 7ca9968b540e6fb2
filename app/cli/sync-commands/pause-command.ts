// `mch-sync pause`: asks the running live sync of a folder to stop syncing until `resume`.
import type { CommandContext } from '../terminal/cli-context.ts';
import { askFolderService, chooseFolder, ServiceCommandError } from './folder-service.ts';

export const PAUSE_USAGE = `Usage: mch-sync [--profile DIR] pause [--folder DIR]

Pauses the running live sync of a folder: nothing is uploaded or downloaded until \`mch-sync resume\`.
Transfers under way stop; changes made meanwhile are synced after resuming.

Options:
  --folder DIR   the synced folder (default: the only folder this profile syncs)
  -h, --help     show this help

Exit codes: 0 paused, 1 live sync is not running for the folder (or did not answer), 2 usage error.`;

export async function runPause(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const folder = chooseFolder(context, values, PAUSE_USAGE);
  const status = await askFolderService(context, folder, { op: 'pause' });
  if (status === undefined) {
    throw new ServiceCommandError(
      'SERVICE_NOT_RUNNING',
      `Live sync is not running for ${folder.localRoot}: there is nothing to pause.`,
    );
  }
  context.print(`Paused live sync of ${status.localRoot}; \`mch-sync resume\` continues it.`);
  return 0;
}
