// Errors as the window shows them: words for people, the technical cause behind a disclosure, and the log that has the rest.
import type { InvokeName, UiError } from '../../common/contract.ts';
import { ApiError, MchError } from '../../common/errors.ts';

/** An error worded for the window; `details` (the technical cause) and `logFile` go behind its disclosure. */
export class WindowError extends MchError {
  readonly details: string | undefined;
  readonly logFile: string | undefined;

  constructor(
    code: string,
    title: string,
    message: string,
    extra: { details?: string | undefined; logFile?: string | undefined; cause?: unknown } = {},
  ) {
    super(code, title, message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.details = extra.details;
    this.logFile = extra.logFile;
  }
}

/** As it crosses to the window: plain data, the optional parts only when there are some. */
export function uiErrorOf(error: MchError): UiError {
  const crossing: UiError = { code: error.code, title: error.title, message: error.message };
  if (error instanceof WindowError) {
    if (error.details !== undefined) crossing.details = error.details;
    if (error.logFile !== undefined) crossing.logFile = error.logFile;
  }
  return crossing;
}

/** The codes of a service that did not answer, or answered that it cannot now: the window tries nothing again by itself. */
const UNANSWERED = new Set(['NETWORK', 'TIMEOUT', 'DEVICE_UNREACHABLE', 'RATE_LIMITED', 'SERVER_ERROR']);
/** What a wrong configuration URL gets: nothing there, or something that is not a device's configuration. */
const NOT_A_CONFIGURATION = new Set(['NOT_FOUND', 'BAD_RESPONSE', 'UNEXPECTED_STATUS', 'INSECURE_URL']);

const SIGN_IN_CALLS: ReadonlySet<InvokeName> = new Set(['account:signInPassword', 'account:signInBrowser']);
const ACCOUNT_CALLS: ReadonlySet<InvokeName> = new Set(['devices:list', 'devices:choose']);

export interface ErrorContext {
  call: InvokeName;
  /** The configuration URL a sign-in was asked with. */
  configUrl?: string | undefined;
  /** The window's log, named by an unexpected failure. */
  logFile: string;
}

/**
 * A call's failure in the window's words. The connection layer's messages are written for a service
 * that retries ("will try again later"); a call from the window is tried once, so what it says is what
 * the person can do now, and the connection layer's own words (ECONNREFUSED and the like) go to the
 * details. Anything that is not an MchError is unexpected: the caller has logged it, the window names
 * the log.
 */
export function windowErrorOf(error: unknown, context: ErrorContext): MchError {
  if (!(error instanceof MchError)) {
    const what = error instanceof Error ? error.message : String(error);
    return new WindowError(
      'INTERNAL',
      'Something went wrong',
      'mch-sync could not do this because of a fault of its own. Try again; if it fails again, the log says what happened.',
      { details: `${context.call}: ${what}`, logFile: context.logFile, cause: error },
    );
  }
  if (!(error instanceof ApiError)) return error;
  const details = technicalDetails(error);
  if (SIGN_IN_CALLS.has(context.call)) {
    const where = hostOf(context.configUrl);
    if (UNANSWERED.has(error.code)) {
      return new WindowError(
        'SIGN_IN_UNREACHABLE',
        'Could not reach the sign-in service',
        `Nothing answered at ${where}. Check the configuration URL under Advanced, and that the device is on and on this network, then sign in again.`,
        { details, cause: error },
      );
    }
    if (NOT_A_CONFIGURATION.has(error.code)) {
      return new WindowError(
        'SIGN_IN_WRONG_ADDRESS',
        'Not a sign-in address',
        `${where} answered, but not as a device's configuration service. Check the configuration URL under Advanced.`,
        { details, cause: error },
      );
    }
    return error;
  }
  if (!UNANSWERED.has(error.code)) return error;
  if (ACCOUNT_CALLS.has(context.call)) {
    return new WindowError(
      'ACCOUNT_UNREACHABLE',
      'Could not reach your account',
      'The service that lists your devices did not answer. Check the network, then try again.',
      { details, cause: error },
    );
  }
  const busy = error.code === 'RATE_LIMITED' || error.code === 'SERVER_ERROR';
  return new WindowError(
    busy ? 'DEVICE_BUSY' : 'DEVICE_UNREACHABLE',
    busy ? 'The device could not do it now' : 'Device not reachable',
    busy
      ? 'The device is busy or had a problem of its own. Try again in a moment.'
      : 'The device did not answer. Check that it is on and on this network, then try again.',
    { details, cause: error },
  );
}

/**
 * What the connection layer knew, for the disclosure: the code, the request and the system's own
 * words (its message, written for a service that retries, when there is no cause to quote).
 */
function technicalDetails(error: ApiError): string {
  const cause = error.cause instanceof Error ? error.cause.message : error.message;
  return [error.code, error.request, cause].filter((part) => part !== undefined).join(': ');
}

/** `host:port` of a URL for a sentence, or the text as given when it is not one. */
function hostOf(url: string | undefined): string {
  if (url === undefined || url === '') return 'the configuration URL';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A file, folder or link the system could not open (no graphical session, no application for it, the
 * opener failed): where it is, so the person can open it themselves.
 */
export function openFailedError(target: string, kind: 'item' | 'link', cause: unknown): WindowError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new WindowError(
    'OPEN_FAILED',
    kind === 'link' ? 'Could not open the link' : 'Could not open it',
    kind === 'link'
      ? `No browser opened ${target}. Copy the link and open it in a browser yourself.`
      : `No application opened ${target}. Open it from your file manager.`,
    { details: `The system's opener failed: ${why}.`, cause },
  );
}
