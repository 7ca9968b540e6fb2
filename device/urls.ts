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

/** Separate addresses for the two ways to the device (`mch-device --home`, `--relay`). */
export interface SeparateAddresses {
  /** host:port of the home listener, advertised as `internalDNSName`. */
  home?: string;
  /** http://host:port of the relay, advertised as `proxyURL` (with the usual /proxy/{deviceId}). */
  relay?: string;
}

export function deriveUrls(base: string, deviceId: string, separate: SeparateAddresses = {}): DeviceUrls {
  const trimmed = base.replace(/\/+$/, '');
  const parsed = new URL(trimmed);
  // The local device is reached as localhost (device-api.md §1); a public base names its own host.
  const isLoopbackIp = parsed.hostname === '127.0.0.1' || parsed.hostname === '[::1]';
  const internalDNSName =
    separate.home ?? (isLoopbackIp ? `localhost${parsed.port ? `:${parsed.port}` : ''}` : parsed.host);
  // The relay keeps the path shape of device-api.md §1, so a client joins paths to it the same way.
  const proxyURL = `${separate.relay?.replace(/\/+$/, '') ?? trimmed}/proxy/${deviceId}`;
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
