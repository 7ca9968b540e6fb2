// The window's preload: window.mchBridge (UiBridge of common/contract.ts) over the two IPC channels, exactly the contract and nothing more; bundled into one file because a sandboxed preload cannot load others.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, EVENT_NAMES, INVOKE_NAMES, type UiBridge, type UiError } from '../common/contract.ts';
import { IPC_EVENT, IPC_INVOKE } from '../common/ipc-channels.ts';
import { IpcError } from './ipc-errors.ts';

const INVOKES: ReadonlySet<string> = new Set(INVOKE_NAMES);
const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

/** The listeners of each event; one IPC listener feeds them all (no per-subscription IPC listener). */
const listeners = new Map<string, Set<(payload: unknown) => void>>();

/** Only the UiError's fields cross, its optional ones when they are strings (as bridge-script.ts does). */
function copy(error: UiError): UiError {
  const plain: UiError = { code: error.code, title: error.title, message: error.message };
  if (typeof error.details === 'string') plain.details = error.details;
  if (typeof error.logFile === 'string') plain.logFile = error.logFile;
  return plain;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A call's outcome inside the preload, before it becomes the promise the page sees. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: UiError };

/**
 * As the headless host's bridge (app/ui-host/bridge-script.ts) does, so the renderer cannot tell the
 * two apart: the request crosses as JSON (a value JSON cannot carry is CONTRACT_BAD_REQUEST here), the
 * promise resolves the value or rejects with a plain {code, title, message}, never an Error. A name
 * outside the contract is refused here with the words dispatch uses, and never sent.
 */
function invoke(name: string, request: unknown): Promise<unknown> {
  return call(name, request).then((outcome) =>
    // The contract rejects with plain data (a UiError), which is what crosses the context bridge.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    outcome.ok ? outcome.value : Promise.reject(copy(outcome.error)),
  );
}

async function call(name: string, request: unknown): Promise<Outcome> {
  if (typeof name !== 'string' || !INVOKES.has(name)) {
    const message = `There is no call "${String(name)}".`;
    return { ok: false, error: { code: 'CONTRACT_UNKNOWN_CALL', title: 'Unknown call', message } };
  }
  let body: string | undefined;
  try {
    body = JSON.stringify(request);
  } catch (error) {
    const message = `The request of ${name} cannot be sent: ${(error as Error).message}`;
    return { ok: false, error: { code: 'CONTRACT_BAD_REQUEST', title: 'Bad request', message } };
  }
  let result: unknown;
  try {
    result = await ipcRenderer.invoke(IPC_INVOKE, name, body === undefined ? undefined : JSON.parse(body));
  } catch {
    return { ok: false, error: new IpcError('IPC_UNREACHABLE').toUiError() };
  }
  if (isObject(result)) {
    if (result['ok'] === true) return { ok: true, value: result['value'] };
    const error = result['error'];
    if (result['ok'] === false && isObject(error) && typeof error['code'] === 'string') {
      return { ok: false, error: error as unknown as UiError };
    }
  }
  return { ok: false, error: new IpcError('IPC_BAD_ANSWER').toUiError() };
}

/** A name outside the contract never fires, as with the headless host; the listener must be a function. */
function on(name: string, listener: (payload: unknown) => void): () => void {
  if (typeof listener !== 'function') throw new TypeError('mchBridge.on needs a function to call.');
  if (!EVENTS.has(name)) return () => {};
  let named = listeners.get(name);
  if (named === undefined) {
    named = new Set();
    listeners.set(name, named);
  }
  // A wrapper per subscription, so subscribing the same function twice needs two unsubscribes.
  const receive = (payload: unknown): void => listener(payload);
  named.add(receive);
  return () => {
    named.delete(receive);
  };
}

/** The IpcRendererEvent stays here: it carries `sender` (ipcRenderer itself), which the page must never get. */
ipcRenderer.on(IPC_EVENT, (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return;
  for (const receive of [...(listeners.get(name) ?? [])]) {
    try {
      receive(payload);
    } catch (error) {
      // One failing listener must not keep the event from the others; it is still reported.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
});

/**
 * The path of a file dropped on the window, for drop-to-share (desktop-app.md §2.5), or null. Not a
 * contract call: a page cannot learn a dropped file's path, only Electron can, and only for a File
 * that came from a real drop. What the path may be used for is still decided in app/ (shares:create
 * shares only synced items).
 */
function pathForFile(file: File): string | null {
  try {
    const path = webUtils.getPathForFile(file);
    return path === '' ? null : path;
  } catch {
    // Not a File (the page may pass anything).
    return null;
  }
}

const bridge: UiBridge & { pathForFile: typeof pathForFile } = {
  invoke: invoke as UiBridge['invoke'],
  on: on as UiBridge['on'],
  pathForFile,
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
