// `mch-sync resume`: asks the paused live sync of a folder to sync again.
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { askFolderService, chooseFolder, ServiceCommandError } from './folder-service.ts';

export const RESUME_USAGE = `Usage: mch-sync [--profile DIR] resume [--folder DIR] [--confirm-deletes | --restore]

Resumes the live sync of a folder after \`mch-sync pause\`; it first catches up with what changed
meanwhile on both sides. When it is not paused, it syncs now.

Options:
  --folder DIR        the synced folder (default: the only folder this profile syncs)
  --confirm-deletes   answer the hold live sync waits on (\`mch-sync status\` says what it is): go ahead
                      with the deletes it holds; for an emptied folder, delete its items on the device
                      too; for a folder that is not the one synced, sync it as it is now
  --restore           answer it the other way: bring back what the deletes would remove; for a folder
                      or device that is not the one synced, keep everything on both sides
  -h, --help          show this help

Exit codes: 0 resumed or answered, 1 live sync is not running for the folder, did not answer, or waits
for no answer (nothing changed), 2 usage error.`;

export async function runResume(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const folder = chooseFolder(context, values, RESUME_USAGE);
  const confirm = values['confirm-deletes'] === true;
  const restore = values['restore'] === true;
  if (confirm && restore) {
    throw new UsageError(
      '--confirm-deletes and --restore are the two ways out of a hold: choose one.',
      RESUME_USAGE,
    );
  }
  const op = confirm ? 'confirm-deletes' : restore ? 'restore' : 'resume';
  const status = await askFolderService(context, folder, { op });
  if (status === undefined) {
    throw new ServiceCommandError(
      'SERVICE_NOT_RUNNING',
      `Live sync is not running for ${folder.localRoot}: start it with \`mch-sync run --folder ${folder.localRoot}\`.`,
    );
  }
  context.print(
    confirm
      ? `Going ahead with the held deletes in ${status.localRoot}.`
      : restore
        ? `Bringing the items of ${status.localRoot} back from the device.`
        : `Resumed live sync of ${status.localRoot} (${status.state}).`,
  );
  return 0;
}
