// URL rules of the client: tokens only over TLS except to loopback hosts, and joining paths to bases.
import { BadResponseError, InsecureUrlError } from '../../../common/errors.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** device-api.md §1: `localhost`, `127.0.0.0/8` and `::1` are loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Parses a URL from configuration or a device record; a bad one is the service's fault. */
export function parseServiceUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    throw new BadResponseError(`The ${what} ${JSON.stringify(text)} is not a URL.`, { cause });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadResponseError(`The ${what} ${JSON.stringify(text)} is not an http(s) URL.`);
  }
  return url;
}

/** Refuses to send a bearer token anywhere but https, or plain http to a loopback host (device-api.md §1). */
export function assertTokenSafe(url: URL): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw new InsecureUrlError(
    `Refusing to send a sign-in token to ${url.origin}: tokens only go over https (or to this computer). Check the configured address.`,
  );
}

/** `base` + `path`, keeping any path the base has (a relay base such as https://relay/proxy/abc). */
export function joinUrl(base: string | URL, path: string): URL {
  const url = new URL(base);
  const basePath = url.pathname.replace(/\/+$/, '');
  const [pathOnly = '', query] = path.split('?', 2);
  url.pathname = `${basePath}/${pathOnly.replace(/^\/+/, '')}`;
  url.search = query === undefined ? '' : `?${query}`;
  url.hash = '';
  return url;
}

/** One path segment with every character that could change the path escaped (ids are opaque). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** `GET https://host/path` for messages and logs: never the query, which may hold a token. */
export function describeRequest(method: string, url: URL): string {
  return `${method} ${url.origin}${url.pathname}`;
}
