// The headless host of the UI (`mch-sync ui`): the built renderer and the contract on 127.0.0.1, behind a per-run secret.
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { UiError } from '../../common/contract.ts';
import { routeFragment, type WindowRoute } from '../../common/window-route.ts';
import type { ContractService } from '../ui/dispatch.ts';
import { BRIDGE_PATH, BRIDGE_SCRIPT } from './bridge-script.ts';
import { EventStreams } from './event-stream.ts';
import { canAnswer, sendPage, sendRefusal, setSecurityHeaders } from './host-answers.ts';
import { answerInvoke } from './invoke-route.ts';
import { checkHost, checkSite, hostAddress, type HostAddress } from './request-guard.ts';
import { RunSecret } from './run-secret.ts';
import { contentTypeOf, injectBridge, resolveStaticFile } from './static-files.ts';
import { UiHostError, type UiHostErrorCode } from './ui-host-errors.ts';

export interface UiHostOptions {
  service: ContractService;
  /** The built renderer: `index.html` and what it loads (`assets/…`). */
  rendererDir: string;
  /** 0 (the default): any free port. */
  port?: number;
  /** Unexpected failures and refused requests, one line each. */
  log?: (line: string) => void;
  /** How often an idle event stream gets a comment line (25 s); for tests. */
  heartbeatMs?: number;
}

export interface UiHost {
  /** `http://127.0.0.1:PORT/`: where the host answers. */
  url: string;
  /** `url` with `?secret=…`: what to print and open; the first visit trades it for the cookie. */
  openUrl: string;
  /**
   * `openUrl` with the window's route as its fragment (`…?secret=…#issues?item=…`): what the browser is
   * sent to for "Why is this not synced?". The secret makes it work in a browser without the cookie;
   * the 303 that trades it keeps the fragment (a redirect without one keeps the request's, RFC 9110
   * §10.2.2), so the page opens at the route.
   */
  routeUrl(route: WindowRoute): string;
  /**
   * Stops listening, ends every event stream and closes every connection; resolves once they are all
   * closed. A call still being answered loses its answer (the page hears UI_HOST_UNREACHABLE): the
   * caller stops the service's own work.
   */
  close(): Promise<void>;
}

export async function startUiHost(options: UiHostOptions): Promise<UiHost> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UiHostError(
      'UI_HOST_LISTEN_FAILED',
      `${port} is not a port: give a number from 0 to 65535 (0: any free port).`,
    );
  }
  const root = await findRenderer(options.rendererDir);
  const server = createServer();
  await listen(server, port);
  const address = hostAddress((server.address() as AddressInfo).port);
  const handler = new RequestHandler(server, root, address, options);
  return {
    url: `${address.origin}/`,
    openUrl: `${address.origin}/?secret=${handler.secret.value}`,
    routeUrl: (route) => `${address.origin}/?secret=${handler.secret.value}#${routeFragment(route)}`,
    close: () => handler.close(),
  };
}

class RequestHandler {
  readonly secret: RunSecret;
  readonly #server: Server;
  readonly #root: string;
  readonly #address: HostAddress;
  readonly #options: UiHostOptions;
  readonly #log: (line: string) => void;
  readonly #streams: EventStreams;
  #closed: Promise<void> | undefined;

  constructor(server: Server, root: string, address: HostAddress, options: UiHostOptions) {
    this.#server = server;
    this.#root = root;
    this.#address = address;
    this.#options = options;
    this.#log = options.log ?? (() => {});
    this.secret = new RunSecret(address.port);
    this.#streams = new EventStreams({
      service: options.service,
      log: this.#log,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      this.#handle(request, response).catch((error: unknown) => {
        this.#log(`ui host: ${request.method} ${pathOf(request.url)} failed: ${describe(error)}`);
        if (canAnswer(response)) {
          const failure = {
            code: 'INTERNAL',
            title: 'Something went wrong',
            message: "The window's log (in the Logs folder Settings shows) has the details.",
          };
          sendRefusal(response, 500, failure, isApiPath(pathOf(request.url)));
        } else {
          response.destroy();
        }
      });
    });
    server.on('error', (error) => this.#log(`ui host: ${describe(error)}`));
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#streams.endAll();
      this.#server.closeIdleConnections();
      // After the streams' last bytes are written: whatever is still open (a call being answered) goes.
      setImmediate(() => this.#server.closeAllConnections());
    });
    return this.#closed;
  }

  /** The order matters: `Host` first (DNS rebinding), then method, origin, secret, and only then the route. */
  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response);
    const { path, query } = splitTarget(request.url ?? '');
    const api = isApiPath(path);
    const refuse = (status: number, error: UiError, headers: Record<string, string> = {}): void => {
      sendRefusal(response, status, error, api, headers);
    };
    const hostRefusal = checkHost(request, this.#address);
    if (hostRefusal !== null) {
      this.#log(`ui host: refused a request for host ${JSON.stringify(request.headers.host ?? '')}`);
      return refuse(403, hostRefusal);
    }
    const method = request.method ?? '';
    if (method !== 'GET' && method !== 'POST') {
      return refuse(405, hostError('UI_HOST_BAD_METHOD', `${method} is not answered here.`), {
        allow: 'GET, POST',
      });
    }
    const siteRefusal = checkSite(request, this.#address);
    if (siteRefusal !== null) {
      this.#log(`ui host: refused a request from origin ${JSON.stringify(request.headers.origin ?? '')}`);
      return refuse(403, siteRefusal);
    }
    const offered = path === '/' && method === 'GET' ? query.get('secret') : null;
    if (offered !== null) return this.#enter(response, offered);
    if (!this.secret.isInCookies(request.headers.cookie)) {
      return refuse(
        401,
        hostError(
          'UI_HOST_UNAUTHORIZED',
          'This window is not signed in to this run of mch-sync: open the address that `mch-sync ui` printed.',
        ),
      );
    }
    if (path === '/api/events') {
      if (method !== 'GET') return refuse(405, badMethod('GET'), { allow: 'GET' });
      this.#streams.open(response);
      return;
    }
    if (path.startsWith('/api/')) {
      if (method !== 'POST') return refuse(405, badMethod('POST'), { allow: 'POST' });
      return answerInvoke(request, response, this.#options.service.handlers, callName(path), this.#log);
    }
    if (api) return refuse(404, notFound());
    if (method !== 'GET') return refuse(405, badMethod('GET'), { allow: 'GET' });
    return this.#serveFile(response, path);
  }

  /** The printed address: a right secret becomes the cookie and the page, without the secret in the address bar. */
  #enter(response: ServerResponse, offered: string): void {
    if (!this.secret.matches(offered)) {
      this.#log('ui host: refused a visit with a wrong secret');
      sendPage(
        response,
        401,
        'Not signed in to this window',
        'This address is not the one this run of mch-sync printed: open the address that `mch-sync ui` printed.',
      );
      return;
    }
    // 303: the browser loads `/` with GET, and its history keeps `/`, not the secret.
    response.writeHead(303, {
      location: '/',
      'set-cookie': this.secret.setCookieHeader(),
      'content-length': 0,
    });
    response.end();
  }

  async #serveFile(response: ServerResponse, path: string): Promise<void> {
    if (path === BRIDGE_PATH) return send(response, contentTypeOf(BRIDGE_PATH), BRIDGE_SCRIPT);
    const index = join(this.#root, 'index.html');
    const file = await resolveStaticFile(this.#root, path === '/' ? '/index.html' : path);
    if (file === null) {
      // Browsers ask for it on their own; a renderer without one should not cost a console error each visit.
      if (path === '/favicon.ico') {
        response.writeHead(204).end();
        return;
      }
      return sendPage(response, 404, 'Not found', 'There is nothing at this address.');
    }
    // Read at each request rather than kept: a renderer rebuilt while the host runs is served as it is now.
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      // Removed since it was found (a rebuild in progress).
      return sendPage(response, 404, 'Not found', 'There is nothing at this address.');
    }
    if (file === index) {
      return send(response, contentTypeOf(file), injectBridge(content.toString('utf8'), BRIDGE_PATH));
    }
    return send(response, contentTypeOf(file), content);
  }
}

async function findRenderer(rendererDir: string): Promise<string> {
  try {
    const root = await realpath(rendererDir);
    if ((await stat(join(root, 'index.html'))).isFile()) return root;
  } catch {
    // Reported below.
  }
  throw new UiHostError(
    'UI_HOST_NO_RENDERER',
    `There is no built renderer in ${rendererDir} (no index.html): build it, or give the folder it was built into.`,
  );
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new UiHostError(
            'UI_HOST_PORT_IN_USE',
            `Port ${port} on 127.0.0.1 is taken by another program: choose another with --port, or leave --port out to use a free one.`,
            { cause: error },
          ),
        );
      } else {
        reject(
          new UiHostError(
            'UI_HOST_LISTEN_FAILED',
            `Could not listen on 127.0.0.1:${port}: ${error.message}`,
            { cause: error },
          ),
        );
      }
    });
    // Loopback only: nothing on the network can reach the host, whatever the firewall says.
    server.listen({ host: '127.0.0.1', port }, () => resolve());
  });
}

function send(response: ServerResponse, contentType: string, body: string | Buffer): void {
  if (!canAnswer(response)) return;
  response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/**
 * The request target split by hand rather than by `new URL(target, base)`, which would read
 * `//evil/x` as another host and resolve `..` segments before the file lookup could refuse them.
 */
function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  if (mark < 0) return { path: target, query: new URLSearchParams() };
  return { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

function pathOf(target: string | undefined): string {
  return splitTarget(target ?? '').path;
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** `/api/app%3Aabout` and `/api/app:about` are the same call; a name that cannot be decoded is unknown as it is. */
function callName(path: string): string {
  const raw = path.slice('/api/'.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function hostError(code: UiHostErrorCode, message: string): UiError {
  return new UiHostError(code, message).toUiError();
}

function badMethod(allowed: string): UiError {
  return hostError('UI_HOST_BAD_METHOD', `Only ${allowed} is answered at this address.`);
}

function notFound(): UiError {
  return hostError('UI_HOST_NOT_FOUND', 'There is nothing at this address.');
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
