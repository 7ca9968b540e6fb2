// Reads the configuration service (device-api.md §5) for the other services' addresses, cached with its ETag.
import { z } from 'zod';
import { BadResponseError } from '../../../common/errors.ts';
import { parseJson, wrapped, etagOf } from '../answers.ts';
import { Transport } from '../http/transport.ts';
import { joinUrl, parseServiceUrl } from '../http/url-safety.ts';

export interface ServiceUrls {
  device: string;
  share: string;
  identity: string;
  auth?: string;
  client?: string;
}

const CONFIG_PATH = '/config/v1/config';

// Only the URL map matters to this client; every other field is ignored (interface.md "Configuration").
const configurationSchema = wrapped(
  z.object({
    componentMap: z.object({
      'cloud.service.urls': z.record(z.string(), z.unknown()),
    }),
  }),
);

export interface ConfigClientOptions {
  /** The full endpoint `.../config/v1/config`, or a base URL that it is appended to. */
  configUrl: string;
  /** No token is sent: the configuration needs none. */
  transport?: Transport;
}

export class ConfigClient {
  readonly configUrl: URL;
  readonly #transport: Transport;
  #cached: { etag: string; urls: ServiceUrls } | undefined;
  #pending: Promise<ServiceUrls> | undefined;

  constructor(options: ConfigClientOptions) {
    const url = new URL(options.configUrl);
    this.configUrl = url.pathname.replace(/\/+$/, '').endsWith(CONFIG_PATH) ? url : joinUrl(url, CONFIG_PATH);
    this.#transport = options.transport ?? new Transport();
  }

  /** The service addresses; revalidated with If-None-Match each time, so a 304 costs no parsing. */
  async serviceUrls(signal?: AbortSignal): Promise<ServiceUrls> {
    // Callers asking at the same moment share one request, unless one of them may cancel it.
    if (signal !== undefined) return this.#fetch(signal);
    this.#pending ??= this.#fetch(undefined).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #fetch(signal: AbortSignal | undefined): Promise<ServiceUrls> {
    const cached = this.#cached;
    const response = await this.#transport.request({
      method: 'GET',
      url: this.configUrl,
      what: 'read the configuration',
      auth: 'none',
      headers: cached ? { 'if-none-match': cached.etag } : {},
      accept: ['not-modified'],
      signal,
    });
    if (response.kind === 'not-modified') {
      if (cached) return cached.urls;
      throw new BadResponseError('The configuration service answered "not modified" to a first request.', {
        correlationId: response.correlationId,
      });
    }
    const body = parseJson(response, configurationSchema, 'read the configuration');
    const urls = serviceUrlsFrom(body.data.componentMap['cloud.service.urls']);
    const etag = etagOf(response);
    this.#cached = etag === undefined ? undefined : { etag, urls };
    return urls;
  }
}

function urlField(map: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = map[key];
    if (typeof value === 'string' && value.trim() !== '') {
      return parseServiceUrl(value.trim(), `configuration's ${key}`).href.replace(/\/+$/, '');
    }
  }
  return undefined;
}

/** device-api.md §1: the identity provider is also published as `service.auth0.url`. */
function serviceUrlsFrom(map: Record<string, unknown>): ServiceUrls {
  const required = (keys: readonly string[]): string => {
    const value = urlField(map, keys);
    if (value === undefined) {
      throw new BadResponseError(`The configuration has no ${keys.join(' or ')}; the client cannot go on.`);
    }
    return value;
  };
  const urls: ServiceUrls = {
    device: required(['service.device.url']),
    share: required(['service.share.url']),
    identity: required(['service.identity.url', 'service.auth0.url']),
  };
  const auth = urlField(map, ['service.auth.url']);
  const client = urlField(map, ['service.client.url']);
  if (auth !== undefined) urls.auth = auth;
  if (client !== undefined) urls.client = client;
  return urls;
}
