// The state service as a file manager meets it: a connection to the running client's socket, its pushes recorded, waits for a state.
import { join } from 'node:path';
import type { FileStateAnswer, FileSyncState } from '../../common/file-state.ts';
import { connectStateServices, type StateConnection } from '../../app/file-state/state-client.ts';
import { waitFor } from './on-demand-cli.ts';
import type { SignedInProfile } from './signed-in-profile.ts';

/** A subscribed connection to the client that serves `folder`, with every state it pushed. */
export interface Subscribed {
  connection: StateConnection;
  /** Every pushed answer, in order. */
  pushed: FileStateAnswer[];
  /** Resolves with the first pushed answer for `path` in one of `states` (counting those pushed already). */
  pushedState(path: string, ...states: FileSyncState[]): Promise<FileStateAnswer>;
  close(): void;
}

/** The running client's connection that serves `folder` (waits for it to say so). */
export async function serviceOf(profile: SignedInProfile, folder: string): Promise<StateConnection> {
  return waitFor(`a state service serving ${folder}`, async () => {
    const services = await connectStateServices(profile.profile);
    const found = services.find((service) => service.folders.includes(folder));
    for (const service of services) if (service !== found) service.close();
    return found;
  });
}

export async function subscribe(profile: SignedInProfile, folder: string): Promise<Subscribed> {
  const connection = await serviceOf(profile, folder);
  const pushed: FileStateAnswer[] = [];
  connection.onChanged((states) => pushed.push(...states));
  await connection.request({ op: 'subscribe' });
  return {
    connection,
    pushed,
    pushedState: async (path, ...states) => {
      try {
        return await waitFor(`a push of ${states.join(' or ')} for ${path}`, () =>
          pushed.find((answer) => answer.path === path && states.includes(answer.state)),
        );
      } catch (error) {
        const seen = pushed.filter((answer) => answer.path === path).map((answer) => answer.state);
        throw new Error(`${(error as Error).message}; pushed for it: ${seen.join(', ') || 'nothing'}`, {
          cause: error,
        });
      }
    },
    close: () => connection.close(),
  };
}

/** The states of `paths` (relative to `folder`) as the service answers them now. */
export async function statesNow(
  connection: StateConnection,
  folder: string,
  paths: readonly string[],
): Promise<FileStateAnswer[]> {
  const reply = await connection.request({ op: 'state', paths: paths.map((path) => join(folder, path)) });
  if (reply.type !== 'answer') throw new Error(`not an answer: ${JSON.stringify(reply)}`);
  return reply.states;
}

/** Waits until the service answers `state` for `path` (relative to `folder`). */
export async function stateBecomes(
  connection: StateConnection,
  folder: string,
  path: string,
  state: FileSyncState,
): Promise<FileStateAnswer> {
  return waitFor(`${path} to be ${state}`, async () => {
    const [answer] = await statesNow(connection, folder, [path]);
    return answer?.state === state ? answer : undefined;
  });
}
