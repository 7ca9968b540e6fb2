// `mch-sync resume`: asks the paused live sync of a folder to sync again.
import { UsageError, type CommandContext } from './cli-context.ts';
import { askFolderService, chooseFolder, ServiceCommandError } from './status-command.ts';

export const RESUME_USAGE = `Usage: mch-sync [--profile DIR] resume [--folder DIR] [--confirm-deletes | --restore]

Resumes the live sync of a folder after \`mch-sync pause\`; it first catches up with what changed
meanwhile on both sides. When it is not paused, it syncs now.

Options:
  --folder DIR        the synced folder (default: the only folder this profile syncs)
  --confirm-deletes   go ahead with the deletes live sync is holding (\`mch-sync status\` says how many);
                      for an emptied folder, delete its items on the device too
  --restore           bring the items of an emptied folder back from the device
  -h, --help          show this help

Exit codes: 0 resumed, 1 live sync is not running for the folder (or did not answer), 2 usage error.`;

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
