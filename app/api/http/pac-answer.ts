// The system proxy as Electron's resolver tells it (a PAC-style answer such as "PROXY host:port; DIRECT").
import { NoProxyList } from './no-proxy.ts';
import { parseProxyUrl, type ProxyChoice, type ProxyServer } from './proxy-config.ts';

/**
 * The proxy of one PAC answer (`session.resolveProxy(url)`): its entries are tried in order, so the
 * first one this client can use decides. `DIRECT` (or an empty answer) is no proxy; `PROXY h:p` and
 * `HTTP h:p` an http proxy; `HTTPS h:p` a proxy spoken to over TLS. SOCKS entries are passed over (this
 * client speaks only to http proxies), and an answer of nothing else usable means no proxy, as a
 * browser that cannot use a SOCKS proxy would go direct. Entries that cannot be read are passed over.
 */
export function proxyFromPacAnswer(answer: string): ProxyServer | undefined {
  for (const entry of answer.split(';')) {
    const [keyword = '', address, ...extra] = entry.trim().split(/\s+/);
    const kind = keyword.toUpperCase();
    if (kind === 'DIRECT') return undefined;
    if (address === undefined || extra.length > 0) continue;
    if (kind !== 'PROXY' && kind !== 'HTTP' && kind !== 'HTTPS') continue;
    try {
      return parseProxyUrl(`${kind === 'HTTPS' ? 'https' : 'http'}://${address}`, 'The system proxy');
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * The system's choice from its answers for an http and an https address: read once when the app
 * starts, so per-host rules of a PAC script are not followed (the proxy given for the sample
 * addresses is used for every host, except those NO_PROXY names).
 */
export function proxyFromSystem(
  answers: { http: string; https: string },
  env: NodeJS.ProcessEnv,
): ProxyChoice | undefined {
  const http = proxyFromPacAnswer(answers.http);
  const https = proxyFromPacAnswer(answers.https);
  if (http === undefined && https === undefined) return undefined;
  const noProxy = env['no_proxy'] ?? env['NO_PROXY'];
  return { source: 'system', http, https, noProxy: new NoProxyList(noProxy) };
}

/** Addresses the system is asked about: outside any home or office network, as the device's relay is. */
export const SYSTEM_PROXY_SAMPLES = { http: 'http://mch-sync.invalid/', https: 'https://mch-sync.invalid/' };

/**
 * The system's proxy through a resolver such as Electron's `session.resolveProxy`; a resolver that
 * fails means no system proxy (the app still works direct, or through the variables).
 */
export async function readSystemProxy(
  resolve: (url: string) => Promise<string>,
  env: NodeJS.ProcessEnv,
): Promise<ProxyChoice | undefined> {
  try {
    const [http, https] = await Promise.all([
      resolve(SYSTEM_PROXY_SAMPLES.http),
      resolve(SYSTEM_PROXY_SAMPLES.https),
    ]);
    return proxyFromSystem({ http, https }, env);
  } catch {
    return undefined;
  }
}
