// Which proxy the client uses: one from the profile's settings, else the environment's, else the system's.
import { MchError } from '../../../common/errors.ts';
import { NoProxyList } from './no-proxy.ts';

/** A proxy server as the agents of proxy-agents.ts need it. */
export interface ProxyServer {
  protocol: 'http:' | 'https:';
  /** Without IPv6 brackets. */
  host: string;
  port: number;
  /** `Basic ...` when the proxy asks for credentials; never printed or logged. */
  authorization: string | undefined;
  /** `http://proxy:3128`: the proxy for messages, never its credentials. */
  label: string;
}

export type ProxySource = 'settings' | 'environment' | 'system';

/** The proxies of a run: one per target scheme, and the hosts reached directly. */
export interface ProxyChoice {
  source: ProxySource;
  /** For `http://` targets. */
  http: ProxyServer | undefined;
  /** For `https://` targets. */
  https: ProxyServer | undefined;
  noProxy: NoProxyList;
}

/** A proxy setting or variable that cannot be used; nothing was changed or sent. */
export class ProxyConfigError extends MchError {
  constructor(message: string) {
    super('PROXY_INVALID', 'Proxy setting not valid', message);
  }
}

/** The manual proxy of a profile's settings, its password read from the secret store. */
export interface ManualProxy {
  url: string;
  user?: string | undefined;
  password?: string | undefined;
}

/**
 * Reads a proxy URL. `what` names where it came from for the message. A variable may leave out the
 * scheme (`proxy:3128`, read as http:// as curl does); the setting may not, so what is shown is what is
 * used. Only http:// and https:// proxies: a SOCKS proxy is refused clearly instead of being misused.
 */
export function parseProxyUrl(
  text: string,
  what: string,
  options: { schemeOptional?: boolean; user?: string | undefined; password?: string | undefined } = {},
): ProxyServer {
  const trimmed = text.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  if (!hasScheme && options.schemeOptional !== true) {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(text)} has no scheme: write it as http://HOST:PORT (or https://HOST:PORT).`,
    );
  }
  const withScheme = hasScheme ? trimmed : `http://${trimmed}`;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(withScheme)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} is a ${scheme ?? 'non-http'} proxy: only http:// and https:// proxies are supported.`,
    );
  }
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(withScheme)?.[1] ?? '';
  const hostPart = authority.replace(/^.*@/, '');
  const portText = /^(?:\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPart)?.[1];
  if (
    portText !== undefined &&
    portText !== '' &&
    (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
  ) {
    throw new ProxyConfigError(`${what} ${JSON.stringify(redacted(text))} has a bad port "${portText}".`);
  }
  if (/^(?:\[\]|)(?::.*)?$/.test(hostPart)) {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} has no host: write it as http://HOST:PORT.`,
    );
  }
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} is not a URL: write it as http://HOST:PORT.`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} has no host: write it as http://HOST:PORT.`,
    );
  }
  const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
  const port = Number(url.port || (protocol === 'https:' ? 443 : 80));
  if (
    !Number.isInteger(port) ||
    port < 1 ||
    port > 65535 ||
    (portText !== undefined && Number(portText) === 0)
  ) {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} has a bad port: it must be 1 to 65535.`,
    );
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new ProxyConfigError(
      `${what} ${JSON.stringify(redacted(text))} has a path: a proxy is only http://HOST:PORT.`,
    );
  }
  const user = options.user ?? decodeURIComponent(url.username);
  const password = options.password ?? decodeURIComponent(url.password);
  const authorization =
    user === '' && password === ''
      ? undefined
      : `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { protocol, host, port, authorization, label: `${protocol}//${shownHost}:${port}` };
}

/** `text` without the credentials of a URL, for messages. */
export function redacted(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1');
}

/** The first non-empty one of `names` in `env`, with its name. */
function variable(env: NodeJS.ProcessEnv, names: readonly string[]): [string, string] | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return [name, value];
  }
  return undefined;
}

/**
 * The proxies the environment names, as curl reads them (the lowercase name first): `https_proxy` for
 * https targets, `http_proxy` for http ones, `all_proxy` for either when those are unset, `no_proxy` for
 * the hosts reached directly. curl ignores an uppercase HTTP_PROXY because a CGI program gets the
 * request's `Proxy:` header under that name (httpoxy); mch-sync is never a CGI program, and people set
 * HTTP_PROXY, so it is read too. Undefined when no proxy is set; a bad value is a ProxyConfigError.
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const all = variable(env, ['all_proxy', 'ALL_PROXY']);
  const https = variable(env, ['https_proxy', 'HTTPS_PROXY']) ?? all;
  const http = variable(env, ['http_proxy', 'HTTP_PROXY']) ?? all;
  if (https === undefined && http === undefined) return undefined;
  const server = (found: [string, string] | undefined): ProxyServer | undefined =>
    found === undefined ? undefined : parseProxyUrl(found[1], found[0], { schemeOptional: true });
  return {
    source: 'environment',
    http: server(http),
    https: server(https),
    noProxy: new NoProxyList(variable(env, ['no_proxy', 'NO_PROXY'])?.[1]),
  };
}

/** The profile's manual proxy for both schemes; the environment's NO_PROXY still names direct hosts. */
export function proxyFromSettings(manual: ManualProxy, env: NodeJS.ProcessEnv): ProxyChoice {
  const server = parseProxyUrl(manual.url, 'The proxy', { user: manual.user, password: manual.password });
  return {
    source: 'settings',
    http: server,
    https: server,
    noProxy: new NoProxyList(variable(env, ['no_proxy', 'NO_PROXY'])?.[1]),
  };
}

/** Where proxies come from; the first that names one wins: settings, environment, system. */
export function chooseProxy(sources: {
  manual?: ManualProxy | undefined;
  env: NodeJS.ProcessEnv;
  system?: ProxyChoice | undefined;
}): ProxyChoice | undefined {
  if (sources.manual !== undefined) return proxyFromSettings(sources.manual, sources.env);
  return proxyFromEnvironment(sources.env) ?? sources.system;
}
