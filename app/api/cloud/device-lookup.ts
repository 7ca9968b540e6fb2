// Finds the user's devices (device-api.md §5) and chooses the address to reach one by (§1).
import { z } from 'zod';
import { DeviceUnreachableError, type ApiError } from '../../../common/errors.ts';
import type { DeviceRecord } from '../../../common/wire/cloud.ts';
import { checkShape, parseJson, wrapped } from '../answers.ts';
import { fileSchema } from '../device-schemas.ts';
import type { Transport } from '../http/transport.ts';
import { isLoopbackHost, joinUrl, parseServiceUrl, segment } from '../http/url-safety.ts';

export type { DeviceRecord } from '../../../common/wire/cloud.ts';

/** device-api.md §1: a candidate that has not answered within about 1.5 s loses. */
export const DEFAULT_PROBE_TIMEOUT_MS = 1500;

const deviceSchema = z.object({
  deviceId: z.string().min(1),
  name: z.string().catch(''),
  modelId: z.string().catch(''),
  type: z.string().catch(''),
  serialNumber: z.string().catch(''),
  createdOn: z.number().catch(0),
  network: z.object({
    internalDNSName: z.string().optional().catch(undefined),
    internalURL: z.string().optional().catch(undefined),
    proxyURL: z.string().optional().catch(undefined),
    externalURI: z.string().optional().catch(undefined),
  }),
});

export interface DeviceUrlCandidate {
  via: 'internal' | 'proxy';
  url: string;
}

export interface ChosenDeviceUrl {
  url: string;
  via: 'pinned' | 'internal' | 'proxy';
}

export interface DeviceLookupOptions {
  /** `service.device.url` from the configuration. */
  deviceServiceUrl: string;
  /** With the signed-in user's token provider. */
  transport: Transport;
  probeTimeoutMs?: number;
}

export class DeviceLookup {
  readonly #base: URL;
  readonly #transport: Transport;
  readonly #probeTimeoutMs: number;

  constructor(options: DeviceLookupOptions) {
    this.#base = new URL(options.deviceServiceUrl);
    this.#transport = options.transport;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  }

  /** The devices the user belongs to. Fields other than deviceId are lenient: missing ones become "". */
  async listDevices(userId: string, signal?: AbortSignal): Promise<DeviceRecord[]> {
    const what = 'list your devices';
    const response = await this.#transport.request({
      method: 'GET',
      url: joinUrl(this.#base, `/device/v1/user/${segment(userId)}`),
      what,
      signal,
    });
    const devices = parseJson(response, wrapped(z.array(deviceSchema)), what).data;
    return devices.map((device) => ({
      ...device,
      network: {
        internalDNSName: device.network.internalDNSName ?? '',
        internalURL: device.network.internalURL ?? '',
        proxyURL: device.network.proxyURL ?? '',
        externalURI: device.network.externalURI ?? '',
      },
    }));
  }

  /** One device by id (for a member of it). */
  async getDevice(deviceId: string, signal?: AbortSignal): Promise<DeviceRecord> {
    const what = `read device ${deviceId}`;
    const response = await this.#transport.request({
      method: 'GET',
      url: joinUrl(this.#base, `/device/v1/device/${segment(deviceId)}`),
      what,
      signal,
    });
    const device = parseJson(response, wrapped(deviceSchema), what).data;
    const network = device.network;
    return {
      ...device,
      network: {
        internalDNSName: network.internalDNSName ?? '',
        internalURL: network.internalURL ?? '',
        proxyURL: network.proxyURL ?? '',
        externalURI: network.externalURI ?? '',
      },
    };
  }

  /**
   * Where the device may be reached, best first: `https://{internalDNSName}` (plain http when that is
   * a loopback host), then `proxyURL`. Candidates that are not URLs are left out.
   */
  candidates(device: Pick<DeviceRecord, 'network'>): DeviceUrlCandidate[] {
    const result: DeviceUrlCandidate[] = [];
    const dnsName = device.network.internalDNSName.trim();
    if (dnsName !== '' && !/[/?#@\s]/.test(dnsName)) {
      try {
        const probe = new URL(`https://${dnsName}`);
        const scheme = isLoopbackHost(probe.hostname) ? 'http' : 'https';
        result.push({ via: 'internal', url: `${scheme}://${dnsName}` });
      } catch {
        // Not a host name: only the relay remains.
      }
    }
    const proxy = device.network.proxyURL.trim();
    if (proxy !== '') {
      try {
        result.push({ via: 'proxy', url: parseServiceUrl(proxy, 'proxyURL').href.replace(/\/+$/, '') });
      } catch {
        // A relay address that is not a URL cannot be used.
      }
    }
    return result;
  }

  /**
   * The device URL to use: a pinned one as is; otherwise the first candidate, in order, whose
   * authenticated `GET /sdk/v2/files/root` answers within the probe timeout. Candidates are probed
   * at the same time, so a dead home address costs no more than one timeout. A refused token is
   * thrown as is (signing in again is needed, not another address).
   */
  async chooseDeviceUrl(
    device: Pick<DeviceRecord, 'network' | 'deviceId'>,
    options: { pinnedUrl?: string | undefined; signal?: AbortSignal | undefined } = {},
  ): Promise<ChosenDeviceUrl> {
    if (options.pinnedUrl !== undefined && options.pinnedUrl !== '') {
      return {
        url: parseServiceUrl(options.pinnedUrl, 'pinned device URL').href.replace(/\/+$/, ''),
        via: 'pinned',
      };
    }
    const candidates = this.candidates(device);
    const probes = candidates.map((candidate) => this.probe(candidate.url, options.signal));
    const failures: string[] = [];
    for (const [index, candidate] of candidates.entries()) {
      const error = await probes[index];
      if (error === undefined) return { url: candidate.url, via: candidate.via };
      if (error.code === 'AUTH_REQUIRED' || error.code === 'ABORTED') throw error;
      failures.push(`${candidate.url}: ${error.message}`);
    }
    throw new DeviceUnreachableError(
      candidates.length === 0
        ? `Device ${device.deviceId} has no usable address.`
        : `Device ${device.deviceId} did not answer (${failures.join('; ')}); will try again later.`,
    );
  }

  /** Undefined when `baseUrl` answers like a device within the probe timeout, else why not. */
  async probe(baseUrl: string, signal?: AbortSignal): Promise<ApiError | undefined> {
    return probeDevice(this.#transport, baseUrl, { timeoutMs: this.#probeTimeoutMs, signal });
  }
}

/**
 * Undefined when `baseUrl` answers an authenticated `GET /sdk/v2/files/root` like a device within the
 * timeout, else why not. Needs no configuration service: a run checks its saved addresses with it offline.
 */
export async function probeDevice(
  transport: Transport,
  baseUrl: string,
  options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<ApiError | undefined> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const once = transport.withOptions({
    retry: { maxAttempts: 1 },
    timeouts: { connectMs: timeoutMs, responseMs: timeoutMs, totalMs: timeoutMs },
  });
  try {
    const what = 'reach the device';
    const response = await once.request({
      method: 'GET',
      url: joinUrl(baseUrl, '/sdk/v2/files/root'),
      what,
      signal: options.signal,
    });
    // Anything that answers must answer like a device: a captive portal's page does not count.
    checkShape(parseJson(response, z.unknown(), what), fileSchema, what);
    return undefined;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && 'describe' in error)
      return error as ApiError;
    throw error;
  }
}
