// The bundled preload in real Chromium as Electron would run it, over the REAL main-process handlers (main/ipc.ts), the REAL core against the real device, and the REAL built renderer: status shown, bad calls and other frames refused, events delivered.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeName, SettingsView } from '../../common/contract.ts';
import { dispatch } from '../../app/ui/dispatch.ts';
import { CONTENT_SECURITY_POLICY } from '../../app/ui/content-security-policy.ts';
import { UiCore } from '../../app/ui/ui-core.ts';
import { contentTypeOf, resolveStaticFile } from '../../app/ui-host/static-files.ts';
import { buildPreload } from '../../scripts/build-preload.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { startTestDevice, type TestDevice } from '../helpers/device.ts';
import { installPreload, type PreloadHarness } from '../helpers/electron-preload-harness.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILT_RENDERER = join(ROOT, 'dist', 'renderer');
const SHOTS = join(ROOT, 'test-results', 'ui');

let device: TestDevice;
let profile: SignedInProfile;
let work: string;
let folder: string;
let core: UiCore;
let app: { server: Server; origin: string };
let elsewhere: { server: Server; origin: string };
let browser: TestBrowser;
let page: Page;
let harness: PreloadHarness;
const opened: string[] = [];
const problems: string[] = [];

async function call(name: InvokeName, request: unknown): Promise<unknown> {
  const result = await dispatch(core.handlers, name, request);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

async function listen(
  handle: Parameters<typeof createServer>[1],
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

/** How a call settles in the page: the value, or the rejection and whether it is a plain object. */
function settle(frame: Page | Frame, call: string): Promise<unknown> {
  return frame.evaluate<unknown>(
    `${call}.then((value) => ({ value }), (error) => ({ error, plain: Object.getPrototypeOf(error) === Object.prototype }))`,
  );
}

beforeAll(async () => {
  if (!existsSync(join(BUILT_RENDERER, 'index.html'))) {
    throw new Error('dist/renderer is not built: run `npm run build:renderer` first (npm test does).');
  }
  work = mkdtempSync(join(tmpdir(), 'mch-electron-preload-'));
  // A copy: another engineer's build may empty dist/renderer while this test runs.
  const rendererDir = join(work, 'renderer');
  cpSync(BUILT_RENDERER, rendererDir, { recursive: true });
  const preloadFile = join(work, 'preload', 'preload.cjs');
  await buildPreload(preloadFile);

  device = await startTestDevice();
  profile = await signedInProfile(device, 'mch-electron-preload-home-');
  folder = join(profile.home, 'Notes');
  mkdirSync(folder);
  writeFileSync(join(folder, 'todo.txt'), 'buy milk\n');
  core = await UiCore.open({
    profileDir: profile.profile,
    env: profile.env,
    openExternal: (target) => {
      opened.push(target);
      return Promise.resolve();
    },
    log: () => {},
  });
  const root = (await call('remote:listFolders', { folderId: null })) as { folder: { id: string } };
  await call('remote:createFolder', { parentId: root.folder.id, name: 'Notes' });
  await call('pairs:add', { localRoot: folder, remoteFolder: '/Notes' });

  // The app's origin serves the built renderer under the window's policy. The policy forbids framing
  // it (frame-ancestors 'none'); for a request as an iframe the test lifts that one directive, to show
  // that main/ipc.ts refuses a framed copy on its own.
  app = await listen((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const file = await resolveStaticFile(rendererDir, path === '/' ? '/index.html' : path);
      const framed = request.headers['sec-fetch-dest'] === 'iframe';
      const policy = framed
        ? CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", '')
        : CONTENT_SECURITY_POLICY;
      if (file === null) return response.writeHead(404, { 'content-security-policy': policy }).end();
      response
        .writeHead(200, { 'content-type': contentTypeOf(file), 'content-security-policy': policy })
        .end(readFileSync(file));
    })();
  });
  // Another site that frames the app's page.
  elsewhere = await listen((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Elsewhere</title><h1>Another site</h1>
<iframe title="framed app" src="${app.origin}/" width="420" height="520"></iframe>`);
  });

  browser = await launchBrowser({ viewport: { width: 1000, height: 700 } });
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  harness = await installPreload(page, {
    preloadFile,
    service: core,
    appOrigin: app.origin,
    droppedFiles: { 'todo.txt': join(folder, 'todo.txt') },
  });
  await page.addInitScript(
    `window.violations = []; document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.violatedDirective));`,
  );
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  harness?.stop();
  await browser?.close();
  for (const host of [app, elsewhere]) {
    if (host !== undefined) await new Promise<void>((resolve) => host.server.close(() => resolve()));
  }
  await core?.close();
  await device?.stop();
  profile?.remove();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the preload in the window', () => {
  it('gives the renderer window.mchBridge, which shows the real status through the handlers', async () => {
    await page.goto(`${app.origin}/`);
    await page.getByText('Up to date').first().waitFor({ timeout: 60_000 });
    await page.getByText(folder).first().waitFor();
    expect(await page.evaluate<string[]>('Object.keys(window.mchBridge).sort()')).toEqual([
      'invoke',
      'on',
      'pathForFile',
    ]);
    expect(await page.evaluate<boolean>('Object.isFrozen(window.mchBridge)')).toBe(true);
    expect(await page.evaluate<string>('typeof window.require')).toBe('undefined');
    await page.screenshot({ path: join(SHOTS, 'electron-status.png'), fullPage: true });
    expect(harness.calls.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['account:get', 'pairs:list']),
    );
    expect(harness.calls.every((entry) => entry.topFrame)).toBe(true);
    expect(problems).toEqual([]);
    expect(await page.evaluate<string[]>('window.violations')).toEqual([]);
  });

  it('answers a call with its value, as the headless bridge does', async () => {
    expect(await settle(page, `window.mchBridge.invoke('app:about', {})`)).toMatchObject({
      value: { profileDir: profile.profile },
    });
  });

  it('refuses a call with bad arguments with the contract error, before app/ sees it', async () => {
    // The renderer may make calls of its own meanwhile: only these names are counted.
    const sent = (name: string): number => harness.calls.filter((entry) => entry.name === name).length;
    const [adds, abouts] = [sent('pairs:add'), sent('app:about')];
    expect(
      await settle(page, `window.mchBridge.invoke('pairs:add', { localRoot: 5, remoteFolder: 'Notes' })`),
    ).toMatchObject({ error: { code: 'CONTRACT_BAD_REQUEST', title: 'Bad request' }, plain: true });
    // It reached the main process, whose dispatch refused it: no second pair.
    expect(sent('pairs:add')).toBe(adds + 1);
    expect(core.pairViews()).toHaveLength(1);
    // Refused in the preload, never sent: a name outside the contract, a value JSON cannot carry.
    expect(await settle(page, `window.mchBridge.invoke('files:delete', {})`)).toMatchObject({
      error: { code: 'CONTRACT_UNKNOWN_CALL' },
      plain: true,
    });
    expect(await settle(page, `window.mchBridge.invoke('app:about', { big: 1n })`)).toMatchObject({
      error: { code: 'CONTRACT_BAD_REQUEST' },
    });
    expect(sent('files:delete')).toBe(0);
    expect(sent('app:about')).toBe(abouts);
  });

  it('delivers the core events to the listeners of the window, until removed', async () => {
    await page.evaluate(`
      window.received = [];
      window.stopSettings = window.mchBridge.on('settings:changed', (payload) => window.received.push(['settings', payload.notifications]));
      window.mchBridge.on('activity:added', (payload) => window.received.push(['activity', payload.map((entry) => entry.path)]));
    `);
    await call('settings:update', { notifications: false });
    await expect.poll(() => page.evaluate<unknown[]>('window.received')).toEqual([['settings', false]]);
    await page.evaluate('window.stopSettings()');
    await call('settings:update', { notifications: true } satisfies Partial<SettingsView>);
    writeFileSync(join(folder, 'arrived.txt'), 'hello\n');
    await waitFor('the activity event', async () => {
      const received = await page.evaluate<unknown[][]>('window.received');
      return received.some((entry) => entry[0] === 'activity') ? received : undefined;
    });
    // In order on the one channel: the second settings event came before the activity and was not heard.
    expect(await page.evaluate<unknown[]>('window.received')).toEqual([
      ['settings', false],
      ['activity', ['arrived.txt']],
    ]);
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /Activity/ })
      .click();
    await page.getByText('arrived.txt').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'electron-activity.png'), fullPage: true });
  });
});

describe('a file dropped on the window', () => {
  it('becomes a link made by the real core for the synced file the preload names', async () => {
    const drop = async (name: string): Promise<void> => {
      const dataTransfer = await page.evaluateHandle(
        `(() => { const d = new DataTransfer(); d.items.add(new File(['x'], ${JSON.stringify(name)})); return d; })()`,
      );
      await page.dispatchEvent('main', 'dragenter', { dataTransfer });
      await page.dispatchEvent('main', 'drop', { dataTransfer });
    };
    expect(await page.evaluate<unknown>(`window.mchBridge.pathForFile({ name: 'todo.txt' })`)).toBeNull();
    await drop('todo.txt');
    await page.getByText('Link ready', { exact: false }).first().waitFor({ timeout: 60_000 });
    const shares = (await call('shares:list', {})) as Array<{ items: Array<{ localPath: string | null }> }>;
    expect(shares.map((share) => share.items.map((item) => item.localPath))).toContainEqual([
      join(folder, 'todo.txt'),
    ]);
    await page.screenshot({ path: join(SHOTS, 'electron-dropped-link.png'), fullPage: true });
  });
});

describe('another page or frame', () => {
  let other: Page;

  beforeAll(async () => {
    other = await browser.context.newPage();
  });

  it('refuses every call of the app page framed by another site, and of that site itself', async () => {
    const harnessOther = await installPreload(other, {
      preloadFile: join(work, 'preload', 'preload.cjs'),
      service: core,
      appOrigin: app.origin,
    });
    try {
      await other.goto(`${elsewhere.origin}/`);
      const framed = other.frames().find((frame) => frame.parentFrame() !== null);
      if (framed === undefined) throw new Error('no iframe');
      await framed.waitForURL(`${app.origin}/`);
      // The framed renderer itself asked for the account and was refused.
      await framed.getByText('Call refused').first().waitFor();
      expect(await settle(framed, `window.mchBridge.invoke('app:about', {})`)).toEqual({
        error: {
          code: 'CONTRACT_UNTRUSTED_SENDER',
          title: 'Call refused',
          message: "Only mch-sync's own window may make this call; this page or frame is not it.",
        },
        plain: true,
      });
      expect(await settle(other, `window.mchBridge.invoke('app:about', {})`)).toMatchObject({
        error: { code: 'CONTRACT_UNTRUSTED_SENDER' },
      });
      await other.screenshot({ path: join(SHOTS, 'electron-framed-refused.png') });
      const fromFrame = harnessOther.calls.filter((entry) => !entry.topFrame);
      expect(fromFrame.length).toBeGreaterThan(0);
      expect(fromFrame.every((entry) => entry.frameUrl === `${app.origin}/`)).toBe(true);
      expect(harnessOther.logged).toContain(`warn: refused "app:about" from a sub-frame at "${app.origin}/"`);
      expect(harnessOther.logged).toContain(
        `warn: refused "app:about" from a page at "${elsewhere.origin}/"`,
      );
    } finally {
      harnessOther.stop();
    }
    // The window itself still may.
    expect(await settle(page, `window.mchBridge.invoke('app:about', {})`)).toHaveProperty('value');
  });
});
