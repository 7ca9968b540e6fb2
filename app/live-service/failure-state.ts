// What the live service shows after a pass failed: offline, sign-in needed or an error, and when it tries again.
import { ApiError, MchError } from '../../common/errors.ts';
import type { EngineState } from '../../common/sync-status.ts';
import { formatDuration } from '../../common/units.ts';

const FIRST_BACKOFF_MS = 2_000;

const OFFLINE_CODES = new Set(['NETWORK', 'TIMEOUT', 'DEVICE_UNREACHABLE', 'SERVER_ERROR', 'RATE_LIMITED']);
const SIGN_IN_CODES = new Set(['AUTH_REQUIRED', 'AUTH_INVALID_CREDENTIALS', 'SIGN_IN_REQUIRED']);

export interface FailureState {
  state: Extract<EngineState, 'offline' | 'sign-in-needed' | 'error'>;
  detail: string;
  /** The error's code (UNEXPECTED for one that is not the app's own) and message, for the log. */
  code: string;
  message: string;
  /** How long the service waits before the next pass. */
  backoffMs: number;
}

/** The state after the `failures`-th pass in a row failed with `error`; the wait doubles up to `maxBackoffMs`. */
export function failureState(error: unknown, failures: number, maxBackoffMs: number): FailureState {
  const code = error instanceof MchError ? error.code : 'UNEXPECTED';
  const message = error instanceof Error ? error.message : String(error);
  const backoffMs = Math.min(maxBackoffMs, FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 16));
  if (error instanceof ApiError && OFFLINE_CODES.has(code)) {
    const detail = `The device cannot be reached (${message}); trying again in ${formatDuration(Math.round(backoffMs / 1000))}.`;
    return { state: 'offline', detail, code, message, backoffMs };
  }
  if (SIGN_IN_CODES.has(code)) {
    const detail = `${message} Sync waits until you sign in again (mch-sync login).`;
    return { state: 'sign-in-needed', detail, code, message, backoffMs };
  }
  return { state: 'error', detail: message, code, message, backoffMs };
}
