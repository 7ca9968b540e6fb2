// Agents that reach the device through an http proxy: absolute-form requests for http, a CONNECT tunnel for https.
//
// Node ignores proxy variables, and got has no proxy of its own: both take an `agent`, so the proxy
// lives there, once, for the direct path and the streamed one alike (RFC 9110 §9.3.6 for CONNECT,
// RFC 9112 §3.2.2 for the absolute form).
import { Agent as HttpAgent, type ClientRequest, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions as HttpsRequestOptions } from 'node:https';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { MchError } from '../../../common/errors.ts';
import type { ProxyServer } from './proxy-config.ts';

/** How long the proxy has to accept the connection and answer a CONNECT (the transport's connect limit). */
const PROXY_CONNECT_MS = 10_000;
/** An answer to CONNECT longer than this is not a proxy's. */
const MAX_CONNECT_HEAD = 16 * 1024;

/**
 * The proxy would not carry a request: it asked for credentials (407) or refused the tunnel (a 502
 * when it cannot reach the device, a 403 when its rules forbid it). Nothing reached the device.
 */
export class ProxyRefusedError extends MchError {
  /** The proxy's label: never its credentials. */
  readonly proxy: string;
  /** The proxy's status, for logs. */
  readonly status: number | undefined;

  constructor(proxy: ProxyServer, status: number | undefined, message: string) {
    super('PROXY_REFUSED', 'Proxy refused', message);
    this.proxy = proxy.label;
    this.status = status;
  }
}

/** The error for a proxy's refusal with `status` (the tunnel's or an absolute-form request's). */
export function proxyRefusal(proxy: ProxyServer, status: number, target: string): ProxyRefusedError {
  // A CONNECT is only ever answered by the proxy: its 401 (tinyproxy's answer) means what 407 does.
  if (status === 407 || status === 401) {
    return new ProxyRefusedError(
      proxy,
      status,
      proxy.authorization === undefined
        ? `the proxy ${proxy.label} asks for a user name and password (407): set them with \`mch-sync proxy --set ${proxy.label} --user NAME --password-stdin\``
        : `the proxy ${proxy.label} refused its user name and password (407): set them again with \`mch-sync proxy --set ${proxy.label} --user NAME --password-stdin\``,
    );
  }
  return new ProxyRefusedError(
    proxy,
    status,
    `the proxy ${proxy.label} refused to connect to ${target} (HTTP ${status}): check that the proxy may reach it`,
  );
}

/** A connection to the proxy itself: plain TCP, or TLS for an https:// proxy. */
function openProxySocket(proxy: ProxyServer): Socket {
  if (proxy.protocol === 'https:') {
    return connectTls({
      host: proxy.host,
      port: proxy.port,
      ALPNProtocols: ['http/1.1'],
      ...(isIP(proxy.host) === 0 ? { servername: proxy.host } : {}),
    });
  }
  return connectTcp({ host: proxy.host, port: proxy.port });
}

/** A failure to reach the proxy, naming it; the errno code stays for http-errors.ts. */
function unreachable(proxy: ProxyServer, error: Error): Error {
  const code = (error as { code?: unknown }).code;
  return Object.assign(new Error(`the proxy ${proxy.label} cannot be reached (${error.message})`), {
    code,
    cause: error,
  });
}

/** `host:port` of a request's target, IPv6 in brackets. */
function targetOf(
  options: { host?: string | null | undefined; hostname?: string | null | undefined; port?: unknown },
  defaultPort: number,
): string {
  const host = String(options.hostname ?? options.host ?? 'localhost').replace(/^\[|\]$/g, '');
  const port = Number(options.port ?? defaultPort) || defaultPort;
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What Node calls on every agent before the request's head is written (not in Node's typings). */
type AddRequest = (this: HttpAgent, request: ClientRequest, options: ClientRequestArgs) => void;
const baseAddRequest = (HttpAgent.prototype as unknown as { addRequest: AddRequest }).addRequest;

/** For http:// targets: requests go to the proxy in absolute form, its credentials with each. */
export class ForwardProxyAgent extends HttpAgent {
  readonly proxy: ProxyServer;

  constructor(proxy: ProxyServer) {
    // A connection per request: proxies often close a client's connection after an answer that did
    // not say so (tinyproxy 1.11 does), and a POST sent on such a socket fails with nobody knowing
    // whether it arrived (OUTCOME_UNKNOWN). Tunnels (below) are kept: inside them the device decides.
    super({ keepAlive: false });
    this.proxy = proxy;
  }

  /**
   * Node calls this from the ClientRequest's constructor, before the head is put together, so the
   * path and header set here are the ones sent.
   */
  addRequest(request: ClientRequest, options: ClientRequestArgs): void {
    const host = request.getHeader('host');
    request.path = `http://${typeof host === 'string' ? host : targetOf(options, 80)}${request.path}`;
    if (this.proxy.authorization !== undefined) {
      request.setHeader('proxy-authorization', this.proxy.authorization);
    }
    baseAddRequest.call(this, request, options);
  }

  override createConnection(): Duplex {
    return namingProxy(openProxySocket(this.proxy), this.proxy);
  }
}

/** The socket, its errors before it connected rewritten to name the proxy (Node emits them on the request). */
function namingProxy(socket: Socket, proxy: ProxyServer): Socket {
  let connected = false;
  socket.once('connect', () => (connected = true));
  const emit = socket.emit.bind(socket);
  socket.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'error' && !connected && args[0] instanceof Error) {
      return emit('error', unreachable(proxy, args[0]));
    }
    return emit(event, ...args);
  }) as Socket['emit'];
  return socket;
}

/** For https:// targets: a CONNECT tunnel through the proxy, and TLS with the device inside it. */
export class TunnelProxyAgent extends HttpsAgent {
  readonly proxy: ProxyServer;

  constructor(proxy: ProxyServer) {
    super({ keepAlive: true });
    this.proxy = proxy;
  }

  override createConnection(
    options: HttpsRequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const proxy = this.proxy;
    const done = callback ?? ((): void => undefined);
    const target = targetOf(options, 443);
    const socket = openProxySocket(proxy);
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      done(error, socket);
    };
    socket.setTimeout(PROXY_CONNECT_MS, () =>
      fail(
        Object.assign(
          new Error(
            `the proxy ${proxy.label} did not open a tunnel to ${target} within ${PROXY_CONNECT_MS} ms`,
          ),
          { code: 'ETIMEDOUT', event: 'connect' },
        ),
      ),
    );
    socket.once('error', (error) => fail(unreachable(proxy, error)));
    socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const credentials =
        proxy.authorization === undefined ? '' : `Proxy-Authorization: ${proxy.authorization}\r\n`;
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${credentials}\r\n`, 'latin1');
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_CONNECT_HEAD) {
          fail(new Error(`the proxy ${proxy.label} gave an answer to CONNECT that is not HTTP`));
        }
        return;
      }
      socket.off('data', onData);
      socket.pause();
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (!(status >= 200 && status < 300)) {
        fail(
          Number.isInteger(status)
            ? proxyRefusal(proxy, status, target)
            : new Error(`the proxy ${proxy.label} gave an answer to CONNECT that is not HTTP`),
        );
        return;
      }
      // A TLS server never speaks first, so nothing should follow the head; anything that did is kept.
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      settled = true;
      socket.setTimeout(0);
      socket.removeAllListeners('error');
      const host = String(options.hostname ?? options.host ?? '').replace(/^\[|\]$/g, '');
      // The request's TLS options (ca, servername, ALPN...) as Node's own https agent passes them on.
      const secure = connectTls({
        ...(options as ConnectionOptions),
        socket,
        ...(options.servername === undefined && isIP(host) === 0 ? { servername: host } : {}),
      });
      // The tunnel's socket ends with the TLS one; its errors are the TLS socket's.
      socket.on('error', (error) => secure.destroy(error));
      done(null, secure);
    };
    socket.on('data', onData);
    return undefined;
  }
}
