// `mch-sync pause`: asks the running live sync of a folder to stop syncing until `resume`, or for a while.
import { pauseDeadline, untilWords } from '../../live-service/pause-state.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { askFolderService, chooseFolder, ServiceCommandError } from './folder-service.ts';

export const PAUSE_USAGE = `Usage: mch-sync [--profile DIR] pause [--folder DIR] [--for DURATION]

Pauses the running live sync of a folder: nothing is uploaded or downloaded until \`mch-sync resume\`,
or, with --for, until the time is up (it resumes by itself). Transfers under way stop; changes made
meanwhile are synced after resuming. A pause lasts while the service runs: a service started again
syncs at once.

Options:
  --folder DIR       the synced folder (default: the only folder this profile syncs)
  --for DURATION     how long: 30s, 30m, 1h, 2d (at most 30 days), or tomorrow (08:00 tomorrow
                     morning; before 08:00, this morning)
  -h, --help         show this help

Exit codes: 0 paused, 1 live sync is not running for the folder (or did not answer), 2 usage error.`;

export async function runPause(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const given = values['for'];
  // Checked before anything is asked: a bad duration changes nothing.
  const untilMs = typeof given === 'string' ? deadlineOf(given) : undefined;
  const folder = chooseFolder(context, values, PAUSE_USAGE);
  const status = await askFolderService(context, folder, {
    op: 'pause',
    ...(untilMs === undefined ? {} : { until: untilMs }),
  });
  if (status === undefined) {
    throw new ServiceCommandError(
      'SERVICE_NOT_RUNNING',
      `Live sync is not running for ${folder.localRoot}: there is nothing to pause.`,
    );
  }
  context.print(
    untilMs === undefined
      ? `Paused live sync of ${status.localRoot}; \`mch-sync resume\` continues it.`
      : `Paused live sync of ${status.localRoot} until ${untilWords(untilMs, Date.now())}; \`mch-sync resume\` continues it sooner.`,
  );
  return 0;
}

function deadlineOf(text: string): number {
  const untilMs = pauseDeadline(text, Date.now());
  if (untilMs === undefined) {
    throw new UsageError(
      `--for ${JSON.stringify(text)} is not a duration: give 30s, 30m, 1h, 2d (at most 30 days) or tomorrow.`,
      PAUSE_USAGE,
    );
  }
  return untilMs;
}
