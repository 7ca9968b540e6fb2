// One contract call at a host's boundary: the name and the request checked, the implementation called, every outcome turned into an InvokeResult.
import { z } from 'zod';
import {
  INVOKE_NAMES,
  type EventName,
  type EventPayload,
  type InvokeName,
  type InvokeResult,
  type UiError,
} from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import { REQUEST_SCHEMAS } from './contract-schemas.ts';
import { uiErrorOf } from './ui-errors.ts';

/** What implements the contract: one handler per call, given a checked request. */
export type ContractHandlers = {
  [N in InvokeName]: (request: z.output<(typeof REQUEST_SCHEMAS)[N]>) => Promise<unknown>;
};

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** What a host is given: the handlers to dispatch to, and the events to pass on. */
export interface ContractService {
  handlers: ContractHandlers;
  /** Returns the function that stops listening. */
  onEvent(listener: EventListener): () => void;
}

const NAMES: ReadonlySet<string> = new Set(INVOKE_NAMES);

export function isInvokeName(name: string): name is InvokeName {
  return NAMES.has(name);
}

/**
 * Calls `name` with `request` (anything a host received). An unknown name or a request that does not
 * match is a contract error; a failure of the implementation crosses as its code, title and message; a
 * failure that is not ours is `INTERNAL` with a message that says to look in the log (its details stay
 * here, through `onUnexpected`).
 */
export async function dispatch(
  handlers: ContractHandlers,
  name: string,
  request: unknown,
  onUnexpected: (error: unknown) => void = () => {},
): Promise<InvokeResult<unknown>> {
  if (!isInvokeName(name)) {
    return failure({
      code: 'CONTRACT_UNKNOWN_CALL',
      title: 'Unknown call',
      message: `There is no call "${name}".`,
    });
  }
  const parsed = REQUEST_SCHEMAS[name].safeParse(request);
  if (!parsed.success) {
    // A window sends what its forms allow: this is a fault of the window (or another caller), whose
    // schema words are for whoever fixes it.
    return failure({
      code: 'CONTRACT_BAD_REQUEST',
      title: 'Bad request',
      message: 'The window asked for something mch-sync cannot read. Reload the window and try again.',
      details: `The request of ${name} is not valid: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`,
    });
  }
  try {
    const handler = handlers[name] as (request: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (error instanceof MchError) return failure(uiErrorOf(error));
    onUnexpected(error);
    return failure({
      code: 'INTERNAL',
      title: 'Something went wrong',
      message: `${name} failed unexpectedly; the window's log (in the Logs folder Settings shows) has the details.`,
    });
  }
}

function failure(error: UiError): InvokeResult<never> {
  return { ok: false, error };
}
