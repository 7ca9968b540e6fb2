// Every contract call's handler, from the three groups (account, pairs, content), as one map for dispatch.
import type { ContractHandlers } from './dispatch.ts';
import { accountHandlers } from './account-handlers.ts';
import { contentHandlers } from './content-handlers.ts';
import { pairHandlers } from './pair-handlers.ts';
import type { UiCore } from './ui-core.ts';

export function contractHandlers(core: UiCore): ContractHandlers {
  return { ...accountHandlers(core), ...pairHandlers(core), ...contentHandlers(core) };
}
