// `mch-sync state PATH…`: each path's sync state as the file manager's emblems show it, from the running client or else the last sync.
import { resolve } from 'node:path';
import type { FileStateAnswer } from '../../../common/file-state.ts';
import { offlineStates } from '../../file-state/offline-states.ts';
import { connectStateServices, type StateConnection } from '../../file-state/state-client.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { stateWords } from './state-words.ts';

export const STATE_USAGE = `Usage: mch-sync [--profile DIR] state PATH... [--json]

Prints the sync state of each PATH, as the file manager's emblems show it: up to date, uploading or
downloading, waiting to sync, in conflict, not synced (and why), online only or kept on this computer
(files on demand), not synced here (selective sync), shared by a link, or not in a synced folder. A
folder shows the most urgent state below it. The running client (the app, \`mch-sync ui\` or
\`mch-sync run\`) answers; for a folder no client syncs now, its index tells the state its last sync
left (then what changed since reads "waiting to sync").

Options:
  --json       {"states": [{"path", "state", "kind", "shared", "folder", "onDemand", "reason", "code",
               "message", "from", "live"}]}: state is one of up-to-date, syncing-up, syncing-down,
               waiting, conflict, not-synced, online-only, kept, excluded, outside
  -h, --help   show this help

Exit codes: 0 every path answered (whatever its state), 2 no PATH given.`;

type Values = Record<string, string | boolean | undefined>;

/** An answer, and whether a running client gave it (false: from the index of the last sync). */
export type StateJson = FileStateAnswer & { live: boolean };

export async function runState(context: CommandContext, values: Values, args: string[]): Promise<number> {
  if (args.length === 0) throw new UsageError('Name at least one PATH.', STATE_USAGE);
  const paths = args.map((path) => resolve(path));
  const answers = await statesOf(context, paths);
  if (values['json'] === true) {
    context.print(JSON.stringify({ states: answers }, null, 2));
    return 0;
  }
  for (const answer of answers) context.print(`${answer.path}: ${stateWords(answer)}`);
  if (answers.some((answer) => !answer.live && answer.state !== 'outside')) {
    context.print('(No running mch-sync syncs some of these folders: their states are as of the last sync.)');
  }
  return 0;
}

async function statesOf(context: CommandContext, paths: readonly string[]): Promise<StateJson[]> {
  const services = await connectStateServices(context.profileDir);
  try {
    const found = new Map<string, StateJson>();
    for (const service of services) {
      const mine = paths.filter((path) => !found.has(path) && service.serves(path));
      for (const answer of await ask(service, mine)) found.set(answer.path, { ...answer, live: true });
    }
    const rest = paths.filter((path) => !found.has(path));
    if (rest.length > 0) {
      const pairs = await knownFolderPairs(context.profileDir, context.warn);
      for (const answer of offlineStates(context.profileDir, pairs, rest)) {
        found.set(answer.path, { ...neverSynced(answer, pairs), live: false });
      }
    }
    return paths.map(
      (path) => found.get(path) ?? { path, state: 'outside', kind: null, shared: false, live: false },
    );
  } finally {
    for (const service of services) service.close();
  }
}

async function ask(service: StateConnection, paths: string[]): Promise<FileStateAnswer[]> {
  if (paths.length === 0) return [];
  const reply = await service.request({ op: 'state', paths });
  return reply.type === 'answer' ? reply.states : [];
}

/** A path in a pair whose index does not exist yet (never synced): waiting, not outside. */
function neverSynced(answer: FileStateAnswer, pairs: ReadonlyArray<{ localRoot: string }>): FileStateAnswer {
  if (answer.state !== 'outside') return answer;
  const pair = pairs.find(
    (known) => answer.path === known.localRoot || answer.path.startsWith(`${known.localRoot}/`),
  );
  return pair === undefined ? answer : { ...answer, state: 'waiting', folder: pair.localRoot };
}
