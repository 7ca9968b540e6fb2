// Sends one logical request with got: bearer token, correlation id, timeouts, retries, one refresh on 401.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import got, { type Got } from 'got';
import { AbortedError, AuthError, OutcomeUnknownError, type ApiError } from '../../../common/errors.ts';
import {
  classifyStatus,
  errorFromFailure,
  errorFromStatus,
  isSuccessKind,
  retryAfterMs,
} from './http-errors.ts';
import type { ResponseKind } from './http-errors.ts';
import { isIdempotent, nextDelayMs, retryPolicy, type RetryPolicy } from './retry-policy.ts';
import { attemptOnce, headerText, readAll, type RequestSpec } from './http-attempt.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUTS, type Timeouts } from './http-limits.ts';
import { assertTokenSafe, describeRequest } from './url-safety.ts';
import type { RequestRoute } from './request-route.ts';
import type { ProxyResolver } from './proxy-resolver.ts';
import { limitedAnswer, limitedUpload, takeInMemoryUpload, type Bandwidth } from './bandwidth.ts';

export type { HttpMethod } from './url-safety.ts';
export type { ResponseKind } from './http-errors.ts';
export type { RequestSpec } from './http-attempt.ts';
export { headerText } from './http-attempt.ts';
export type { Progress, Timeouts } from './http-limits.ts';
export type { RequestRoute } from './request-route.ts';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUTS } from './http-limits.ts';

/** Where requests get their bearer token; the token manager of `app/auth/` implements it. */
export interface AccessTokenProvider {
  accessToken(): Promise<string>;
  /** After a 401 with `rejected`: refresh once and return the new token (throws a typed auth error if it cannot). */
  refreshAfterUnauthorized(rejected: string): Promise<string>;
}

export interface ApiLogEntry {
  message: string;
  correlationId: string;
  /** `GET https://host/path`, without the query. */
  request: string;
  attempt: number;
  status?: number;
  durationMs?: number;
  error?: string;
}

export interface TransportOptions {
  tokens?: AccessTokenProvider;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  maxBodyBytes?: number;
  /** Debug log of every attempt; never receives a token. */
  log?: (entry: ApiLogEntry) => void;
  /** For the backoff jitter; tests pass a seeded one. */
  random?: () => number;
  userAgent?: string;
  /** The service's addresses when it has several (the device): each attempt goes where the route says. */
  route?: RequestRoute;
  /** The proxies of the run (settings, environment, system): one instance, kept by derived transports. */
  proxy?: ProxyResolver;
  /** The process's upload and download limits: one instance, kept by every transport derived from this one. */
  bandwidth?: Bandwidth;
}

interface ResponseHead {
  kind: ResponseKind;
  headers: IncomingHttpHeaders;
  correlationId: string;
  url: URL;
}

export interface ApiResponse extends ResponseHead {
  body: Buffer;
}

export interface StreamResponse extends ResponseHead {
  /** Must be read to the end or destroyed. */
  body: Readable;
}

const ERROR_BODY_LIMIT = 64 * 1024;

export class Transport {
  readonly tokens: AccessTokenProvider | undefined;
  readonly #got: Got;
  readonly #policy: RetryPolicy;
  readonly #timeouts: Timeouts;
  readonly #maxBodyBytes: number;
  readonly #log: ((entry: ApiLogEntry) => void) | undefined;
  readonly #random: () => number;
  readonly #options: TransportOptions;
  readonly #userAgent: string;

  constructor(options: TransportOptions = {}) {
    this.#options = options;
    this.tokens = options.tokens;
    this.#policy = retryPolicy(options.retry);
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#log = options.log;
    this.#random = options.random ?? Math.random;
    this.#userAgent = options.userAgent ?? 'mch-sync';
    // Retries, redirects and status errors are all decided here, not by got's defaults.
    this.#got = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      headers: { 'user-agent': this.#userAgent },
    });
  }

  /** Same options, another token provider (none for the identity provider, or a share's token). */
  withTokens(tokens: AccessTokenProvider | undefined): Transport {
    return new Transport({ ...this.#options, tokens });
  }

  /** Same options, requests sent where `route` says (a device client's transport). */
  withRoute(route: RequestRoute | undefined): Transport {
    return new Transport({ ...this.#options, route });
  }

  /** Same token provider, some options changed (for example a short probe without retries). */
  withOptions(overrides: { retry?: Partial<RetryPolicy>; timeouts?: Partial<Timeouts> }): Transport {
    const options = this.#options;
    return new Transport({
      ...options,
      retry: { ...options.retry, ...overrides.retry },
      timeouts: { ...options.timeouts, ...overrides.timeouts },
    });
  }

  /** Same options, through the run's proxies (a transport made before they were read, by the limits). */
  withProxy(proxy: ProxyResolver): Transport {
    return new Transport({ ...this.#options, proxy });
  }

  get policy(): RetryPolicy {
    return this.#policy;
  }

  /** Logs an attempt made beside `request` (pipelined listing revalidations) as its own are logged. */
  note(entry: ApiLogEntry): void {
    this.#log?.(entry);
  }

  get timeouts(): Timeouts {
    return this.#timeouts;
  }

  get maxBodyBytes(): number {
    return this.#maxBodyBytes;
  }

  get userAgent(): string {
    return this.#userAgent;
  }

  /** The proxies requests go through (the listing revalidator asks whether the device's is one). */
  get proxy(): ProxyResolver | undefined {
    return this.#options.proxy;
  }

  /** Sends the request (retrying as the policy allows) and reads the whole answer. */
  async request(spec: RequestSpec): Promise<ApiResponse> {
    return (await this.#send(spec, 'buffer')) as ApiResponse;
  }

  /**
   * Sends the request and hands back the answer's body as a stream. Retries cover everything before
   * the answer's headers; a break while reading the body is the caller's to resume.
   */
  async stream(spec: RequestSpec): Promise<StreamResponse> {
    return (await this.#send(spec, 'stream')) as StreamResponse;
  }

  /** Backoff wait that a caller resuming a transfer can share; undefined when it should give up. */
  retryDelay(attempt: number, startedAt: number): number | undefined {
    return nextDelayMs(this.#policy, { attempt, elapsedMs: Date.now() - startedAt }, this.#random);
  }

  async #send(spec: RequestSpec, mode: 'buffer' | 'stream'): Promise<ApiResponse | StreamResponse> {
    const correlationId = randomUUID();
    const request = describeRequest(spec.method, spec.url);
    const details = { correlationId, request };
    const idempotent = spec.idempotent ?? isIdempotent(spec.method, spec.headers ?? {});
    const auth = spec.auth ?? (this.tokens ? 'provider' : 'none');
    const route = this.#options.route;
    if (auth !== 'none') assertTokenSafe(spec.url);
    const startedAt = Date.now();
    let token = await this.#firstToken(auth);
    let refreshed = false;
    // A write whose answer was lost may have been applied (see the 412 case below).
    let maybeApplied = false;
    const bandwidth = this.#options.bandwidth;
    const sent = bandwidth === undefined ? spec : limitedUpload(spec, bandwidth.up);
    for (let attempt = 1; ; attempt += 1) {
      if (spec.signal?.aborted) throw new AbortedError(details);
      // Each attempt goes to the address in use now: a retry after the home address went away goes
      // through the relay without waiting for the backoff to run out on the dead one.
      const url = route === undefined ? spec.url : await route.resolve(spec.url, spec.signal);
      if (auth !== 'none' && url !== spec.url) assertTokenSafe(url);
      if (bandwidth !== undefined) {
        await takeInMemoryUpload(sent, bandwidth.up).catch(() => {
          throw new AbortedError(details);
        });
      }
      const began = Date.now();
      const outcome = await attemptOnce(this.#got, url === spec.url ? sent : { ...sent, url }, {
        token,
        correlationId,
        mode,
        timeouts: this.#timeouts,
        maxBodyBytes: this.#maxBodyBytes,
        userAgent: this.#userAgent,
        proxy: this.#options.proxy,
      }).then(
        (answer) => answer,
        (error: unknown) => errorFromFailure(error, { what: spec.what, details, idempotent }),
      );
      let failure: ApiError;
      let retryAfter: number | undefined;
      if ('error' in outcome) {
        failure = outcome.error;
        this.#log?.({ message: 'failed', correlationId, request, attempt, error: failure.describe() });
        if (failure.code === 'NETWORK' || failure.code === 'TIMEOUT' || failure.code === 'OUTCOME_UNKNOWN') {
          route?.unreachable(url, failure);
        }
        // Asking again does not make a cancelled request wanted, nor a broken answer well-formed, nor a
        // file that changed while it was sent quiet (file-source.ts: a later pass sends it again).
        if (
          failure.code === 'ABORTED' ||
          failure.code === 'BAD_RESPONSE' ||
          failure.code === 'SOURCE_CHANGED'
        )
          throw failure;
        // A request that may have reached the service is only repeated when repeating it is harmless.
        if (!idempotent && !outcome.notSent) throw failure;
        if (!outcome.notSent && spec.method !== 'GET' && spec.method !== 'HEAD') maybeApplied = true;
      } else {
        const { status, headers } = outcome;
        const kind = classifyStatus(status);
        this.#log?.({
          message: 'answer',
          correlationId,
          request,
          attempt,
          status,
          durationMs: Date.now() - began,
        });
        if (isSuccessKind(kind) || spec.accept?.includes(kind)) {
          const head: ResponseHead = { kind, headers, correlationId, url };
          const body =
            bandwidth === undefined
              ? outcome.body
              : await limitedAnswer(outcome.body, bandwidth.down, spec.signal).catch((error: unknown) => {
                  if (!Buffer.isBuffer(outcome.body)) outcome.body.destroy();
                  throw error instanceof AbortedError ? new AbortedError(details) : error;
                });
          return { ...head, body } as ApiResponse | StreamResponse;
        }
        const errorBody = Buffer.isBuffer(outcome.body)
          ? outcome.body
          : await readAll(outcome.body, ERROR_BODY_LIMIT, spec, details).catch(() => Buffer.alloc(0));
        failure = errorFromStatus(status, errorBody, { what: spec.what, details });
        if (failure.code === 'PRECONDITION_FAILED' && maybeApplied) {
          // The earlier attempt may have been applied and changed the eTag itself: 412 proves nothing.
          throw new OutcomeUnknownError(
            `The connection broke while trying to ${spec.what}, and a second try found the item changed: it may have been applied. Read it again before deciding.`,
            { ...details, label: failure.label, cause: failure },
          );
        }
        if (
          kind === 'unauthorized' &&
          auth === 'provider' &&
          !refreshed &&
          this.tokens &&
          token !== undefined
        ) {
          // One refresh, then one more try; a second 401 is the caller's to handle (sign in again).
          refreshed = true;
          token = await this.tokens.refreshAfterUnauthorized(token);
          attempt -= 1;
          continue;
        }
        if (!idempotent || (kind !== 'throttled' && kind !== 'unavailable')) throw failure;
        retryAfter = retryAfterMs(headerText(headers['retry-after']));
      }
      const elapsedMs = Date.now() - startedAt;
      const delay = nextDelayMs(this.#policy, { attempt, elapsedMs, retryAfterMs: retryAfter }, this.#random);
      if (delay === undefined) throw failure;
      // Another address answers: go there at once rather than after the backoff.
      if (route !== undefined && (await route.resolve(spec.url, spec.signal)).href !== url.href) continue;
      this.#log?.({ message: `retrying in ${delay} ms`, correlationId, request, attempt });
      try {
        await sleep(delay, undefined, { signal: spec.signal });
      } catch {
        throw new AbortedError(details);
      }
    }
  }

  async #firstToken(auth: RequestSpec['auth']): Promise<string | undefined> {
    if (auth === 'none' || auth === undefined) return undefined;
    if (typeof auth === 'object') return auth.bearer;
    if (!this.tokens)
      throw new AuthError('AUTH_REQUIRED', 'This request needs a sign-in, and none is set up.');
    return this.tokens.accessToken();
  }
}
