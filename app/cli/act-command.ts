// `mch-sync act ACTION PATH…`: a file manager's menu entry carried out by the running client that syncs the paths (Dolphin's and Thunar's entries run it).
import { resolve } from 'node:path';
import { FILE_STATE_ACTIONS, type FileStateAction } from '../../common/file-state.ts';
import { connectStateServices, type StateConnection } from '../file-state/state-client.ts';
import { StateError } from '../file-state/state-errors.ts';
import { notify } from '../system/notifications.ts';
import { UsageError, type CommandContext } from './terminal/cli-context.ts';

export const ACT_USAGE = `Usage: mch-sync [--profile DIR] act ACTION PATH... [--notify]

Asks the running mch-sync that syncs the paths (the app, \`mch-sync run\` or \`mch-sync ui\`) to do what a
file manager's menu entry does, and prints its answer. ACTION is one of:
  pin       keep on this device: download and keep (files on demand)
  unpin     no longer keep (the files stay until freed)
  free      free up space: the files stay listed, their content on the device only (files on demand)
  include   sync an excluded folder on this computer again
  exclude   stop syncing a folder on this computer (it stays on the device)
  show      show the item in the mch-sync window
  why       show in the window why the item is not synced

The file managers' entries (Dolphin, Thunar) run it with the selected paths and --notify. Without a
running mch-sync nothing is done: use pin, free, include and exclude as commands of their own then.

Options:
  --notify     also show the answer (or why it failed) as a desktop notification
  -h, --help   show this help

Exit codes: 0 done, 1 refused, or no running mch-sync syncs the paths, 2 usage error.`;

/** An action may take a while (a large folder to pin); the window opens at once. */
const ACT_TIMEOUT_MS = 120_000;

type Values = Record<string, string | boolean | undefined>;

/** Its entry in main.ts's table of commands. */
export const ACT_COMMAND = {
  usage: ACT_USAGE,
  options: { notify: { type: 'boolean' as const } },
  takesArguments: true,
  run: (context: CommandContext, values: Values, args: string[]): Promise<number> =>
    runAct(context, values, args),
};

export async function runAct(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const [action, ...given] = args;
  if (!isAction(action)) {
    throw new UsageError(`Give an ACTION: ${FILE_STATE_ACTIONS.join(', ')}.`, ACT_USAGE);
  }
  if (given.length === 0) throw new UsageError('Name at least one PATH.', ACT_USAGE);
  const paths = given.map((path) => resolve(path));
  const wantsNotice = values['notify'] === true;
  try {
    const words = await act(context, action, paths);
    // The window that show and why open says enough; the others have no other answer in Dolphin or Thunar.
    if (wantsNotice && action !== 'show' && action !== 'why') await tellPerson(context, 'mch-sync', words);
    return 0;
  } catch (error) {
    if (wantsNotice) await tellPerson(context, 'mch-sync could not do that', (error as Error).message);
    throw error;
  }
}

/** Sends the action to the client that syncs each path; the words it answered. */
async function act(context: CommandContext, action: FileStateAction, paths: string[]): Promise<string> {
  const services = await connectStateServices(context.profileDir, ACT_TIMEOUT_MS);
  try {
    if (services.length === 0) {
      throw new StateError(
        'STATE_NOT_SERVED',
        'No mch-sync is running for this profile: start mch-sync (the app, `mch-sync run` or `mch-sync ui`) first.',
      );
    }
    const groups = new Map<StateConnection, string[]>();
    for (const path of paths) {
      const service = servingOf(services, path);
      if (service === undefined) {
        throw new StateError(
          'STATE_NOT_SERVED',
          `${path} is not in a folder a running mch-sync syncs: start mch-sync for its folder (the app, \`mch-sync run\` or \`mch-sync ui\`) first.`,
        );
      }
      groups.set(service, [...(groups.get(service) ?? []), path]);
    }
    const words: string[] = [];
    for (const [service, mine] of groups) {
      // A refusal rejects with the service's words and code, which main reports (exit 1).
      const reply = await service.request({ op: 'act', action, paths: mine });
      if (reply.type === 'done') {
        context.print(reply.message);
        words.push(reply.message);
      }
    }
    return words.join(' ');
  } finally {
    for (const service of services) service.close();
  }
}

/** A notification that cannot be shown is a warning, never a failure of the action. */
async function tellPerson(context: CommandContext, title: string, body: string): Promise<void> {
  try {
    await notify({ title, body }, { env: context.deps.env });
  } catch (error) {
    context.warn(`no notification shown: ${(error as Error).message}`);
  }
}

function isAction(word: string | undefined): word is FileStateAction {
  return FILE_STATE_ACTIONS.some((action) => action === word);
}

/** The client whose deepest folder holds the path (two clients never sync the same folder). */
function servingOf(services: readonly StateConnection[], path: string): StateConnection | undefined {
  let best: { service: StateConnection; depth: number } | undefined;
  for (const service of services) {
    for (const folder of service.folders) {
      if (
        (path === folder || path.startsWith(`${folder}/`)) &&
        (best === undefined || folder.length > best.depth)
      ) {
        best = { service, depth: folder.length };
      }
    }
  }
  return best?.service;
}
