// The contract's network calls: the view of the limits and the proxy, the limits set as `mch-sync limits` sets them, the proxy as `mch-sync proxy` does.
import type { InvokeRequest, NetworkView } from '../../../common/contract.ts';
import { parseRate, RateTextError } from '../../../common/rate-text.ts';
import { ProxyConfigError } from '../../api/http/proxy-config.ts';
import {
  clearManualProxy,
  readManualProxy,
  saveManualProxy,
  type ProxyEnvironment,
} from '../../auth/proxy-setting.ts';
import { SettingsFile, type BandwidthLimitSettings } from '../../profile/settings.ts';
import { readNetworkView } from './network-view.ts';

/** The three handlers, typed by the contract (dispatch.ts checks each request against its schema first). */
export interface NetworkHandlers {
  'network:get': () => Promise<NetworkView>;
  'network:setLimits': (request: InvokeRequest<'network:setLimits'>) => Promise<NetworkView>;
  'network:setProxy': (request: InvokeRequest<'network:setProxy'>) => Promise<NetworkView>;
}

/**
 * `environment` is the core's (its profile, variables, keychain and system proxy). Nothing here tells
 * the running pairs: the core's limits watcher follows settings.json, and the proxy is read when a
 * client starts, as for `mch-sync proxy`.
 */
export function networkHandlers(environment: ProxyEnvironment): NetworkHandlers {
  return {
    'network:get': () => readNetworkView(environment),
    'network:setLimits': async ({ up, down }) => {
      // Both are read before anything is written: one bad rate changes neither.
      const limits = limitsOf(rateOf(up, 'Upload limit'), rateOf(down, 'Download limit'));
      await new SettingsFile(environment.profileDir).update((current) => {
        const next = { ...current };
        // No limit either way: the key goes, and the file reads as before any limit was set.
        if (limits === undefined) delete next.limits;
        else next.limits = limits;
        return next;
      });
      return readNetworkView(environment);
    },
    'network:setProxy': async (change) => {
      if (change.url === null) await clearManualProxy(environment);
      else await setProxy(environment, { ...change, url: change.url });
      return readNetworkView(environment);
    },
  };
}

/** A rate in the command's words, named by its field (`--up` there, "Upload limit" here). */
function rateOf(text: string, field: string): number | undefined {
  try {
    return parseRate(text.trim() === '' ? 'off' : text);
  } catch (error) {
    if (error instanceof RateTextError) throw new RateTextError(`${field}: ${error.message}`);
    throw error;
  }
}

function limitsOf(up: number | undefined, down: number | undefined): BandwidthLimitSettings | undefined {
  if (up === undefined && down === undefined) return undefined;
  return {
    ...(up === undefined ? {} : { upBytesPerSec: up }),
    ...(down === undefined ? {} : { downBytesPerSec: down }),
  };
}

/**
 * As `mch-sync proxy --set URL [--user NAME] [--password-stdin]`. A password left unchanged is read
 * from the store and given again, since saving a proxy without one removes the kept one; without a
 * user there can be no password, so the kept one goes with the user.
 */
async function setProxy(
  environment: ProxyEnvironment,
  change: InvokeRequest<'network:setProxy'> & { url: string },
): Promise<void> {
  const { url, user } = change;
  if (user === null && typeof change.password === 'string' && !urlHasUser(url)) {
    throw new ProxyConfigError('A proxy password needs a user name: fill in the user as well.');
  }
  const kept =
    change.password === undefined && user !== null
      ? (await readManualProxy(environment))?.password
      : undefined;
  const password = change.password === undefined ? kept : (change.password ?? undefined);
  await saveManualProxy(environment, {
    url,
    ...(user === null ? {} : { user }),
    ...(password === undefined ? {} : { password }),
  });
}

/** Whether the URL carries a user of its own (`http://ann@proxy:3128`); one that is not a URL is left to the check. */
function urlHasUser(url: string): boolean {
  try {
    return new URL(url.trim()).username !== '';
  } catch {
    return false;
  }
}
