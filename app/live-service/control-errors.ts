// Typed failures of the live service's control socket: a second instance, a bad request or answer, no answer.
import { MchError } from '../../common/errors.ts';

/**
 * `SERVICE_ALREADY_RUNNING`: another instance answers on the socket; `CONTROL_BAD_REQUEST`: a request
 * that is not JSON or not one of the operations; `CONTROL_REQUEST_TOO_LARGE`: over the size limit;
 * `CONTROL_BAD_ANSWER`: the service answered something the client cannot use, or nothing;
 * `CONTROL_TIMEOUT`: no answer in time; `CONTROL_HANDLER_FAILED`: the service failed to carry out a
 * request; `CONTROL_SOCKET_FAILED`: the socket could not be created, reached or trusted.
 */
export type ControlErrorCode =
  | 'SERVICE_ALREADY_RUNNING'
  | 'CONTROL_BAD_REQUEST'
  | 'CONTROL_REQUEST_TOO_LARGE'
  | 'CONTROL_BAD_ANSWER'
  | 'CONTROL_TIMEOUT'
  | 'CONTROL_HANDLER_FAILED'
  | 'CONTROL_SOCKET_FAILED';

const TITLES: Record<ControlErrorCode, string> = {
  SERVICE_ALREADY_RUNNING: 'Already running',
  CONTROL_BAD_REQUEST: 'Bad request',
  CONTROL_REQUEST_TOO_LARGE: 'Request too large',
  CONTROL_BAD_ANSWER: 'Unexpected answer',
  CONTROL_TIMEOUT: 'No answer in time',
  CONTROL_HANDLER_FAILED: 'Request failed',
  CONTROL_SOCKET_FAILED: 'Control socket unavailable',
};

export class ControlError extends MchError {
  declare readonly code: ControlErrorCode;

  constructor(code: ControlErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }
}

/** The service received the request and refused or failed it; `code` is the service's (`ControlErrorCode` or the handler's own). */
export class ServiceRefusalError extends MchError {
  constructor(error: { code: string; message: string }) {
    super(error.code, 'Refused by the service', error.message);
  }
}
