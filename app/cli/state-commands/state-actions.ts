// What `mch-sync run` does for the file manager's entries (the state socket's `act`): the commands' own work, run in this process.
import { MchError } from '../../../common/errors.ts';
import type { FileStateAction } from '../../../common/file-state.ts';
import { StateError } from '../../file-state/state-errors.ts';
import type { StateActions } from '../../file-state/state-service.ts';
import { runFree } from '../on-demand-commands/free-command.ts';
import { runPin } from '../on-demand-commands/pin-command.ts';
import { runUnpin } from '../on-demand-commands/unpin-command.ts';
import { runExclude } from '../selection-commands/exclude-command.ts';
import { runInclude } from '../selection-commands/include-command.ts';
import { commandContext, type CommandContext } from '../terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;
type Run = (context: CommandContext, values: Values, args: string[]) => Promise<number>;

/**
 * Each entry runs what its command runs (`pin`, `free`, `exclude --remove-local`…) with the output
 * kept as the answer's words: one way to do each, whether asked here or in a terminal. The commands
 * reach this service through its control socket as they would from outside. `show` and `why` need a
 * window, which `mch-sync run` has not.
 */
export function commandStateActions(context: CommandContext): StateActions {
  return async (action: FileStateAction, paths: readonly string[]): Promise<string> => {
    switch (action) {
      case 'pin':
        return carryOut(context, runPin, {}, [paths]);
      case 'unpin':
        return carryOut(context, runUnpin, {}, [paths]);
      case 'free':
        return carryOut(context, runFree, {}, [paths]);
      // One folder a command: the commands take one PATH each.
      case 'include':
        return carryOut(
          context,
          runInclude,
          {},
          paths.map((path) => [path]),
        );
      case 'exclude':
        // Like "Stop syncing" elsewhere: the copy here goes to the trash once all of it is synced.
        return carryOut(
          context,
          runExclude,
          { 'remove-local': true },
          paths.map((path) => [path]),
        );
      case 'show':
      case 'why':
        throw new StateError(
          'STATE_NO_WINDOW',
          '`mch-sync run` has no window: open it with `mch-sync ui` (or the app), or ask `mch-sync status`.',
        );
    }
  };
}

async function carryOut(
  context: CommandContext,
  run: Run,
  values: Values,
  calls: ReadonlyArray<readonly string[]>,
): Promise<string> {
  const said: string[] = [];
  const complaints: string[] = [];
  const quiet = commandContext(
    {
      ...context.deps,
      stdout: (text) => said.push(text),
      stderr: (text) => complaints.push(text),
      terminal: undefined,
    },
    context.profileDir,
  );
  for (const args of calls) {
    let code: number;
    try {
      code = await run(quiet, values, [...args]);
    } catch (error) {
      const message = error instanceof MchError || error instanceof Error ? error.message : String(error);
      throw new StateError('STATE_ACTION_FAILED', message, { cause: error });
    }
    if (code !== 0) {
      const words = (complaints.join('') || said.join('')).replace(/^mch-sync: (error: )?/gm, '').trim();
      throw new StateError('STATE_ACTION_FAILED', firstParagraph(words));
    }
  }
  return said.join('').trim();
}

/** A usage error prints the usage after its message: the message is what the user needs. */
function firstParagraph(text: string): string {
  return text.split(/\n\s*\n/)[0] ?? text;
}
