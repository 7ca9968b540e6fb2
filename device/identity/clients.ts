// The clients the identity provider knows and the redirect URIs they may use (device-api.md §2, RFC 8252).
import { DESKTOP_CLIENT_ID } from '../../common/wire/identity.ts';

/** Only the desktop app's public client exists; it has no secret, PKCE protects its code flow. */
export function isKnownClient(clientId: string | undefined): boolean {
  return clientId === DESKTOP_CLIENT_ID;
}

// RFC 8252 §7.3: a native app listens on a loopback port chosen at run time, so any port is accepted.
// localhost is accepted too because device-api.md §2 records that the real service accepted it.
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The redirect URI as a URL if the desktop client may use it, else undefined: plain http to a
 * loopback host on any port. Nothing else is registered, so nothing else is accepted.
 */
export function allowedRedirectUri(redirectUri: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  // RFC 6749 §3.1.2: no fragment; credentials in it would only confuse the browser.
  if (url.hash !== '' || redirectUri.includes('#') || url.username !== '' || url.password !== '')
    return undefined;
  return url;
}

/** The redirect URI with the answer's parameters added to its query, which is kept (RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: URL, params: Record<string, string | undefined>): string {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.set(name, value);
  }
  return target.href;
}
