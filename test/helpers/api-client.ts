// Builds the client's API objects against a test device, recording every request for assertions.
import { DeviceClient } from '../../app/api/device-client.ts';
import {
  Transport,
  type AccessTokenProvider,
  type ApiLogEntry,
  type TransportOptions,
} from '../../app/api/http/transport.ts';
import type { TestDevice } from './device.ts';

/** Tiny waits, so retries cost milliseconds in tests (the device's Retry-After: 1 is not waited for). */
export const FAST_RETRY = {
  maxAttempts: 8,
  baseDelayMs: 2,
  maxDelayMs: 20,
  maxElapsedMs: 10_000,
  honourRetryAfter: false,
};

export function staticTokens(token: string): AccessTokenProvider {
  return { accessToken: async () => token, refreshAfterUnauthorized: async () => token };
}

/** A DeviceClient of a server that is not a device (a hostile one), with a fixed token and fast retries. */
export function deviceClientAt(base: string, options: TransportOptions = {}): DeviceClient {
  const transport = new Transport({ tokens: staticTokens('token'), retry: FAST_RETRY, ...options });
  return new DeviceClient({ deviceUrl: base, transport });
}

export interface RecordedClient {
  device: DeviceClient;
  transport: Transport;
  /** Every attempt's answer or failure, in order. */
  log: ApiLogEntry[];
  /** `METHOD /path` of every attempt that got an answer, e.g. `PATCH /sdk/v2/files/abc`. */
  requests: () => string[];
}

export function clientFor(
  testDevice: TestDevice,
  options: TransportOptions & {
    user?: string;
    deviceUrl?: string;
    resumableThresholdBytes?: number;
    chunkBytes?: number;
  } = {},
): RecordedClient {
  const log: ApiLogEntry[] = [];
  const transport = new Transport({
    tokens: staticTokens(testDevice.tokenFor(options.user ?? 'alice')),
    retry: FAST_RETRY,
    ...options,
    log: (entry) => {
      log.push(entry);
      options.log?.(entry);
    },
  });
  const device = new DeviceClient({
    deviceUrl: options.deviceUrl ?? testDevice.base,
    transport,
    ...(options.resumableThresholdBytes === undefined
      ? {}
      : { resumableThresholdBytes: options.resumableThresholdBytes }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  });
  return {
    device,
    transport,
    log,
    requests: () =>
      log
        .filter((entry) => entry.message === 'answer')
        .map((entry) => {
          const [method = '', url = ''] = entry.request.split(' ');
          return `${method} ${new URL(url).pathname}`;
        }),
  };
}
