// Runs the bundled preload in a Chromium page as Electron would, with thin stand-ins for contextBridge and ipcRenderer that reach the REAL main-process handlers (main/ipc.ts) through a Playwright binding.
import { readFileSync } from 'node:fs';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Frame, Page } from 'playwright-core';
import type { ContractService } from '../../app/ui/dispatch.ts';
import { forwardEvents, registerContractIpc } from '../../main/ipc.ts';

const INVOKE_BINDING = '__mchIpcInvoke';
const DELIVER = '__mchIpcDeliver';

/**
 * The init script: `require('electron')` inside the preload's own function scope (as Electron wraps a
 * sandboxed preload; nothing named `require` reaches the page), `contextBridge.exposeInMainWorld` that
 * freezes the API onto window, and `ipcRenderer` whose invoke goes to the binding and whose listeners
 * the harness feeds. It runs in every frame, as a preload would with nodeIntegrationInSubFrames: a
 * frame other than the top one gets a bridge too, so the refusal has to come from main/ipc.ts. The
 * bundle is pasted in, not evaluated: the page's CSP has no 'unsafe-eval'. This checks the wiring of
 * preload, handlers and renderer, not Electron's real context isolation.
 */
export function standInScript(preloadSource: string, droppedFiles: Record<string, string> = {}): string {
  return `(function () {
  'use strict';
  var subscribed = [];
  var ipcRenderer = {
    invoke: function (channel) {
      return window.${INVOKE_BINDING}.apply(null, Array.prototype.slice.call(arguments));
    },
    on: function (channel, listener) {
      subscribed.push({ channel: channel, listener: listener });
      return ipcRenderer;
    },
    removeListener: function (channel, listener) {
      subscribed = subscribed.filter(function (entry) { return entry.channel !== channel || entry.listener !== listener; });
      return ipcRenderer;
    },
  };
  var contextBridge = {
    exposeInMainWorld: function (key, api) {
      Object.defineProperty(window, key, { value: Object.freeze(api), enumerable: true });
    },
  };
  Object.defineProperty(window, ${JSON.stringify(DELIVER)}, {
    value: function (channel, name, payload) {
      subscribed.slice().forEach(function (entry) {
        if (entry.channel === channel) entry.listener({ sender: ipcRenderer }, name, structuredClone(payload));
      });
    },
  });
  // Electron knows a dropped File's path from the OS; the stand-in knows the test's files by name.
  var droppedFiles = ${JSON.stringify(droppedFiles)};
  var webUtils = {
    getPathForFile: function (file) {
      if (!(file instanceof File)) throw new TypeError('getPathForFile needs a File');
      return Object.prototype.hasOwnProperty.call(droppedFiles, file.name) ? droppedFiles[file.name] : '';
    },
  };
  var electronStandIn = { contextBridge: contextBridge, ipcRenderer: ipcRenderer, webUtils: webUtils };
  var module = { exports: {} };
  (function (require, module, exports) {
${preloadSource}
  })(function (name) {
    if (name === 'electron') return electronStandIn;
    throw new Error('a sandboxed preload cannot require ' + name);
  }, module, module.exports);
})();
`;
}

export interface PreloadHarness {
  /** Each call that reached the main process: its name and the frame that sent it. */
  calls: Array<{ name: unknown; frameUrl: string; topFrame: boolean }>;
  /** What main/ipc.ts logged (refusals among it). */
  logged: string[];
  stop(): void;
}

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

/** What Electron's `event.senderFrame` would be for a Playwright frame: its URL and its parent chain. */
function senderFrameOf(frame: Frame): { url: string; parent: unknown } {
  const parent = frame.parentFrame();
  return { url: frame.url(), parent: parent === null ? null : senderFrameOf(parent) };
}

/** Registers the real handlers for `page` (call before it loads anything) and forwards the core's events. */
export async function installPreload(
  page: Page,
  options: {
    preloadFile: string;
    service: ContractService;
    appOrigin: string;
    /** File name → the path Electron's webUtils would tell for a dropped file of that name. */
    droppedFiles?: Record<string, string>;
  },
): Promise<PreloadHarness> {
  const handlers = new Map<string, Listener>();
  const ipcMain = {
    handle: (channel: string, listener: Listener) => handlers.set(channel, listener),
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const harness: PreloadHarness = { calls: [], logged: [], stop: () => {} };
  const log = (level: string, message: string): void => {
    harness.logged.push(`${level}: ${message}`);
  };
  const unregister = registerContractIpc({
    ipcMain,
    service: options.service,
    appOrigin: options.appOrigin,
    log,
  });
  // The frame comes from the browser (Playwright's binding source), not from anything the page says.
  await page.exposeBinding(
    INVOKE_BINDING,
    async (source, channel: unknown, name: unknown, request: unknown) => {
      const listener = typeof channel === 'string' ? handlers.get(channel) : undefined;
      if (listener === undefined) throw new Error(`No handler registered for '${String(channel)}'`);
      const senderFrame = senderFrameOf(source.frame);
      harness.calls.push({ name, frameUrl: senderFrame.url, topFrame: senderFrame.parent === null });
      return listener({ senderFrame } as unknown as IpcMainInvokeEvent, name, request);
    },
  );
  await page.addInitScript(standInScript(readFileSync(options.preloadFile, 'utf8'), options.droppedFiles));
  // webContents.send: to the top frame only, in order.
  let queue = Promise.resolve();
  const stopEvents = forwardEvents(
    options.service,
    {
      send: (channel: string, ...args: unknown[]) => {
        queue = queue
          .then(() =>
            page
              .mainFrame()
              .evaluate(
                ([deliver, sent]) =>
                  (globalThis as unknown as Record<string, (...a: unknown[]) => void>)[deliver]!(...sent),
                [DELIVER, [channel, ...args]] as const,
              ),
          )
          .catch(() => {});
      },
      isDestroyed: () => page.isClosed(),
      getURL: () => page.url(),
    },
    options.appOrigin,
    log,
  );
  harness.stop = () => {
    stopEvents();
    unregister();
  };
  return harness;
}
