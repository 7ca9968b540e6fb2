// Selective sync in the window, as a user meets it: `mch-sync ui` (the real core and headless host) in Chromium against the real device. Folders left out when the pair is made, the tree in Settings opened folder by folder, unchecking with each answer for the copy here, checking again, and a new device folder over the threshold answered on its card; screenshots in test-results/ui-selection/.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../helpers/fixtures.ts';
import { clientFor } from '../helpers/api-client.ts';
import { startUiHost } from '../helpers/ui-host-process.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import type { TestDevice } from '../helpers/device.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-selection');

let account: SignedInProfile;
let folder: string;
let ui: ChildProcessWithoutNullStreams;
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

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

function local(path: string): string {
  return join(folder, ...path.split('/'));
}

/** The whole page, or what is in view (a dialog's backdrop covers the view only). */
async function shot(name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
}

function view(name: string): Promise<void> {
  return page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: new RegExp(name) })
    .click();
}

/** The folder tree (Settings or "Add a folder"), and the row of one of its folders. */
function tree(): Locator {
  return page.getByRole('list', { name: 'Folders in /Library' });
}

function row(name: string): Locator {
  return tree()
    .locator('.tree-row')
    .filter({ has: page.getByRole('checkbox', { name, exact: true }) });
}

function box(name: string): Locator {
  return tree().getByRole('checkbox', { name, exact: true });
}

/** What a folder's row says beside its box ("1.2 GB · 3 files", "Not synced · size unknown"). */
function info(name: string): Promise<string> {
  return row(name).locator('.tree-info').innerText();
}

async function mixed(name: string): Promise<boolean> {
  return box(name).evaluate((element) => (element as unknown as { indeterminate: boolean }).indeterminate);
}

test.beforeAll(async ({ device }) => {
  await onDevice(device, {
    'Docs/plan.txt': 'the plan\n',
    'Photos/2019/old.jpg': 'an old photo',
    'Photos/2024/new.jpg': 'a new photo',
    'Photos/2024/beach.jpg': 'the beach, with the sea',
    'Videos/holiday.mp4': 'a long film of the holiday',
  });
  account = await signedInProfile(device, 'mch-ui-selection-');
  folder = join(account.home, 'Library');
  mkdirSync(folder);
  let address: string;
  ({ process: ui, address } = await startUiHost(account.profile, {
    ...account.env,
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  }));
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(address);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (ui !== undefined && ui.exitCode === null) ui.kill('SIGKILL');
  account?.remove();
});

describe('choosing folders when the pair is made', () => {
  it('lists the device folder’s folders before anything syncs, and leaves an unchecked one out', async () => {
    await page.getByRole('heading', { name: 'Choose the folders to keep in sync' }).waitFor();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Folder on this computer').press('Tab');
    await page.getByText('/Library', { exact: true }).waitFor();
    await page.getByText('Choose which of its folders to sync').click();
    await box('Videos').waitFor();
    expect(await box('Videos').isChecked()).toBe(true);
    // Nothing is asked: there is no copy here yet to remove or keep.
    await box('Videos').click();
    await page.getByText('Choose which of its folders to sync (1 folder left out)').waitFor();
    await expect.poll(() => info('Videos')).toBe('Not synced · size unknown');
    expect(await box('Videos').isChecked()).toBe(false);
    await shot('first-run-choose-folders');
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
    expect(readFileSync(local('Photos/2024/beach.jpg'), 'utf8')).toBe('the beach, with the sea');
    expect(existsSync(local('Videos'))).toBe(false);
  });
});

describe('the tree in Settings', () => {
  it('opens folder by folder, with each one’s state and size', async () => {
    await view('Settings');
    await page.getByRole('button', { name: 'Choose folders of Library' }).click();
    await box('Photos').waitFor();
    expect(await info('Docs')).toBe('9 B · 1 file');
    expect(await info('Photos')).toBe('46 B · 3 files');
    expect(await info('Videos')).toBe('Not synced · size unknown');
    await tree().getByRole('button', { name: 'Open Photos' }).click();
    await box('2019').waitFor();
    expect(await info('2024')).toBe('34 B · 2 files');
    await shot('settings-tree');
  });

  it('asks what becomes of the copy when a folder is unchecked, and removes it when told to', async () => {
    await box('2019').click();
    const dialog = page.getByRole('dialog', { name: 'Stop syncing 2019 to this computer?' });
    await dialog.getByRole('button', { name: 'Keep it here, unsynced' }).waitFor();
    await shot('uncheck-dialog', false);
    // Cancel changes nothing: the box still says what the core says.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await box('2019').isChecked()).toBe(true);
    await box('2019').click();
    await dialog.getByRole('button', { name: 'Remove the copy from this computer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor('the copy removed', () => (existsSync(local('Photos/2019')) ? undefined : true));
    await expect.poll(() => info('2019')).toBe('Not synced · size unknown');
    await expect.poll(() => mixed('Photos')).toBe(true);
    expect(await box('Photos').isChecked()).toBe(false);
    await shot('settings-tree-partly');
  });

  it('keeps the copy here, unsynced, when told to', async () => {
    await box('Docs').click();
    const dialog = page.getByRole('dialog', { name: 'Stop syncing Docs to this computer?' });
    await dialog.getByRole('button', { name: 'Keep it here, unsynced' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => info('Docs')).toBe('Not synced · size unknown');
    expect(readFileSync(local('Docs/plan.txt'), 'utf8')).toBe('the plan\n');
  });

  it('brings a folder down again when it is checked', async () => {
    await box('2019').click();
    await waitFor('2019 back', () => (existsSync(local('Photos/2019/old.jpg')) ? true : undefined));
    await expect.poll(() => mixed('Photos')).toBe(false);
    await box('Videos').click();
    await waitFor('the videos', () => (existsSync(local('Videos/holiday.mp4')) ? true : undefined));
    await expect.poll(() => info('Videos')).toBe('26 B · 1 file');
    expect(await box('Photos').isChecked()).toBe(true);
  });
});

describe('a new device folder over the threshold', () => {
  it(
    'waits on its pair’s card with its size, and is answered there',
    { timeout: 90_000 },
    async ({ device }) => {
      // The smallest threshold there is, so the test's small files are "large".
      const size = page.getByLabel('Size in MB');
      await size.fill('0.001');
      await page.locator('form.ask-over').getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => size.inputValue()).toBe('0.001');
      await onDevice(device, {
        'Films/long.mkv': 'x'.repeat(4_000),
        'Clips/short.mp4': 'y'.repeat(2_500),
      });
      await view('Status');
      await page.getByRole('button', { name: 'Sync now' }).click();
      const films = page.getByRole('region', { name: 'New folder Films waiting' });
      const clips = page.getByRole('region', { name: 'New folder Clips waiting' });
      await films.waitFor({ timeout: 30_000 });
      await clips.waitFor();
      // The card does not say "Up to date" alone while a folder waits.
      await page
        .getByRole('article', { name: 'Library' })
        .getByText('Up to date · 2 new folders waiting')
        .waitFor();
      await films.getByText('/Library/Films is new on the device and holds 4.0 kB in 1 file').waitFor();
      await shot('waiting-folders');
      await films.getByRole('button', { name: 'Sync it' }).click();
      await clips.getByRole('button', { name: "Don't sync" }).click();
      await films.waitFor({ state: 'detached' });
      await clips.waitFor({ state: 'detached' });
      await waitFor('the film', () => (existsSync(local('Films/long.mkv')) ? true : undefined));
      await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
      expect(existsSync(local('Clips'))).toBe(false);
      await shot('waiting-answered');
    },
  );

  it('shows no error in the page throughout', () => {
    expect(problems).toEqual([]);
  });
});
