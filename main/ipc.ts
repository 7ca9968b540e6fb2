// The UI contract over Electron IPC in the main process: every call's sender checked and its request validated (by dispatch) before app/ sees it; the core's events sent to the window.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { InvokeResult } from '../common/contract.ts';
import { IPC_EVENT, IPC_INVOKE } from '../common/ipc-channels.ts';
import { isTrustedRendererUrl } from '../app/desktop/ipc-trust.ts';
import { dispatch, type ContractService } from '../app/ui/dispatch.ts';
import { IpcError } from './ipc-errors.ts';

export type MainLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface ContractIpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  service: ContractService;
  /** The renderer's origin, such as `mch-app://ui`: only its index page in a top frame may call. */
  appOrigin: string;
  log: MainLog;
}

/** What the sender check reads of an IPC event: the frame that sent it. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'>;

/** Registers the handler of every contract call; returns the function that removes it. */
export function registerContractIpc(options: ContractIpcOptions): () => void {
  const { ipcMain, service, appOrigin, log } = options;
  // A malformed origin is a bug of the caller: refuse to start rather than refuse every call later.
  isTrustedRendererUrl(`${appOrigin}/`, appOrigin);
  ipcMain.handle(IPC_INVOKE, (event: SenderEvent, name: unknown, request: unknown) =>
    answerCall({ service, appOrigin, log }, event, name, request),
  );
  return () => ipcMain.removeHandler(IPC_INVOKE);
}

/**
 * One call: refused unless its sender is the app's page in the top frame, else dispatched (name and
 * request checked against the contract). The answer crosses as JSON would, as the headless host sends
 * it, so a field left undefined or a Date reaches the renderer the same way over either host.
 */
export async function answerCall(
  context: Pick<ContractIpcOptions, 'service' | 'appOrigin' | 'log'>,
  event: SenderEvent,
  name: unknown,
  request: unknown,
): Promise<InvokeResult<unknown>> {
  const callName = typeof name === 'string' ? name : `(${typeof name})`;
  const refusal = senderRefusal(event, context.appOrigin);
  if (refusal !== null) {
    context.log('warn', `refused ${shorten(callName)} from ${refusal}`);
    return { ok: false, error: new IpcError('CONTRACT_UNTRUSTED_SENDER').toUiError() };
  }
  const result = await dispatch(context.service.handlers, callName, request, (error) => {
    context.log(
      'error',
      `${callName} failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  });
  try {
    return JSON.parse(JSON.stringify(result)) as InvokeResult<unknown>;
  } catch (error) {
    // A handler's answer that is not plain data (a BigInt, a cycle) is this project's bug.
    context.log('error', `the answer of ${callName} is not JSON: ${String(error)}`);
    return {
      ok: false,
      error: {
        code: 'INTERNAL',
        title: 'Something went wrong',
        message: `${callName} failed unexpectedly; the log has the details.`,
      },
    };
  }
}

/** Why the sender may not call, for the log; null when it may. */
function senderRefusal(event: SenderEvent, appOrigin: string): string | null {
  try {
    // Null once the frame navigated away or was destroyed after sending.
    const frame = event.senderFrame;
    if (frame === null) return 'a frame that is gone';
    if (frame.parent !== null) return `a sub-frame at ${shorten(frame.url)}`;
    if (!isTrustedRendererUrl(frame.url, appOrigin)) return `a page at ${shorten(frame.url)}`;
    return null;
  } catch (error) {
    // Electron throws when the frame was disposed while the message was on its way.
    return `a frame that cannot be read (${String(error)})`;
  }
}

/** What forwardEvents needs of the window's web contents. */
export type EventTarget = Pick<WebContents, 'send' | 'isDestroyed' | 'getURL'>;

/**
 * Sends every event of the core to the window's top frame (`send` never reaches sub-frames), only while
 * it shows the app's page. Returns the function that stops. Events cross as JSON, as over the
 * headless host.
 */
export function forwardEvents(
  service: ContractService,
  target: EventTarget,
  appOrigin: string,
  log: MainLog,
): () => void {
  return service.onEvent((name, payload) => {
    if (target.isDestroyed() || !isTrustedRendererUrl(target.getURL(), appOrigin)) return;
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(payload));
    } catch (error) {
      log('error', `the event ${name} is not JSON: ${String(error)}`);
      return;
    }
    target.send(IPC_EVENT, name, copy);
  });
}

/** Page-supplied text in the log: quoted and cut short. */
function shorten(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
