// The one place that reads HTTP status numbers and got's error codes and turns them into typed errors (style.md §4).
import {
  AbortedError,
  type ApiError,
  type ApiErrorDetails,
  AuthError,
  BadResponseError,
  ConflictError,
  DeviceError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  OutcomeUnknownError,
  PreconditionFailedError,
  SourceChangedError,
} from '../../../common/errors.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { ProxyRefusedError, proxyRefusal } from './proxy-agents.ts';
import type { ProxyResolver } from './proxy-resolver.ts';

/**
 * What a status means to the transport. Clients switch on this, never on the number: `partial` is a
 * 206, `not-modified` a 304, `accepted` a 202 (a folder delete finishing in the background).
 */
export type ResponseKind =
  | 'ok'
  | 'created'
  | 'accepted'
  | 'no-content'
  | 'partial'
  | 'not-modified'
  | 'range-not-satisfiable'
  | 'unauthorized'
  | 'throttled'
  | 'unavailable'
  | 'failed';

export function classifyStatus(status: number): ResponseKind {
  if (status === 201) return 'created';
  if (status === 202) return 'accepted';
  if (status === 204) return 'no-content';
  if (status === 206) return 'partial';
  if (status >= 200 && status < 300) return 'ok';
  if (status === 304) return 'not-modified';
  if (status === 401) return 'unauthorized';
  if (status === 416) return 'range-not-satisfiable';
  if (status === 429) return 'throttled';
  // 501: the service lacks the method; 507: the device's disk is full. Asking again changes neither.
  if (status >= 500 && status < 600 && status !== 501 && status !== 507) return 'unavailable';
  return 'failed';
}

/** Kinds that are answers a caller can use; every other kind becomes an error unless the caller accepts it. */
export function isSuccessKind(kind: ResponseKind): boolean {
  return (
    kind === 'ok' || kind === 'created' || kind === 'accepted' || kind === 'no-content' || kind === 'partial'
  );
}

/** The label and message of an error body in any of the three formats the services use (device-api.md). */
export function errorBodyText(body: Buffer): { label?: string; message?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const record = parsed as Record<string, unknown>;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value.slice(0, 500) : undefined;
  // Wrapped services: {data: null, error: {label, message}}.
  if (typeof record['error'] === 'object' && record['error'] !== null) {
    const inner = record['error'] as Record<string, unknown>;
    return { label: text(inner['label']), message: text(inner['message']) };
  }
  // Identity (Auth0 style): {error, error_description}.
  if (typeof record['error'] === 'string') {
    return { label: text(record['error']), message: text(record['error_description']) };
  }
  // Device API: {label, message}.
  return { label: text(record['label']), message: text(record['message']) };
}

/** Milliseconds to wait according to a `Retry-After` header (seconds or an HTTP date), if it has one. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface FailureContext {
  /** e.g. "create report.pdf", used in messages. */
  what: string;
  details: ApiErrorDetails;
}

/** The typed error for an answer with a status that is not a success for this request. */
export function errorFromStatus(status: number, body: Buffer, context: FailureContext): ApiError {
  const { label, message: serviceMessage } = errorBodyText(body);
  const details: ApiErrorDetails = { ...context.details, httpStatus: status, label };
  const said = serviceMessage === undefined ? '' : ` The service said: ${serviceMessage}`;
  const what = context.what;
  if (status === 401 && label === 'invalid_client') {
    return new DeviceError(
      'BAD_REQUEST',
      'Client not known',
      `Could not ${what}: the identity provider does not know this app's client id.${said}`,
      details,
    );
  }
  if (status === 401) {
    return new AuthError(
      'AUTH_REQUIRED',
      `The token was refused while trying to ${what}: sign in again.${said}`,
      details,
    );
  }
  // Auth0 answers a wrong password with 403 invalid_grant (device-api.md §2).
  if (status === 403 && label === 'invalid_grant') {
    return new AuthError(
      'AUTH_INVALID_CREDENTIALS',
      `Could not ${what}: check the name and password.${said}`,
      details,
    );
  }
  if (status === 400 && label === 'invalid_grant') {
    return new AuthError(
      'AUTH_REQUIRED',
      `Could not ${what}: the grant is no longer valid, sign in again.${said}`,
      details,
    );
  }
  if (status === 403) return new ForbiddenError(`Not allowed to ${what}.${said}`, details);
  if (status === 404 || status === 410)
    return new NotFoundError(`Could not ${what}: it does not exist.${said}`, details);
  if (status === 409)
    return new ConflictError(`Could not ${what}: it conflicts with what is there.${said}`, details);
  if (status === 412) {
    return new PreconditionFailedError(
      `Could not ${what}: it changed meanwhile; read it again.${said}`,
      details,
    );
  }
  if (status === 405 || status === 501) {
    return new DeviceError('NOT_SUPPORTED', 'Not supported', `The service cannot ${what}.${said}`, details);
  }
  if (status === 429) {
    return new DeviceError(
      'RATE_LIMITED',
      'Too many requests',
      `Could not ${what}: too many requests; will try again later.${said}`,
      details,
    );
  }
  if (status >= 500 && status < 600) {
    return new DeviceError(
      'SERVER_ERROR',
      'Service failing',
      `Could not ${what}: the service failed; will try again later.${said}`,
      details,
    );
  }
  if (status >= 400 && status < 500) {
    return new DeviceError(
      'BAD_REQUEST',
      'Request refused',
      `The service refused to ${what}.${said}`,
      details,
    );
  }
  return new DeviceError(
    'UNEXPECTED_STATUS',
    'Unexpected answer',
    `Unexpected HTTP ${status} while trying to ${what}.`,
    details,
  );
}

/** Whether a network failure happened before anything of the request could reach the service. */
function failedBeforeSending(code: string | undefined, event: string | undefined): boolean {
  if (event === 'lookup' || event === 'connect' || event === 'secureConnect') return true;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ENETUNREACH' ||
    code === 'EHOSTUNREACH'
  );
}

export interface RequestFailure {
  error: ApiError;
  /** Nothing reached the service, so even a non-idempotent request may be sent again. */
  notSent: boolean;
}

/** The typed error for a got (or stream) error: no answer, or an answer cut short. */
export function errorFromFailure(
  error: unknown,
  context: FailureContext & { idempotent: boolean },
): RequestFailure {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const name = typeof record['name'] === 'string' ? record['name'] : '';
  const code = typeof record['code'] === 'string' ? record['code'] : undefined;
  const event = typeof record['event'] === 'string' ? record['event'] : undefined;
  const details: ApiErrorDetails = { ...context.details, cause: error };
  if (error instanceof AbortedError) return { error, notSent: false };
  // The body's own failure (a file that shrank while read) says more than the broken request does.
  const cause = record['cause'];
  if (error instanceof SourceChangedError) return { error, notSent: false };
  if (cause instanceof SourceChangedError) return { error: cause, notSent: false };
  if (name === 'AbortError' || code === 'ERR_ABORTED' || code === 'ABORT_ERR') {
    return { error: new AbortedError(details), notSent: false };
  }
  if (error instanceof BadResponseError) return { error, notSent: false };
  // A proxy that would not carry the request: nothing reached the service, and the proxy says why.
  const refusal =
    error instanceof ProxyRefusedError ? error : cause instanceof ProxyRefusedError ? cause : undefined;
  if (refusal !== undefined) {
    return {
      error: new NetworkError('NETWORK', `Could not ${context.what}: ${refusal.message}.`, {
        ...details,
        cause: refusal,
      }),
      notSent: true,
    };
  }
  const notSent = failedBeforeSending(code, event);
  const detail = typeof record['message'] === 'string' ? record['message'] : String(error);
  if (!notSent && !context.idempotent) {
    return {
      error: new OutcomeUnknownError(
        `The connection broke while trying to ${context.what}, so it may or may not have happened: look it up before trying again (${detail}).`,
        details,
      ),
      notSent,
    };
  }
  if (code === 'ETIMEDOUT' || name === 'TimeoutError') {
    return {
      error: new NetworkError(
        'TIMEOUT',
        `No answer in time while trying to ${context.what} (${detail}); will try again later.`,
        details,
      ),
      notSent,
    };
  }
  return {
    error: new NetworkError(
      'NETWORK',
      `Could not ${context.what}: ${detail}; will try again later.`,
      details,
    ),
    notSent,
  };
}

/**
 * The proxy's refusal of an http request sent through it, by name, instead of a refusal of the
 * device: a 407, or a 401 with a `Basic` challenge. The services challenge with `Bearer` (device-api.md
 * §1) and the client never sends them Basic credentials, while some proxies (tinyproxy 1.11) answer a
 * missing or wrong proxy password with a 401 and `WWW-Authenticate: Basic`.
 */
export function proxyRefusalOf(
  status: number,
  headers: IncomingHttpHeaders,
  url: URL,
  proxy: ProxyResolver | undefined,
): ProxyRefusedError | undefined {
  if (url.protocol !== 'http:' || (status !== 407 && status !== 401)) return undefined;
  const server = proxy?.proxyFor(url);
  if (server === undefined) return undefined;
  const challenge = String(headers['www-authenticate'] ?? '');
  if (status === 401 && !/^\s*basic\b/i.test(challenge)) return undefined;
  return proxyRefusal(server, 407, url.host);
}
