// Receives the browser's redirect after sign-in on a loopback HTTP server (RFC 8252 §7.3).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbortedError, assertNever } from '../../common/errors.ts';
import { formatDuration } from '../../common/units.ts';
import { SignInError } from './auth-errors.ts';
import {
  failedPage,
  NOT_FOUND_PAGE,
  PAGE_HEADERS,
  SIGNED_IN_PAGE,
  UNRELATED_PAGE,
} from './loopback-pages.ts';

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What became of one redirect, whether it reached the server or was pasted in. */
export type RedirectOutcome = 'accepted' | 'refused' | 'unrelated' | 'not-a-redirect';

export interface LoopbackReceiverOptions<T> {
  /** The `state` sent with the authorization request; answers without it are not this sign-in's. */
  state: string;
  /**
   * Turns the code into the result (the token exchange). The browser's page waits for it, so the
   * page says "signed in" only when signing in worked.
   */
  redeem: (code: string) => Promise<T>;
  /** How long to wait for the browser to come back. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

type Verdict =
  | { kind: 'code'; code: string }
  | { kind: 'error'; error: SignInError }
  | { kind: 'unrelated' }
  | { kind: 'not-a-redirect' };

type Outcome<T> = { value: T } | { error: Error };

/**
 * One sign-in's redirect target: `http://127.0.0.1:<free port>/callback/<random>`. The IP literal
 * rather than `localhost` (RFC 8252 §8.3: no resolver surprises, no other interface); the random
 * path and the `state` check make an answer from anything but this sign-in's browser tab useless.
 */
export class LoopbackReceiver<T> {
  readonly redirectUri: string;
  readonly #server: Server;
  readonly #path: string;
  readonly #options: LoopbackReceiverOptions<T>;
  readonly #result: Promise<T>;
  readonly #timer: NodeJS.Timeout;
  #settle: ((outcome: Outcome<T>) => void) | undefined;
  /** A code arrived and is being redeemed: later answers are not waited for any more. */
  #redeeming = false;

  private constructor(server: Server, path: string, options: LoopbackReceiverOptions<T>) {
    this.#server = server;
    this.#path = path;
    this.#options = options;
    this.redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
    const timeoutMs = options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    this.#timer = setTimeout(() => this.#settle?.({ error: timeoutError(timeoutMs) }), timeoutMs);
    const onAbort = (): void => this.#settle?.({ error: new AbortedError() });
    this.#result = new Promise<T>((resolve, reject) => {
      this.#settle = (outcome) => {
        this.#settle = undefined;
        clearTimeout(this.#timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.#stop();
        if ('value' in outcome) resolve(outcome.value);
        else reject(outcome.error);
      };
    });
    // The caller may not be awaiting yet when it fails; it reads the failure from `result()`.
    this.#result.catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      this.#onRequest(request, response);
    });
  }

  static async start<T>(options: LoopbackReceiverOptions<T>): Promise<LoopbackReceiver<T>> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new LoopbackReceiver(server, `/callback/${randomBytes(16).toString('hex')}`, options);
  }

  /** What `redeem` made of the code; rejects with a SignInError (or AbortedError) when the sign-in fails. */
  result(): Promise<T> {
    return this.#result;
  }

  /**
   * Takes the address a browser on another computer ended up on (which could not reach this one),
   * as pasted by the person signing in. The same checks apply as to a redirect that arrives here.
   */
  submitRedirectUrl(text: string): RedirectOutcome {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return 'not-a-redirect';
    }
    if (url.pathname !== this.#path) return 'not-a-redirect';
    const verdict = this.#judge(url.searchParams);
    switch (verdict.kind) {
      case 'code':
        void this.#redeem(verdict.code).then((outcome) => this.#settle?.(outcome));
        return 'accepted';
      case 'error':
        this.#settle?.({ error: verdict.error });
        return 'refused';
      case 'unrelated':
      case 'not-a-redirect':
        return verdict.kind;
      default:
        return assertNever(verdict, 'redirect verdict');
    }
  }

  /** Stops waiting; a pending `result()` rejects as cancelled. */
  cancel(): void {
    this.#settle?.({ error: new AbortedError() });
  }

  #onRequest(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== this.#path) {
      response.writeHead(404, PAGE_HEADERS).end(NOT_FOUND_PAGE);
      return;
    }
    const verdict = this.#judge(url.searchParams);
    // Settled once the page is on its way, so the browser gets it before the server stops.
    const answer = (status: number, page: string, outcome?: Outcome<T>): void => {
      if (outcome !== undefined) response.once('finish', () => this.#settle?.(outcome));
      response.writeHead(status, PAGE_HEADERS).end(page);
    };
    switch (verdict.kind) {
      case 'code':
        void this.#redeem(verdict.code).then((outcome) => {
          answer(200, 'value' in outcome ? SIGNED_IN_PAGE : failedPage(outcome.error.message), outcome);
        });
        break;
      case 'error':
        answer(200, failedPage(verdict.error.message), { error: verdict.error });
        break;
      case 'unrelated':
      case 'not-a-redirect':
        answer(400, UNRELATED_PAGE);
        break;
      default:
        assertNever(verdict, 'redirect verdict');
    }
  }

  #judge(params: URLSearchParams): Verdict {
    const code = params.get('code');
    const error = params.get('error');
    if (code === null && error === null) return { kind: 'not-a-redirect' };
    // RFC 6749 §10.12: an answer without this sign-in's state may be forged; it neither ends nor
    // fails the sign-in, which keeps waiting for the real one (or its timeout). Once a code is being
    // redeemed, nothing else is this sign-in's answer any more.
    if (params.get('state') !== this.#options.state || this.#redeeming || this.#settle === undefined) {
      return { kind: 'unrelated' };
    }
    if (error !== null) {
      return { kind: 'error', error: errorFromRedirect(error, params.get('error_description')) };
    }
    return code === '' || code === null ? { kind: 'not-a-redirect' } : { kind: 'code', code };
  }

  async #redeem(code: string): Promise<Outcome<T>> {
    this.#redeeming = true;
    // The browser has come back; from here the exchange's own time limits apply.
    clearTimeout(this.#timer);
    try {
      return { value: await this.#options.redeem(code) };
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  #stop(): void {
    this.#server.close();
    // Browsers keep idle connections open; they would hold the server (and the process) alive.
    this.#server.closeIdleConnections();
    setImmediate(() => this.#server.closeAllConnections());
  }
}

function timeoutError(timeoutMs: number): SignInError {
  return new SignInError(
    'SIGN_IN_TIMEOUT',
    `No sign-in arrived from the browser within ${formatDuration(timeoutMs / 1000)}: run \`mch-sync login\` again and finish ` +
      'signing in on the page that opens (or open the printed address yourself).',
  );
}

/** RFC 6749 §4.1.2.1 error codes, as a typed error with what to do next. */
export function errorFromRedirect(error: string, description: string | null): SignInError {
  const said = description ? `: ${description}` : '';
  if (error === 'access_denied') {
    return new SignInError(
      'SIGN_IN_DENIED',
      `The sign-in was refused in the browser (access_denied${said}). Run \`mch-sync login\` again to retry.`,
    );
  }
  if (error === 'temporarily_unavailable' || error === 'server_error') {
    return new SignInError(
      'SIGN_IN_FAILED',
      `The identity provider could not sign you in just now (${error}${said}): wait a moment and run \`mch-sync login\` again.`,
    );
  }
  return new SignInError(
    'SIGN_IN_FAILED',
    `The identity provider refused the sign-in request (${error}${said}). This points to a problem in mch-sync ` +
      'or in the configuration: try again with `mch-sync login`, and report it if it persists.',
  );
}
