// Files on demand in the window, as a user meets them. With `mch-sync ui` (the real core, a real FUSE mount) in Chromium against the real device: the choice at first run, the setting and its cache limit in Settings, a pair of whole files turned on demand with every file kept, and an on-demand pair turned off again (asked first) with every file downloaded into its folder. With the scripted bridge (statuses made here, as the live service will report them): files opening on a card, an open that failed, the choice where this computer cannot have it. Screenshots in test-results/ui-on-demand/.
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import type { PairOnDemandView, PairView } from '../../common/contract.ts';
import { onDemandUnavailable } from '../../app/on-demand/on-demand-pair.ts';
import { readPairOnDemand } from '../../app/profile/pair-on-demand.ts';
import { isPlaceholder } from '../../app/sync/local/placeholders.ts';
import { openingFileView } from '../../app/ui/pairs/on-demand-views.ts';
import { it, test } from '../helpers/fixtures.ts';
import { clientFor } from '../helpers/api-client.ts';
import { startUiHost } from '../helpers/ui-host-process.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import type { TestDevice } from '../helpers/device.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { blobHolding, mountsBelow } from '../helpers/on-demand.ts';
import { serveRenderer, type RendererServer } from '../helpers/renderer-server.ts';
import { rendererSample } from '../helpers/renderer-sample.ts';
import { scriptedBridgeSource } from '../helpers/scripted-bridge.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-on-demand');
const unavailable = onDemandUnavailable();

let account: SignedInProfile | undefined;
let ui: ChildProcessWithoutNullStreams | undefined;
let browser: TestBrowser | undefined;
let server: RendererServer | undefined;
const problems: string[] = [];

/** `fullPage: false` for a modal dialog: its backdrop covers the window, not the whole page. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
}

async function newPage(width = 1280, height = 800): Promise<Page> {
  browser ??= await launchBrowser();
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return page;
}

/** Writes files on the device below /Library, making their folders, as another computer would. */
async function onDevice(device: TestDevice, files: Record<string, string>): Promise<void> {
  const client = clientFor(device).device;
  for (const [path, text] of Object.entries(files)) {
    let parentId = 'root';
    const names = ['Library', ...path.split('/')];
    for (const name of names.slice(0, -1)) {
      const found = await client.findByName(parentId, name);
      parentId = found?.id ?? (await client.createFolder({ parentId, name })).id;
    }
    await client.create({ parentId, name: names.at(-1) ?? path, content: Buffer.from(text) });
  }
}

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (ui !== undefined && ui.exitCode === null) {
    // Quit as the app quits: every mount is taken down with its service.
    ui.kill('SIGTERM');
    await waitFor(
      'the window’s host to quit',
      () => (ui?.exitCode === null ? undefined : true),
      30_000,
    ).catch(() => ui?.kill('SIGKILL'));
  }
  if (account !== undefined) {
    const left = mountsBelow(account.home);
    for (const point of left) spawnSync('fusermount', ['-u', '-z', point]);
    account.remove();
    expect(left).toEqual([]);
  }
}, 60_000);

describe.skipIf(unavailable !== undefined)('with mch-sync ui and a real mount', () => {
  let page: Page;
  let folder: string;

  test.beforeAll(async ({ device }) => {
    await onDevice(device, {
      'Docs/plan.txt': 'the plan\n',
      'Photos/beach.jpg': 'the beach, with the sea',
    });
    account = await signedInProfile(device, 'mch-ui-on-demand-');
    folder = join(account.home, 'Library');
    mkdirSync(folder);
    let address: string;
    ({ process: ui, address } = await startUiHost(account.profile, {
      ...account.env,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    }));
    page = await newPage();
    await page.goto(address);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  function view(name: string): Promise<void> {
    return page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: new RegExp(name) })
      .click();
  }

  it('offers files on demand at first run, and the folder then shows every device file', async () => {
    await page.getByRole('heading', { name: 'Choose the folders to keep in sync' }).waitFor();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Folder on this computer').press('Tab');
    await page.getByText('/Library', { exact: true }).waitFor();
    const choice = page.getByLabel(/^Files on demand: show every file of the device here/);
    await expect.poll(() => choice.isEnabled()).toBe(true);
    await choice.check();
    // On demand every folder shows: there is nothing to leave out.
    expect(await page.getByText('Choose which of its folders to sync').count()).toBe(0);
    await shot(page, 'first-run-on-demand');
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
    await page.getByText('On demand: downloaded when opened').waitFor();
    // The mount shows what the first pass brought as placeholders (a card may say up to date a moment before).
    await expect.poll(() => readdirSync(folder).sort(), { timeout: 20_000 }).toEqual(['Docs', 'Photos']);
    // Read through the mount: downloaded as it is opened (by the device this process serves, so not
    // with a read that would block it).
    expect(await readFile(join(folder, 'Docs', 'plan.txt'), 'utf8')).toBe('the plan\n');
    expect(readPairOnDemand(account!.profile, folder)?.cacheLimitBytes).toBe(10_000_000_000);
    await shot(page, 'status-on-demand');
  });

  it('shows the setting in Settings, with a cache limit saved to the pair’s record', async () => {
    await view('Settings');
    await page.getByText('Files on demand: on', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Files on demand of Library' }).click();
    await page.getByRole('term').filter({ hasText: 'Files kept in' }).waitFor();
    const cache = readPairOnDemand(account!.profile, folder)?.cache ?? '';
    await page.getByText(cache, { exact: true }).waitFor();
    expect(await page.getByLabel('Cache limit in GB').inputValue()).toBe('10');
    await page.getByLabel('Cache limit in GB').fill('2.5');
    await page.locator('form.cache-limit').getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Past 2\.5 GB, the files opened longest ago/).waitFor();
    expect(readPairOnDemand(account!.profile, folder)?.cacheLimitBytes).toBe(2_500_000_000);
    await page.getByRole('button', { name: 'Turn off files on demand' }).waitFor();
    await shot(page, 'settings-on-demand-on');
  });

  it('turns a pair of whole files on demand, every file kept', async () => {
    const notes = join(account!.home, 'Notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'todo.txt'), 'buy milk\n');
    await page.getByRole('button', { name: 'Add a folder' }).click();
    await page.getByLabel('Folder on this computer').fill(notes);
    await page.getByLabel('Folder on this computer').press('Tab');
    await page.getByText('/Notes', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    const toggle = page.getByRole('button', { name: 'Files on demand of Notes' });
    await toggle.waitFor();
    await toggle.click();
    await page.getByText('Files on demand: off').waitFor();
    await page.getByRole('button', { name: 'Turn on files on demand' }).waitFor();
    await shot(page, 'settings-on-demand-off');
    await page.getByRole('button', { name: 'Turn on files on demand' }).click();
    await page.getByRole('term').filter({ hasText: 'Files kept in' }).waitFor({ timeout: 30_000 });
    const onDemand = readPairOnDemand(account!.profile, notes);
    expect(onDemand?.cacheLimitBytes).toBe(10_000_000_000);
    // Moved, not copied: in the cache folder, and shown (and read) in the folder through the mount.
    expect(readFileSync(join(onDemand?.cache ?? '', 'todo.txt'), 'utf8')).toBe('buy milk\n');
    await waitFor('the mount of Notes', () => (mountsBelow(notes).length > 0 ? true : undefined), 20_000);
    expect(await readFile(join(notes, 'todo.txt'), 'utf8')).toBe('buy milk\n');
    expect(existsSync(join(onDemand?.cache ?? '', '.mch-sync'))).toBe(true);
    await shot(page, 'settings-turned-on');
    await view('Status');
    await page.getByRole('article', { name: 'Notes' }).getByText('Up to date').waitFor({ timeout: 30_000 });
    await shot(page, 'status-two-pairs');
    expect(problems).toEqual([]);
  });

  it('turns files on demand off after saying what it downloads, every file back whole in the folder', async ({
    device,
  }) => {
    const cache = readPairOnDemand(account!.profile, folder)?.cache ?? '';
    // Never opened: only on the device until the switch brings it down.
    expect(isPlaceholder(join(cache, 'Photos', 'beach.jpg'))).toBe(true);
    await view('Settings');
    const toggle = page.getByRole('button', { name: 'Files on demand of Library' });
    await toggle.waitFor();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const turnOff = async (): Promise<void> => {
      await page.getByRole('button', { name: 'Turn off files on demand' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn off files on demand for Library?' });
      await dialog
        .getByText(/^Every file of the device folder \/Library will be downloaded to this computer/)
        .waitFor();
      await dialog.getByText(folder, { exact: true }).waitFor();
      await shot(page, 'turn-off-confirm', false);
      await dialog.getByRole('button', { name: 'Download every file' }).click();
    };
    // First with the photo's content gone from the device's disk: it cannot come down, nothing changes.
    const blob = blobHolding(device.dataDir, 'the beach, with the sea');
    renameSync(blob, `${blob}.away`);
    try {
      await turnOff();
      await page
        .getByText(/^Not every file could be downloaded \(Photos\/beach\.jpg/)
        .waitFor({ timeout: 30_000 });
    } finally {
      renameSync(`${blob}.away`, blob);
    }
    expect(readPairOnDemand(account!.profile, folder)).toMatchObject({ cache, pinned: [] });
    await waitFor('Library mounted again', () => (mountsBelow(folder).length > 0 ? true : undefined), 20_000);
    await page.getByText('Files on demand: on', { exact: true }).first().waitFor();
    await shot(page, 'turn-off-failed');
    // Then as it should go.
    await turnOff();
    await page.getByText('Files on demand: off').first().waitFor({ timeout: 30_000 });
    expect(readPairOnDemand(account!.profile, folder)).toBeUndefined();
    await waitFor(
      'the mount of Library gone',
      () => (mountsBelow(folder).length === 0 ? true : undefined),
      20_000,
    );
    // Whole files in the folder itself, the one never opened included; the cache folder moved back.
    expect(readFileSync(join(folder, 'Photos', 'beach.jpg'), 'utf8')).toBe('the beach, with the sea');
    expect(isPlaceholder(join(folder, 'Photos', 'beach.jpg'))).toBe(false);
    expect(readFileSync(join(folder, 'Docs', 'plan.txt'), 'utf8')).toBe('the plan\n');
    expect(existsSync(cache)).toBe(false);
    await shot(page, 'settings-turned-off');
    await view('Status');
    const card = page.getByRole('article', { name: 'Library' });
    await card.getByText('Up to date').waitFor({ timeout: 30_000 });
    expect(await card.getByText('On demand: downloaded when opened').count()).toBe(0);
    await shot(page, 'status-turned-off');
    expect(problems).toEqual([]);
  });
});

describe('with the scripted bridge', () => {
  const now = Date.now();
  const photo = openingFileView({
    path: 'Photos/2024/photo.jpg',
    process: 'gimp',
    bytesDone: 4_200_000,
    bytesTotal: 10_500_000,
  });
  const film = openingFileView({ path: 'Videos/holiday.mp4', process: 'vlc', bytesDone: 0, bytesTotal: 0 });
  const onDemand = (extra: Partial<PairOnDemandView>): PairOnDemandView => ({
    cache: '/home/ann/.config/mch-sync/on-demand/3f2a9c1d0b7e4a65',
    cacheLimitBytes: 10_000_000_000,
    mounted: true,
    opening: [],
    lastFailure: null,
    ...extra,
  });

  /** The sample's two pairs: the first opening two files, the second with an open that failed (or whole files). */
  function sample(documentsOnDemand: boolean): ReturnType<typeof rendererSample> {
    const data = rendererSample(now);
    const [photos, documents] = data.pairs as [PairView, PairView];
    data.pairs = [
      {
        ...photos,
        state: 'idle',
        words: 'Up to date',
        progress: null,
        selection: { excluded: 0, waiting: [], askOverBytes: 500_000_000 },
        onDemand: onDemand({ opening: [photo, film] }),
      },
      {
        ...documents,
        state: 'idle',
        words: 'Up to date',
        hold: null,
        issueCount: 0,
        conflictCount: 0,
        onDemand: !documentsOnDemand
          ? null
          : onDemand({
              lastFailure: {
                path: 'Work/report.pdf',
                atMs: now - 40_000,
                words: 'Could not open report.pdf: the device cannot be reached',
              },
            }),
      },
    ];
    return data;
  }

  async function open(
    hash: string,
    options: { width?: number; height?: number; dark?: boolean; available?: boolean } = {},
  ): Promise<Page> {
    server ??= await serveRenderer();
    const page = await newPage(options.width, options.height);
    await page.emulateMedia({ colorScheme: options.dark === true ? 'dark' : 'light' });
    await page.addInitScript(
      scriptedBridgeSource({ sample: sample(options.available !== false), scenario: 'ready' }),
    );
    // The scripted bridge predates files on demand: its support is answered here, the rest passed on.
    const support =
      options.available === false
        ? {
            available: false,
            reason:
              'libfuse.so.2 is not installed. Install libfuse2 and fuse3 (Debian, Ubuntu: sudo apt install libfuse2 fuse3). Use Choose folders instead.',
            defaultCacheLimitBytes: 10_000_000_000,
          }
        : { available: true, reason: null, defaultCacheLimitBytes: 10_000_000_000 };
    await page.addInitScript(
      `(() => { const bridge = window.mchBridge; const invoke = bridge.invoke.bind(bridge);
        bridge.invoke = (name, request) => name === 'onDemand:support' ? Promise.resolve(${JSON.stringify(support)}) : invoke(name, request); })();`,
    );
    await page.goto(`${server.url}/#${hash}`);
    await page.locator('main h1').first().waitFor();
    mkdirSync(SHOTS, { recursive: true });
    return page;
  }

  it('shows the files opening on their card, and an open that failed on its own', async () => {
    for (const [name, size] of [
      ['status-opening', { width: 1280, height: 800 }],
      ['status-opening-narrow', { width: 400, height: 600 }],
      ['status-opening-dark', { width: 1280, height: 800, dark: true }],
    ] as const) {
      const page = await open('status', size);
      const opening = page.getByRole('list', { name: 'Files opening in Family photos' });
      await opening.getByText('Opening photo.jpg for gimp… 40 %').waitFor();
      await opening.getByText('Opening holiday.mp4 for vlc…').waitFor();
      await page
        .getByRole('article', { name: 'Documents' })
        .getByText('Could not open report.pdf: the device cannot be reached')
        .waitFor();
      await shot(page, name);
      // No horizontal scroll at 400 px.
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
        true,
      );
      await page.close();
    }
  });

  it('says why files on demand cannot be had here, with what to install, and offers nothing dead', async () => {
    const page = await open('settings', { available: false });
    await page.getByRole('button', { name: 'Add a folder' }).click();
    const choice = page.getByLabel(/^Files on demand: show every file of the device here/);
    await choice.waitFor();
    expect(await choice.isDisabled()).toBe(true);
    await page
      .getByText(/^Not available on this computer: libfuse\.so\.2 is not installed/)
      .first()
      .waitFor();
    await shot(page, 'add-folder-unavailable');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Files on demand of Documents' }).click();
    await page.getByText('Files on demand: off').waitFor();
    await page.getByText(/^Not available on this computer: libfuse\.so\.2 is not installed/).waitFor();
    expect(await page.getByRole('button', { name: 'Turn on files on demand' }).count()).toBe(0);
    await shot(page, 'settings-on-demand-unavailable');
    await page.close();
    expect(problems).toEqual([]);
  });

  it('offers the choice in "Add a folder" where files on demand work', async () => {
    const page = await open('settings', { width: 400, height: 600 });
    await page.getByRole('button', { name: 'Add a folder' }).click();
    const choice = page.getByLabel(/^Files on demand: show every file of the device here/);
    await expect.poll(() => choice.isEnabled()).toBe(true);
    await page.getByLabel('Folder on this computer').fill('/home/ann/Music');
    await page.getByLabel('Folder on this computer').press('Tab');
    await choice.check();
    await shot(page, 'add-folder-on-demand-narrow');
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    const calls =
      await page.evaluate<Array<{ name: string; request: Record<string, unknown> }>>('window.__mch.calls');
    expect(calls.find((call) => call.name === 'pairs:add')?.request).toEqual({
      localRoot: '/home/ann/Music',
      remoteFolder: '/Music',
      onDemand: true,
    });
    await page.close();
  });
});
