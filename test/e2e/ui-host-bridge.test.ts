// The headless UI host in real Chromium: the printed address opens the page under the CSP with no
// error, and window.mchBridge carries calls, their errors and the events as the contract says.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiHost, type UiHost } from '../../app/ui-host/ui-host.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import {
  ABOUT,
  makeRendererFolder,
  makeTestService,
  SIGN_IN_ERROR,
  type RendererFolder,
  type TestService,
} from '../helpers/ui-host-fixture.ts';

let folder: RendererFolder;
let test: TestService;
let host: UiHost;
let browser: TestBrowser;
let page: Page;
/** Console errors and uncaught exceptions: a blocked load or a policy violation shows up here. */
const problems: string[] = [];

// Page code is passed as strings: the tests' TypeScript has no DOM types.
const VIOLATIONS = 'window.violations';

beforeAll(async () => {
  folder = makeRendererFolder();
  test = makeTestService();
  host = await startUiHost({ service: test.service, rendererDir: folder.dir });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // Added by the browser's own tooling, so the policy does not apply to this script itself.
  await page.addInitScript(
    `window.violations = []; document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.violatedDirective));`,
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  folder?.remove();
});

describe('the page', () => {
  it('opens from the printed address, drops the secret from the address bar and loads its files', async () => {
    const response = await page.goto(host.openUrl);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(host.url);
    await expect
      .poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.app'))
      .toBe('loaded');
    const color = `getComputedStyle(document.querySelector('h1')).color`;
    await expect.poll(() => page.evaluate<string>(color)).toBe('rgb(1, 2, 3)');
  });

  it('finds window.mchBridge before its own first script runs', async () => {
    expect(await page.evaluate<string | undefined>('document.documentElement.dataset.bridge')).toBe(
      'present',
    );
    expect(await page.evaluate<string[]>('Object.keys(window.mchBridge).sort()')).toEqual(['invoke', 'on']);
  });

  it('cannot read the cookie (HttpOnly)', async () => {
    expect(await page.evaluate<string>('document.cookie')).toBe('');
  });

  it('loaded with no console error and no policy violation', async () => {
    expect(problems).toEqual([]);
    expect(await page.evaluate<string[]>(VIOLATIONS)).toEqual([]);
  });
});

describe('window.mchBridge', () => {
  it('invoke resolves the value the handler returned', async () => {
    expect(await page.evaluate<unknown>(`window.mchBridge.invoke('app:about', {})`)).toEqual(ABOUT);
    expect(test.calls.at(-1)).toEqual({ name: 'app:about', request: {} });
  });

  it('invoke rejects with the UiError, a plain {code, title, message}', async () => {
    const settle = (call: string): Promise<unknown> =>
      page.evaluate<unknown>(
        `${call}.then(() => 'resolved', (error) => ({ error, plain: Object.getPrototypeOf(error) === Object.prototype }))`,
      );
    expect(await settle(`window.mchBridge.invoke('account:get', {})`)).toEqual({
      error: { code: SIGN_IN_ERROR.code, title: SIGN_IN_ERROR.title, message: SIGN_IN_ERROR.message },
      plain: true,
    });
    expect(await settle(`window.mchBridge.invoke('files:nope', {})`)).toMatchObject({
      error: { code: 'CONTRACT_UNKNOWN_CALL' },
    });
    expect(await settle(`window.mchBridge.invoke('app:about', { extra: true })`)).toMatchObject({
      error: { code: 'CONTRACT_BAD_REQUEST' },
    });
    expect(await settle(`window.mchBridge.invoke('app:about', { big: 1n })`)).toMatchObject({
      error: { code: 'CONTRACT_BAD_REQUEST' },
    });
  });

  it('on delivers the events the service emits, until the listener is removed', async () => {
    await page.evaluate(`
      window.received = [];
      window.stopNotifications = window.mchBridge.on('notification', (payload) => window.received.push(['notification', payload.id]));
      window.mchBridge.on('pairs:changed', (payload) => window.received.push(['pairs:changed', payload.length]));
    `);
    // The page's one event stream is subscribed once it is connected.
    await expect.poll(() => test.listenerCount()).toBe(1);
    const notification = (id: string) =>
      ({
        id,
        kind: 'link-copied',
        title: 'Link copied',
        body: '',
        count: 1,
        view: 'shares',
        pairId: null,
      }) as const;
    test.emit('notification', notification('first'));
    await expect.poll(() => page.evaluate<unknown[]>('window.received')).toEqual([['notification', 'first']]);
    await page.evaluate('window.stopNotifications()');
    test.emit('notification', notification('second'));
    test.emit('pairs:changed', []);
    // Events arrive in order on the one stream: once pairs:changed is there, the second notification
    // would have been too.
    await expect
      .poll(() => page.evaluate<unknown[]>('window.received'))
      .toEqual([
        ['notification', 'first'],
        ['pairs:changed', 0],
      ]);
  });

  it('caused no console error or policy violation', async () => {
    expect(problems).toEqual([]);
    expect(await page.evaluate<string[]>(VIOLATIONS)).toEqual([]);
  });
});

describe('the policy', () => {
  it('forbids eval and inline script in the page', async () => {
    // In a timer: code that DevTools evaluates is itself allowed to eval, the page's later code is not.
    const evalOutcome = `new Promise((resolve) => setTimeout(() => {
      try { eval('1'); resolve('ran'); } catch (error) { resolve(error.name); }
    }))`;
    expect(await page.evaluate<string>(evalOutcome)).toBe('EvalError');
    await page.evaluate(`
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    `);
    expect(await page.evaluate<boolean | undefined>('window.inlineRan')).toBeUndefined();
    await expect.poll(() => page.evaluate<string[]>(VIOLATIONS)).toContain('script-src-elem');
  });
});

describe('a stopped host', () => {
  it('makes invoke reject with UI_HOST_UNREACHABLE', async () => {
    await host.close();
    const outcome = await page.evaluate<unknown>(
      `window.mchBridge.invoke('app:about', {}).then(() => 'resolved', (error) => error)`,
    );
    expect(outcome).toMatchObject({ code: 'UI_HOST_UNREACHABLE', title: 'mch-sync is not answering' });
  });
});
