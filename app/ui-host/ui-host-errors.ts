// The failures of the headless UI host, with stable codes: refused requests, and a host that could not start.
import type { UiError } from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';

export type UiHostErrorCode =
  /** A request without this run's secret (no cookie, a wrong one, a wrong `?secret=`). */
  | 'UI_HOST_UNAUTHORIZED'
  /** A request for another host name or from another origin (DNS rebinding, a cross-site page). */
  | 'UI_HOST_FORBIDDEN'
  /** Nothing is at that path (a page, a file of the renderer, an `/api/` route). */
  | 'UI_HOST_NOT_FOUND'
  /** A method the path does not take (OPTIONS and HEAD anywhere, GET of a call, POST of a page). */
  | 'UI_HOST_BAD_METHOD'
  /** The port asked for is taken by another program. */
  | 'UI_HOST_PORT_IN_USE'
  /** The port is not a number from 0 to 65535, or listening failed for another reason. */
  | 'UI_HOST_LISTEN_FAILED'
  /** The built renderer (its `index.html`) is not where the host was told to look. */
  | 'UI_HOST_NO_RENDERER'
  /** Made by the bridge in the page: the host did not answer a call (it was stopped). */
  | 'UI_HOST_UNREACHABLE'
  /** Made by the bridge in the page: an answer that is not an InvokeResult (a bug, or not our server). */
  | 'UI_HOST_BAD_ANSWER';

const TITLES: Record<UiHostErrorCode, string> = {
  UI_HOST_UNAUTHORIZED: 'Not signed in to this window',
  UI_HOST_FORBIDDEN: 'Request refused',
  UI_HOST_NOT_FOUND: 'Not found',
  UI_HOST_BAD_METHOD: 'Method not allowed',
  UI_HOST_PORT_IN_USE: 'Port in use',
  UI_HOST_LISTEN_FAILED: 'Could not start the window',
  UI_HOST_NO_RENDERER: 'The window is not built',
  UI_HOST_UNREACHABLE: 'mch-sync is not answering',
  UI_HOST_BAD_ANSWER: 'Unexpected answer',
};

export class UiHostError extends MchError {
  declare readonly code: UiHostErrorCode;

  constructor(code: UiHostErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }

  /** As it crosses to the page. */
  toUiError(): UiError {
    return { code: this.code, title: this.title, message: this.message };
  }
}
