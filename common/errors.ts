// The base error type shared by every part of the project: a stable code, a title for people, a next step.

/** Every error the project raises on purpose carries a stable `code` that callers may switch on. */
export class MchError extends Error {
  readonly code: string;
  /** A few words for the UI, for example "Device unreachable". */
  readonly title: string;

  constructor(code: string, title: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.title = title;
  }
}

/** A broken invariant: a bug in this project, never a user or network problem. */
export class BugError extends MchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BUG', 'Internal error', message, options);
  }
}

/** Marks the end of an exhaustive switch; reaching it at run time is a bug. */
export function assertNever(value: never, what = 'value'): never {
  throw new BugError(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Stable codes of the failures the client's connection layer (`app/api/`) reports. */
export const API_ERROR_CODES = [
  'ABORTED',
  'NETWORK',
  'TIMEOUT',
  'OUTCOME_UNKNOWN',
  'INSECURE_URL',
  'DEVICE_UNREACHABLE',
  'AUTH_REQUIRED',
  'AUTH_INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'BAD_REQUEST',
  'NOT_SUPPORTED',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'UNEXPECTED_STATUS',
  'BAD_RESPONSE',
  'INVALID_NAME',
  'SOURCE_CHANGED',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** What an API error knows about the request that failed; all optional, for logs and bug reports. */
export interface ApiErrorDetails {
  /** The `x-correlation-id` sent with the request (also in the device's log). */
  correlationId?: string;
  /** The error label the service gave (`NAME_CONFLICT`, `invalid_grant`...), when it gave one. */
  label?: string;
  /** `GET https://host/path`, without the query (which may hold a token). */
  request?: string;
  /** The HTTP status, for logs only: callers switch on `code`, never on a status. */
  httpStatus?: number;
  cause?: unknown;
}

/** A failure of a request to one of the services; `code` says what callers may do about it. */
export class ApiError extends MchError {
  declare readonly code: ApiErrorCode;
  readonly correlationId: string | undefined;
  readonly label: string | undefined;
  readonly request: string | undefined;
  /** Kept private so that no caller grows a dependency on status numbers (style.md §4). */
  readonly #httpStatus: number | undefined;

  constructor(code: ApiErrorCode, title: string, message: string, details: ApiErrorDetails = {}) {
    super(code, title, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.correlationId = details.correlationId;
    this.label = details.label;
    this.request = details.request;
    this.#httpStatus = details.httpStatus;
  }

  /** Whether trying the same request again later may succeed. */
  get transient(): boolean {
    return (
      this.code === 'NETWORK' ||
      this.code === 'TIMEOUT' ||
      this.code === 'RATE_LIMITED' ||
      this.code === 'SERVER_ERROR' ||
      this.code === 'DEVICE_UNREACHABLE'
    );
  }

  /** One line for a debug log: code, request, status, label and correlation id. */
  describe(): string {
    const parts = [this.code, this.request, this.#httpStatus, this.label, this.correlationId];
    return `${parts.filter((part) => part !== undefined).join(' ')}: ${this.message}`;
  }
}

/** The caller cancelled the request through its AbortSignal. */
export class AbortedError extends ApiError {
  constructor(details: ApiErrorDetails = {}) {
    super('ABORTED', 'Cancelled', 'The request was cancelled.', details);
  }
}

/** The service could not be reached or the connection broke (code NETWORK or TIMEOUT). */
export class NetworkError extends ApiError {
  constructor(code: 'NETWORK' | 'TIMEOUT', message: string, details: ApiErrorDetails = {}) {
    super(code, code === 'TIMEOUT' ? 'No answer in time' : 'Connection problem', message, details);
  }
}

/**
 * A request that is not safe to repeat (such as a create) may or may not have taken effect: the
 * connection broke after it was sent. Look the result up (for a create: by parent and name).
 */
export class OutcomeUnknownError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('OUTCOME_UNKNOWN', 'Result unknown', message, details);
  }
}

/** A URL the client refuses to use, such as a plain-http address that would receive a token. */
export class InsecureUrlError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('INSECURE_URL', 'Insecure address', message, details);
  }
}

/** None of the device's addresses answered. */
export class DeviceUnreachableError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('DEVICE_UNREACHABLE', 'Device unreachable', message, details);
  }
}

/** Signing in failed or is needed again (AUTH_REQUIRED), or the name or password was wrong. */
export class AuthError extends ApiError {
  constructor(
    code: 'AUTH_REQUIRED' | 'AUTH_INVALID_CREDENTIALS',
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(code, code === 'AUTH_REQUIRED' ? 'Sign-in needed' : 'Wrong name or password', message, details);
  }
}

/** The caller may not do this (missing scope or permission). */
export class ForbiddenError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('FORBIDDEN', 'Not allowed', message, details);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('NOT_FOUND', 'Not found', message, details);
  }
}

/** A name clash or a busy resource. */
export class ConflictError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('CONFLICT', 'Conflict', message, details);
  }
}

/** The item changed since its eTag was read (If-Match failed): read it again, then decide. */
export class PreconditionFailedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('PRECONDITION_FAILED', 'Changed meanwhile', message, details);
  }
}

/**
 * The service answered with an error that is neither of the above: the request was refused
 * (BAD_REQUEST, NOT_SUPPORTED), the service is overloaded or failing (RATE_LIMITED, SERVER_ERROR), or
 * the status was one this client does not expect (UNEXPECTED_STATUS).
 */
export class DeviceError extends ApiError {
  constructor(
    code: 'BAD_REQUEST' | 'NOT_SUPPORTED' | 'RATE_LIMITED' | 'SERVER_ERROR' | 'UNEXPECTED_STATUS',
    title: string,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(code, title, message, details);
  }
}

/** The service answered something this client cannot use: not JSON, the wrong shape, too big, cut short. */
export class BadResponseError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('BAD_RESPONSE', 'Unexpected answer', message, details);
  }
}

/** The local file being sent changed size while it was read: the request was given up, not sent short. */
export class SourceChangedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('SOURCE_CHANGED', 'File changed while sent', message, details);
  }
}

/** A name that could escape its folder or that the device cannot store (`/`, `\`, NUL, `.`, `..`, >255 bytes). */
export class InvalidNameError extends ApiError {
  readonly invalidName: string;

  constructor(name: string, reason: string, details: ApiErrorDetails = {}) {
    super('INVALID_NAME', 'Invalid name', `The name ${JSON.stringify(name)} ${reason}.`, details);
    this.invalidName = name;
  }
}
