// Every address the device advertises, derived from one base URL (device-api.md §1).
import type { DeviceNetwork } from '../common/wire/cloud.ts';

export interface DeviceUrls {
  /** The base every other address hangs off, without a trailing slash. */
  base: string;
  /** The configuration endpoint itself, the URL a client is given. */
  config: string;
  identity: string;
  cloud: string;
  network: DeviceNetwork;
  shareLink(shareId: string): string;
}

export function deriveUrls(base: string, deviceId: string): DeviceUrls {
  const trimmed = base.replace(/\/+$/, '');
  const parsed = new URL(trimmed);
  // The local device is reached as localhost (device-api.md §1); a public base names its own host.
  const isLoopbackIp = parsed.hostname === '127.0.0.1' || parsed.hostname === '[::1]';
  const internalDNSName = isLoopbackIp ? `localhost${parsed.port ? `:${parsed.port}` : ''}` : parsed.host;
  const proxyURL = `${trimmed}/proxy/${deviceId}`;
  return {
    base: trimmed,
    config: `${trimmed}/config/v1/config`,
    identity: `${trimmed}/identity`,
    cloud: `${trimmed}/cloud`,
    network: {
      internalDNSName,
      internalURL: `${parsed.protocol}//${internalDNSName}`,
      proxyURL,
      externalURI: proxyURL,
    },
    shareLink: (shareId) => `${trimmed}/s/${shareId}`,
  };
}
