// One call of the window's contract on a UiCore, as the renderer makes it: the answer, or its error thrown with the contract's code.
import type { InvokeName, InvokeRequest, InvokeResponse } from '../../common/contract.ts';
import { dispatch } from '../../app/ui/dispatch.ts';
import type { UiCore } from '../../app/ui/ui-core.ts';

export async function callCore<N extends InvokeName>(
  core: UiCore,
  name: N,
  request: InvokeRequest<N>,
): Promise<InvokeResponse<N>> {
  const result = await dispatch(core.handlers, name, request, (error) => {
    throw error;
  });
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as InvokeResponse<N>;
}
