// Every contract call's handler, from the groups (account, pairs with their selective sync and files on demand, versions and conflicts, content, network), as one map for dispatch, each failure worded for the window.
import { INVOKE_NAMES, type InvokeName } from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import type { ContractHandlers } from './dispatch.ts';
import { accountHandlers } from './account-handlers.ts';
import { contentHandlers } from './content-handlers.ts';
import { networkHandlers } from './network/network-handlers.ts';
import { pairHandlers } from './pairs/pair-handlers.ts';
import { pairOnDemandHandlers } from './pairs/pair-on-demand-handlers.ts';
import { pairSelectionHandlers } from './pairs/pair-selection-handlers.ts';
import { windowErrorOf } from './ui-errors.ts';
import { conflictHandlers } from './versions/conflict-handlers.ts';
import { policyHandlers } from './versions/policy-handlers.ts';
import { versionHandlers } from './versions/version-handlers.ts';
import type { HandlerCore } from './handler-core.ts';
import { describeFailure } from './window-log.ts';

export function contractHandlers(core: HandlerCore): ContractHandlers {
  return guarded(
    {
      ...accountHandlers(core),
      ...pairHandlers(core),
      ...pairSelectionHandlers(core),
      ...pairOnDemandHandlers(core),
      ...versionHandlers(core),
      ...conflictHandlers(core),
      ...policyHandlers(core),
      ...contentHandlers(core),
      ...networkHandlers(core.auth),
    },
    core,
  );
}

type AnyHandler = (request: unknown) => Promise<unknown>;

/**
 * Each handler, its failures in the window's words (ui-errors.ts). One that is not an MchError is
 * written whole (stack included) to the window's log, which the error names: the window never shows
 * a stack, and the log Settings points to has it.
 */
function guarded(handlers: ContractHandlers, core: HandlerCore): ContractHandlers {
  const wrapped: Partial<Record<InvokeName, AnyHandler>> = {};
  for (const name of INVOKE_NAMES) {
    const handler = handlers[name] as AnyHandler;
    wrapped[name] = async (request) => {
      try {
        return await handler(request);
      } catch (error) {
        if (!(error instanceof MchError)) core.log('error', `${name} failed: ${describeFailure(error)}`);
        throw windowErrorOf(error, { call: name, configUrl: configUrlOf(request), logFile: core.logFile });
      }
    };
  }
  return wrapped as ContractHandlers;
}

function configUrlOf(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const value = (request as Record<string, unknown>)['configUrl'];
  return typeof value === 'string' ? value : undefined;
}
