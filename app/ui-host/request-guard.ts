// Which requests may reach the UI host at all: for its own loopback address only, and from no other origin.
import type { IncomingMessage } from 'node:http';
import type { UiError } from '../../common/contract.ts';
import { UiHostError } from './ui-host-errors.ts';

/** Where the host answers: `127.0.0.1:PORT` and `http://127.0.0.1:PORT`. */
export interface HostAddress {
  port: number;
  host: string;
  origin: string;
}

export function hostAddress(port: number): HostAddress {
  const host = `127.0.0.1:${port}`;
  return { port, host, origin: `http://${host}` };
}

/**
 * Null when the `Host` header is exactly this host's address. A page on any other name (a DNS
 * rebinding attack points `evil.example` at 127.0.0.1) sends its own name here, so it is refused before
 * anything else is looked at. `localhost:PORT` is refused too: the command prints the IP literal, the
 * cookie is kept for that name only, and `localhost` may resolve to `::1`, where the host does not listen.
 */
export function checkHost(request: IncomingMessage, address: HostAddress): UiError | null {
  if (request.headers.host === address.host) return null;
  return forbidden(
    `Only requests for ${address.host} are answered here; open the address that \`mch-sync ui\` printed.`,
  );
}

/**
 * Null when nothing says the request came from another origin. A call (`POST`) must name this origin
 * in `Origin`, which browsers always send with one; a `GET` may leave it out (same-origin loads and the
 * event stream do) but may not name another. `Sec-Fetch-Site`, where the browser sends it, must say
 * `same-origin` or `none` (typed, bookmarked or opened by the command): `same-site` is refused too, as
 * any other program on 127.0.0.1 is the same site whatever its port.
 */
export function checkSite(request: IncomingMessage, address: HostAddress): UiError | null {
  const origin = request.headers.origin;
  if (origin !== undefined ? origin !== address.origin : request.method === 'POST') {
    return forbidden('Calls from other pages or sites are refused; use the window `mch-sync ui` opened.');
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return forbidden(
      'Requests started by other pages or sites are refused; open the address that `mch-sync ui` printed.',
    );
  }
  return null;
}

function forbidden(message: string): UiError {
  return new UiHostError('UI_HOST_FORBIDDEN', message).toUiError();
}
