// What Settings shows of the network: the profile's limits as settings.json has them, its own proxy and the one requests go through.
import { assertNever } from '../../../common/errors.ts';
import type { NetworkView, ProxySourceView, ProxyView } from '../../../common/contract.ts';
import type { ProxyChoice } from '../../api/http/proxy-config.ts';
import { proxyChoiceFor, type ProxyEnvironment } from '../../auth/proxy-setting.ts';
import { SettingsFile } from '../../profile/settings.ts';

/** The view read afresh: another window or `mch-sync limits` may have changed the file since. */
export async function readNetworkView(environment: ProxyEnvironment): Promise<NetworkView> {
  const settings = await new SettingsFile(environment.profileDir).read();
  const manual = settings.proxy;
  const choice = await proxyChoiceFor(environment);
  const proxy: ProxyView = {
    url: manual?.url ?? null,
    user: manual?.user ?? null,
    hasPassword: manual?.passwordStore !== undefined,
    ...inUse(choice),
  };
  return {
    limits: {
      upBytesPerSec: settings.limits?.upBytesPerSec ?? null,
      downBytesPerSec: settings.limits?.downBytesPerSec ?? null,
    },
    proxy,
  };
}

function inUse(choice: ProxyChoice | undefined): Pick<ProxyView, 'source' | 'effective' | 'noProxy'> {
  if (choice === undefined) return { source: 'none', effective: null, noProxy: null };
  const https = choice.https?.label;
  const http = choice.http?.label;
  // One proxy for both schemes is the common case (and always the profile's own); else each is named.
  const effective =
    https === http
      ? (https ?? null)
      : `${https ?? 'direct'} for https addresses, ${http ?? 'direct'} for http ones`;
  return {
    source: sourceView(choice.source),
    effective,
    noProxy: choice.noProxy.text === '' ? null : choice.noProxy.text,
  };
}

function sourceView(source: ProxyChoice['source']): ProxySourceView {
  switch (source) {
    case 'settings':
      return 'manual';
    case 'environment':
    case 'system':
      return source;
    default:
      return assertNever(source, 'proxy source');
  }
}
