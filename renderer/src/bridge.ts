// Typed access to the bridge the host puts on window (Electron's preload or the headless host's bridge.js): calls answer a value or reject with a UiError, nothing else.
import {
  BRIDGE_GLOBAL,
  type EventName,
  type EventPayload,
  type InvokeName,
  type InvokeRequest,
  type InvokeResponse,
  type UiBridge,
  type UiError,
} from '../../common/contract.ts';

/**
 * What the renderer uses of its host. `pathForFile` is optional and not a contract call: a File dropped
 * on a browser page has no path, Electron's preload tells it (`webUtils.getPathForFile`, main/preload.ts);
 * where it is missing (the headless host), drop-to-share says to use the picker.
 */
export interface RendererBridge extends UiBridge {
  pathForFile?: (file: File) => string | null;
}

/** The host's bridge, or null when the page was opened without one (a plain file, a wrong URL). */
export function findBridge(): RendererBridge | null {
  const candidate = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { invoke, on } = candidate as Partial<UiBridge>;
  return typeof invoke === 'function' && typeof on === 'function' ? (candidate as RendererBridge) : null;
}

function isUiError(value: unknown): value is UiError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, title, message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof title === 'string' && typeof message === 'string';
}

/** Any rejection as a UiError: a host bug or a dropped connection still gets words for people. */
export function toUiError(error: unknown): UiError {
  if (isUiError(error)) {
    const known: UiError = { code: error.code, title: error.title, message: error.message };
    if (typeof error.details === 'string') known.details = error.details;
    if (typeof error.logFile === 'string') known.logFile = error.logFile;
    return known;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 'UI_BRIDGE',
    title: 'mch-sync did not answer',
    message: 'The window lost its connection to mch-sync. Close the window and open it again.',
    details: detail,
  };
}

/** A failed call as an Error (for stack traces) that is also a UiError (for the words). */
export class UiFailure extends Error implements UiError {
  readonly code: string;
  readonly title: string;
  readonly details?: string;
  readonly logFile?: string;

  constructor(error: UiError) {
    super(error.message);
    this.name = 'UiFailure';
    this.code = error.code;
    this.title = error.title;
    if (error.details !== undefined) this.details = error.details;
    if (error.logFile !== undefined) this.logFile = error.logFile;
  }
}

/** The calls and events of the contract over one bridge. */
export class Core {
  readonly #bridge: RendererBridge;

  constructor(bridge: RendererBridge) {
    this.#bridge = bridge;
  }

  /** Rejects with a UiFailure only. */
  async invoke<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
    try {
      return await this.#bridge.invoke(name, request);
    } catch (error) {
      throw new UiFailure(toUiError(error));
    }
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.#bridge.on(name, listener);
  }

  /** The local path of a dropped file, where the host can tell it. */
  pathForFile(file: File): string | null {
    return this.#bridge.pathForFile?.(file) ?? null;
  }

  get canResolveDroppedFiles(): boolean {
    return typeof this.#bridge.pathForFile === 'function';
  }
}
