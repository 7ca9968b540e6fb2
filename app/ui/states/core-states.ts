// The window core's state service: one socket for every pair the core runs (the file managers' emblems and entries), its entries carried out by the core's own calls.
import { StateService } from '../../file-state/state-service.ts';
import type { HandlerCore } from '../handler-core.ts';
import { windowStateActions, type StateActionCore } from './window-state-actions.ts';

/**
 * Started once per core, across sign-ins and restarts of the pairs (each pair's service tracks itself
 * in it and is untracked when it stops). Without it sync goes on: a socket that cannot be made is
 * logged, and the file managers show no states.
 */
export async function startCoreStates(
  core: StateActionCore & Pick<HandlerCore, 'log'>,
): Promise<StateService | undefined> {
  let service: StateService | undefined;
  try {
    service = await StateService.start({
      profileDir: core.options.profileDir,
      actions: windowStateActions(core, (path) => service?.stateOf(path)),
      // The account's links, through the sharing session the Shares view uses.
      sharedIds: async () => {
        const shares = await (await core.connection().sharing()).list();
        return new Set(shares.flatMap((share) => share.fileIds));
      },
      log: (level, message) => core.log(level, message),
    });
    return service;
  } catch (error) {
    core.log(
      'warn',
      `file managers cannot show sync states (${error instanceof Error ? error.message : String(error)})`,
    );
    return undefined;
  }
}
