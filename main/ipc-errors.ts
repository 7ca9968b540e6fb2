// The contract errors the Electron host makes itself: a refused sender, and the preload's own failures.
import type { UiError } from '../common/contract.ts';
import { MchError } from '../common/errors.ts';

export type IpcErrorCode =
  /** A call from a page or frame other than the app's own window (main/ipc.ts refuses it). */
  | 'CONTRACT_UNTRUSTED_SENDER'
  /** Made by the preload: the main process did not answer a call (it is quitting, or crashed). */
  | 'IPC_UNREACHABLE'
  /** Made by the preload: an answer that is not an InvokeResult (a bug). */
  | 'IPC_BAD_ANSWER';

const TITLES: Record<IpcErrorCode, string> = {
  CONTRACT_UNTRUSTED_SENDER: 'Call refused',
  // The same words as the headless host's UI_HOST_UNREACHABLE and UI_HOST_BAD_ANSWER.
  IPC_UNREACHABLE: 'mch-sync is not answering',
  IPC_BAD_ANSWER: 'Unexpected answer',
};

const MESSAGES: Record<IpcErrorCode, string> = {
  CONTRACT_UNTRUSTED_SENDER: "Only mch-sync's own window may make this call; this page or frame is not it.",
  IPC_UNREACHABLE: 'mch-sync did not answer the window: quit it and start it again.',
  IPC_BAD_ANSWER: 'mch-sync answered with something that is not a result.',
};

export class IpcError extends MchError {
  declare readonly code: IpcErrorCode;

  constructor(code: IpcErrorCode) {
    super(code, TITLES[code], MESSAGES[code]);
  }

  /** As it crosses to the window: plain data. */
  toUiError(): UiError {
    return { code: this.code, title: this.title, message: this.message };
  }
}
