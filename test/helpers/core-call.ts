// A UiCore as the tests open it, and one call of the window's contract on it as the renderer makes it: the answer, or its error thrown with the contract's code.
import { join } from 'node:path';
import type { InvokeName, InvokeRequest, InvokeResponse } from '../../common/contract.ts';
import { dispatch } from '../../app/ui/dispatch.ts';
import type { UiCoreOptions } from '../../app/ui/handler-core.ts';
import { UiCore } from '../../app/ui/ui-core.ts';
import type { TestDevice } from './device.ts';
import { MemoryKeychain } from './mch-sync.ts';

/**
 * A core whose HOME is `home` (the OS trash under it), its profile `<home>/profile` unless given, tokens
 * in a file store and a keychain in memory, nothing opened outside and nothing logged unless given.
 */
export function openTestCore(home: string, options: Partial<UiCoreOptions> = {}): Promise<UiCore> {
  return UiCore.open({
    profileDir: join(home, 'profile'),
    env: { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share'), MCH_SECRET_STORE: 'file' },
    keychain: new MemoryKeychain(),
    openExternal: () => Promise.resolve(),
    log: () => {},
    ...options,
  });
}

/** Signs the core in as the test device's user alice, through the window's own call. */
export async function signInAlice(core: UiCore, device: TestDevice): Promise<void> {
  await callCore(core, 'account:signInPassword', {
    configUrl: device.running.urls.config,
    username: 'alice',
    password: 'alice-password',
  });
}

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
