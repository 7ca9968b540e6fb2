// main/ipc.ts with plain objects for Electron's ipcMain, frames and web contents: who may call, what reaches app/, what the window hears.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { InvokeResult } from '../../../common/contract.ts';
import { IPC_EVENT, IPC_INVOKE } from '../../../common/ipc-channels.ts';
import { forwardEvents, registerContractIpc, type EventTarget } from '../../../main/ipc.ts';
import { ABOUT, makeTestService, type TestService } from '../../helpers/ui-host-fixture.ts';

// main/ipc.ts takes Electron only as types: loading it must not load electron (which has no binary here).
vi.mock('electron', () => {
  throw new Error('main/ipc.ts loaded electron at run time');
});

const APP = 'mch-app://ui';
type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<InvokeResult<unknown>>;
interface Frame {
  url: string;
  parent: Frame | null;
}

function setUp(): {
  test: TestService;
  call: (frame: Frame | null, name: unknown, request: unknown) => Promise<InvokeResult<unknown>>;
  logged: string[];
  handlers: Map<string, Listener>;
  unregister: () => void;
} {
  const test = makeTestService();
  const handlers = new Map<string, Listener>();
  const ipcMain = {
    handle: (channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const logged: string[] = [];
  const unregister = registerContractIpc({
    ipcMain,
    service: test.service,
    appOrigin: APP,
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  const call = (frame: Frame | null, name: unknown, request: unknown) => {
    const listener = handlers.get(IPC_INVOKE);
    if (listener === undefined) throw new Error('no handler');
    return listener({ senderFrame: frame } as unknown as IpcMainInvokeEvent, name, request);
  };
  return { test, call, logged, handlers, unregister };
}

const top: Frame = { url: 'mch-app://ui/index.html#status', parent: null };

describe('registerContractIpc', () => {
  it('answers a call of the app page in the top frame with the InvokeResult', async () => {
    const { test, call } = setUp();
    expect(await call(top, 'app:about', {})).toEqual({ ok: true, value: ABOUT });
    expect(test.calls).toEqual([{ name: 'app:about', request: {} }]);
  });

  it('crosses errors of the implementation as their code, title and message', async () => {
    const { call, logged } = setUp();
    expect(await call(top, 'account:get', {})).toMatchObject({
      ok: false,
      error: { code: 'SIGN_IN_REQUIRED', title: 'Sign-in needed' },
    });
    expect(await call(top, 'pairs:list', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(logged.join('\n')).toContain('disk on fire');
  });

  it('refuses a request that does not match the contract before app/ sees it', async () => {
    const { test, call } = setUp();
    for (const request of [{ pairId: 7 }, { pairId: 'p', extra: true }, null, 'pairs', undefined]) {
      expect(await call(top, 'sync:pause', request)).toMatchObject({
        ok: false,
        error: { code: 'CONTRACT_BAD_REQUEST' },
      });
    }
    expect(test.calls).toEqual([]);
  });

  it('refuses names outside the contract, strings or not', async () => {
    const { test, call } = setUp();
    for (const name of ['files:delete', '__proto__', 'constructor', 7, null, { toString: 'x' }]) {
      expect(await call(top, name, {})).toMatchObject({
        ok: false,
        error: { code: 'CONTRACT_UNKNOWN_CALL' },
      });
    }
    expect(test.calls).toEqual([]);
  });

  it.each<[string, Frame | null]>([
    ['a sub-frame showing the app page', { url: 'mch-app://ui/index.html', parent: top }],
    [
      'a sub-frame of another page',
      { url: 'mch-app://ui/', parent: { url: 'https://x.test/', parent: null } },
    ],
    ['a top frame at another origin', { url: 'https://evil.test/', parent: null }],
    ['a top frame at another file of the app', { url: 'mch-app://ui/assets/x.html', parent: null }],
    ['a top frame at about:blank', { url: 'about:blank', parent: null }],
    ['a frame that is gone', null],
  ])('refuses %s with CONTRACT_UNTRUSTED_SENDER, unseen by app/, and logs it', async (_what, frame) => {
    const { test, call, logged } = setUp();
    expect(await call(frame, 'app:about', {})).toEqual({
      ok: false,
      error: {
        code: 'CONTRACT_UNTRUSTED_SENDER',
        title: 'Call refused',
        message: "Only mch-sync's own window may make this call; this page or frame is not it.",
      },
    });
    expect(test.calls).toEqual([]);
    expect(logged).toEqual([expect.stringMatching(/^warn: refused "app:about" from /)]);
  });

  it('refuses a frame whose properties Electron can no longer read', async () => {
    const { test, call } = setUp();
    const disposed = {
      get url(): string {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
      parent: null,
    };
    expect(await call(disposed, 'app:about', {})).toMatchObject({
      error: { code: 'CONTRACT_UNTRUSTED_SENDER' },
    });
    expect(test.calls).toEqual([]);
  });

  it('sends answers as JSON would: undefined fields dropped, a value that is not data becomes INTERNAL', async () => {
    const { test, call, logged } = setUp();
    test.service.handlers['app:about'] = async () => ({ version: '1', gone: undefined, at: new Date(0) });
    expect(await call(top, 'app:about', {})).toEqual({
      ok: true,
      value: { version: '1', at: '1970-01-01T00:00:00.000Z' },
    });
    test.service.handlers['app:about'] = async () => ({ big: 1n });
    expect(await call(top, 'app:about', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(logged.at(-1)).toContain('the answer of app:about is not JSON');
  });

  it('removes its handler when unregistered', () => {
    const { handlers, unregister } = setUp();
    expect([...handlers.keys()]).toEqual([IPC_INVOKE]);
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('refuses to start with an app origin that is not scheme://host', () => {
    const ipcMain = { handle: vi.fn(), removeHandler: vi.fn() };
    const service = makeTestService().service;
    expect(() =>
      registerContractIpc({ ipcMain, service, appOrigin: 'mch-app://ui/index.html', log: () => {} }),
    ).toThrow(expect.objectContaining({ code: 'BUG' }));
    expect(ipcMain.handle).not.toHaveBeenCalled();
  });
});

describe('forwardEvents', () => {
  function target(url = 'mch-app://ui/#activity'): EventTarget & {
    sent: unknown[][];
    url: string;
    destroyed: boolean;
  } {
    const port = {
      sent: [] as unknown[][],
      url,
      destroyed: false,
      send: (channel: string, ...args: unknown[]) => port.sent.push([channel, ...args]),
      isDestroyed: () => port.destroyed,
      getURL: () => port.url,
    };
    return port;
  }
  const settings = {
    startAtLogin: false,
    fileManagerEntries: false,
    notifications: true,
    pollIntervalSeconds: 30,
    ignoreRules: '',
  };

  it('sends each event of the core to the window on mch:event, as JSON would', () => {
    const test = makeTestService();
    const window = target();
    forwardEvents(test.service, window, APP, () => {});
    test.emit('settings:changed', settings);
    test.emit('pairs:changed', []);
    expect(window.sent).toEqual([
      [IPC_EVENT, 'settings:changed', settings],
      [IPC_EVENT, 'pairs:changed', []],
    ]);
    expect(window.sent[0]?.[2]).not.toBe(settings);
  });

  it('sends nothing to a destroyed window or one not showing the app page, and stops when told', () => {
    const test = makeTestService();
    const window = target('https://evil.test/');
    const stop = forwardEvents(test.service, window, APP, () => {});
    test.emit('settings:changed', settings);
    window.url = 'mch-app://ui/';
    window.destroyed = true;
    test.emit('settings:changed', settings);
    window.destroyed = false;
    test.emit('pairs:changed', []);
    stop();
    test.emit('pairs:changed', []);
    expect(window.sent).toEqual([[IPC_EVENT, 'pairs:changed', []]]);
    expect(test.listenerCount()).toBe(0);
  });
});
