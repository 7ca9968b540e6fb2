// Typed failures of the state service: bad or oversized requests, its socket, an action refused, no client running.
import { MchError } from '../../common/errors.ts';

/**
 * `STATE_BAD_REQUEST`: a line that is not JSON or not one of the requests; `STATE_TOO_LARGE`: over
 * the size or path limit; `STATE_SOCKET_FAILED`: the socket could not be made, reached or trusted;
 * `STATE_NOT_SERVED`: no running client syncs the path; `STATE_ACTION_FAILED`: the action was refused
 * or failed (its message says why); `STATE_NO_WINDOW`: the client that syncs the path has no window;
 * `STATE_TIMEOUT`: no answer in time.
 */
export type StateErrorCode =
  | 'STATE_BAD_REQUEST'
  | 'STATE_TOO_LARGE'
  | 'STATE_SOCKET_FAILED'
  | 'STATE_NOT_SERVED'
  | 'STATE_ACTION_FAILED'
  | 'STATE_NO_WINDOW'
  | 'STATE_TIMEOUT';

const TITLES: Record<StateErrorCode, string> = {
  STATE_BAD_REQUEST: 'Bad request',
  STATE_TOO_LARGE: 'Request too large',
  STATE_SOCKET_FAILED: 'State socket unavailable',
  STATE_NOT_SERVED: 'Not synced by a running client',
  STATE_ACTION_FAILED: 'Could not do that',
  STATE_NO_WINDOW: 'No window to show',
  STATE_TIMEOUT: 'No answer in time',
};

export class StateError extends MchError {
  declare readonly code: StateErrorCode;

  constructor(code: StateErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }
}
