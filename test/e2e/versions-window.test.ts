// Versions in the window, as a user meets them: `mch-sync ui` (the real core and headless host) in Chromium against the real device. A file a device edit replaced, put back from a search result; its versions from an activity line and from the address the tray opens; files deleted on the device found by name and restored under "Recently deleted"; five conflicts made on both sides, settled with each answer and two at once; the policy and "Clear versions" in Settings. Screenshots in test-results/ui-versions/.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { readPairVersions } from '../../app/profile/pair-versions.ts';
import { routeFragment } from '../../common/window-route.ts';
import { it, test } from '../helpers/fixtures.ts';
import { clientFor } from '../helpers/api-client.ts';
import { startUiHost } from '../helpers/ui-host-process.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import type { TestDevice } from '../helpers/device.ts';
import { drawnPng, receiptPng } from '../helpers/drawn-png.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-versions');

let account: SignedInProfile;
let folder: string;
let ui: ChildProcessWithoutNullStreams;
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

/** The five files changed on both sides: what this computer and the device each made of them. */
const CONFLICTS: Record<string, { here: string | Buffer; device: string | Buffer }> = {
  'plan.txt': {
    here: 'plan, as changed here\n- call the bank\n',
    device: 'plan, as changed on the device\n',
  },
  'budget.csv': { here: 'rent,900\nfood,300\n', device: 'rent,950\nfood,280\ntravel,120\n' },
  'list.md': { here: '# List\n- milk (here)\n', device: '# List\n- milk (device)\n' },
  'ideas.txt': { here: 'ideas: a boat\n', device: 'ideas: a bike\n' },
  'receipt.png': { here: receiptPng(true), device: receiptPng(false) },
};

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

/** A pass now, as "Sync now" asks for it (the tray's, or a card's), without leaving the view. */
async function syncNow(): Promise<void> {
  await page.evaluate(`window.mchBridge.invoke('sync:now', { pairId: null })`);
}

/** The notifications of earlier steps would cover what a screenshot is for. */
async function dismissNotifications(): Promise<void> {
  const dismiss = page.getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

/** The device's side of /Library, as another computer changes it. */
function onDevice(device: TestDevice) {
  const client = clientFor(device).device;
  const idOf = async (path: string): Promise<string | undefined> => {
    let id = 'root';
    for (const name of ['Library', ...path.split('/')]) {
      const found = await client.findByName(id, name);
      if (found === undefined) return undefined;
      id = found.id;
    }
    return id;
  };
  return {
    idOf,
    async write(path: string, content: string | Buffer): Promise<void> {
      const id = await idOf(path);
      if (id !== undefined) {
        await client.putContent(id, Buffer.from(content));
        return;
      }
      let parentId = 'root';
      const names = ['Library', ...path.split('/')];
      for (const name of names.slice(0, -1)) {
        const found = await client.findByName(parentId, name);
        parentId = found?.id ?? (await client.createFolder({ parentId, name })).id;
      }
      await client.create({ parentId, name: names.at(-1) ?? path, content: Buffer.from(content) });
    },
    async remove(path: string): Promise<void> {
      await client.delete((await idOf(path)) ?? `no ${path}`);
    },
    async read(path: string): Promise<string | undefined> {
      const id = await idOf(path);
      if (id === undefined) return undefined;
      return (await device.fetchAs('alice', `/sdk/v2/files/${id}/content`)).text();
    },
  };
}

/** A conflict's card under Issues, by the file it is about. */
function conflictCard(path: string): Locator {
  return page.locator('li.conflict').filter({ has: page.getByText(path, { exact: true }) });
}

test.beforeAll(async ({ device }) => {
  const remote = onDevice(device);
  await remote.write('report.txt', 'the first draft\n');
  await remote.write('letters/letter-a.txt', 'Dear Ann,\n');
  await remote.write('letters/letter-b.txt', 'Dear Bob,\n');
  await remote.write('photo-notes.txt', 'shot at f/8\n');
  for (const name of Object.keys(CONFLICTS)) {
    await remote.write(name, name.endsWith('.png') ? drawnPng(60, 40, () => [200, 200, 200]) : `${name}\n`);
  }
  account = await signedInProfile(device, 'mch-ui-versions-');
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

describe('a file’s versions', () => {
  it('syncs the device folder', async () => {
    await page.getByRole('heading', { name: 'Choose the folders to keep in sync' }).waitFor();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Folder on this computer').press('Tab');
    await page.getByText('/Library', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
    expect(readFileSync(local('report.txt'), 'utf8')).toBe('the first draft\n');
  });

  it('keeps the file a device edit replaced, and puts it back from a search result', async ({ device }) => {
    await onDevice(device).write('report.txt', 'the second draft, from the other computer\n');
    await syncNow();
    await waitFor('the edit down', () =>
      readFileSync(local('report.txt'), 'utf8').startsWith('the second') ? true : undefined,
    );
    await view('Search');
    await page.getByLabel('Search the device').fill('report');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const result = page.locator('li.result').filter({ hasText: 'report.txt' });
    await result.getByRole('button', { name: 'Versions…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions of report.txt' });
    await dialog.getByText("replaced by the device's version", { exact: false }).waitFor();
    await shot('versions-from-search', false);
    await dialog.getByRole('button', { name: 'Restore version 1 of report.txt' }).click();
    await dialog.getByText('Restore version 1 of report.txt?').waitFor();
    await shot('versions-restore-asked', false);
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialog
      .getByText(
        'Version 1 of report.txt is back; the file it replaced is kept as a version. It syncs to the device now.',
      )
      .waitFor();
    expect(readFileSync(local('report.txt'), 'utf8')).toBe('the first draft\n');
    // The second draft it replaced is a version now.
    await dialog.getByText('replaced by a restore', { exact: false }).waitFor();
    await shot('versions-restored', false);
    await waitFor('the first draft on the device again', async () =>
      (await onDevice(device).read('report.txt')) === 'the first draft\n' ? true : undefined,
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows them from an activity line, and where the tray’s “Versions” opens the window', async () => {
    await view('Activity');
    await page.getByRole('button', { name: 'Versions of report.txt' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Versions of report.txt' });
    await dialog.getByText('Version 1', { exact: true }).waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
    await shot('versions-from-activity', false);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // main/window.ts loads this address for the tray's "Versions" › report.txt… (app/desktop/tray-model.ts).
    const fragment = routeFragment({ view: 'activity', versionsOf: local('report.txt') });
    await page.evaluate(`window.location.hash = ${JSON.stringify(fragment)}`);
    await dialog.getByText('replaced by a restore', { exact: false }).waitFor();
    await page.setViewportSize({ width: 400, height: 700 });
    await shot('versions-from-tray-400', false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate('window.location.hash')).toBe('#activity');
  });
});

describe('Recently deleted', () => {
  it('lists what the device deleted, finds it by name, and restores two', async ({ device }) => {
    const remote = onDevice(device);
    for (const path of ['letters/letter-a.txt', 'letters/letter-b.txt', 'photo-notes.txt']) {
      await remote.remove(path);
    }
    await syncNow();
    await waitFor('the deletes here', () =>
      existsSync(local('letters/letter-a.txt')) || existsSync(local('photo-notes.txt')) ? undefined : true,
    );
    await view('Recently deleted');
    const list = page.getByRole('list', { name: 'Deleted files, newest first' });
    await list.getByText('photo-notes.txt').waitFor();
    await list.getByText('letters/letter-b.txt').waitFor();
    await dismissNotifications();
    await shot('deleted');
    await page.getByLabel('Find by name').fill('letter');
    await list.getByText('photo-notes.txt').waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: /^letters\/letter-a\.txt/ }).check();
    await page.getByRole('checkbox', { name: /^letters\/letter-b\.txt/ }).check();
    await shot('deleted-found-selected');
    await page.getByRole('button', { name: 'Restore 2 selected' }).click();
    await page.getByText('2 files restored. They sync to the device now.').waitFor();
    expect(readFileSync(local('letters/letter-a.txt'), 'utf8')).toBe('Dear Ann,\n');
    expect(readFileSync(local('letters/letter-b.txt'), 'utf8')).toBe('Dear Bob,\n');
    await page.getByText('No deleted file is named like “letter”.').waitFor();
    await shot('deleted-restored');
    await waitFor('both on the device again', async () =>
      (await remote.read('letters/letter-a.txt')) === 'Dear Ann,\n' &&
      (await remote.read('letters/letter-b.txt')) === 'Dear Bob,\n'
        ? true
        : undefined,
    );
    await page.getByLabel('Find by name').fill('');
    await list.getByText('photo-notes.txt').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
  });
});

describe('conflicts under Issues', () => {
  it(
    'shows both sides of each conflict made here and on the device',
    { timeout: 90_000 },
    async ({ device }) => {
      await view('Status');
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
      const remote = onDevice(device);
      for (const [name, { here, device: there }] of Object.entries(CONFLICTS)) {
        writeFileSync(local(name), here);
        await remote.write(name, there);
      }
      await page.getByRole('button', { name: 'Resume', exact: true }).click();
      await page
        .getByRole('article', { name: 'Library' })
        .getByText('Up to date · 5 conflicts')
        .waitFor({ timeout: 60_000 });
      await view('Issues');
      for (const name of Object.keys(CONFLICTS)) await conflictCard(name).waitFor();
      const plan = conflictCard('plan.txt');
      await plan.getByText('plan, as changed here').waitFor();
      await plan.getByText('plan, as changed on the device').waitFor();
      await conflictCard('receipt.png')
        .getByRole('img', { name: /This computer’s version of receipt/ })
        .waitFor();
      await dismissNotifications();
      await shot('issues-conflicts');
      await page.setViewportSize({ width: 400, height: 800 });
      await shot('issues-conflicts-400');
      await page.setViewportSize({ width: 1280, height: 800 });
    },
  );

  it('keeps this computer’s, the device’s, or both, one at a time', async ({ device }) => {
    const settle = async (name: string, answer: RegExp): Promise<void> => {
      await page
        .getByRole('group', { name: `Settle the conflict of ${name}` })
        .getByRole('button', { name: answer })
        .click();
      await conflictCard(name).waitFor({ state: 'detached' });
    };
    const copiesOf = (name: string): string[] =>
      readdirSync(folder).filter((entry) => entry.startsWith(name.replace(/\.[^.]*$/, ' (conflicted copy')));
    await settle('plan.txt', /^Keep this computer’s$/);
    await page
      .getByText(
        "The conflict of plan.txt is settled: this computer's version keeps the name; the other is kept as a version. It syncs to the device now.",
      )
      .waitFor();
    expect(readFileSync(local('plan.txt'), 'utf8')).toBe(CONFLICTS['plan.txt']?.here);
    expect(copiesOf('plan.txt')).toEqual([]);
    await shot('issues-settled-this');
    await settle('budget.csv', /^Keep the device’s$/);
    expect(readFileSync(local('budget.csv'), 'utf8')).toBe(CONFLICTS['budget.csv']?.device);
    expect(copiesOf('budget.csv')).toEqual([]);
    await settle('list.md', /^Keep both$/);
    expect(readFileSync(local('list.md'), 'utf8')).toBe(CONFLICTS['list.md']?.device);
    expect(copiesOf('list.md')).toHaveLength(1);
    await waitFor('this computer’s plan on the device', async () =>
      (await onDevice(device).read('plan.txt')) === CONFLICTS['plan.txt']?.here ? true : undefined,
    );
  });

  it('settles the two checked at once, and none is listed after a pass', async ({ device }) => {
    await page.getByRole('checkbox', { name: 'Select the conflict of ideas.txt' }).check();
    await page.getByRole('checkbox', { name: 'Select the conflict of receipt.png' }).check();
    const bulk = page.getByRole('button', { name: 'Keep this computer’s for all selected' });
    await shot('issues-two-checked');
    await bulk.click();
    await page.getByText('2 conflicts are settled', { exact: false }).waitFor();
    await shot('issues-two-settled');
    expect(readFileSync(local('ideas.txt'), 'utf8')).toBe(CONFLICTS['ideas.txt']?.here);
    expect(readFileSync(local('receipt.png')).equals(CONFLICTS['receipt.png']?.here as Buffer)).toBe(true);
    await syncNow();
    await page.getByText('Every item is synced.').waitFor({ timeout: 30_000 });
    await view('Status');
    await page
      .getByRole('article', { name: 'Library' })
      .getByText('Up to date', { exact: true })
      .waitFor({ timeout: 30_000 });
    await waitFor('this computer’s receipt on the device', async () => {
      const id = await onDevice(device).idOf('receipt.png');
      if (id === undefined) return undefined;
      const bytes = Buffer.from(
        await (await device.fetchAs('alice', `/sdk/v2/files/${id}/content`)).arrayBuffer(),
      );
      return bytes.equals(CONFLICTS['receipt.png']?.here as Buffer) ? true : undefined;
    });
    await view('Issues');
    await page.getByText('Every item is synced.').waitFor();
    await shot('issues-all-settled');
  });

  it('lists the copies that lost under Recently deleted, to bring one back', async () => {
    await view('Recently deleted');
    const list = page.getByRole('list', { name: 'Deleted files, newest first' });
    await list.getByText(/^budget \(conflicted copy .*\)\.csv$/).waitFor();
    await shot('deleted-conflict-losers');
  });
});

describe('a folder’s versions in Settings', () => {
  it('shows their use, saves the policy, and clears them when asked twice', async () => {
    await view('Settings');
    await page.getByRole('button', { name: 'Versions of Library' }).click();
    await page.getByText(/^\d+ versions kept: .* of .*\.$/).waitFor();
    await page.getByText(/^Default: \d+ % of the disk: /).waitFor();
    await shot('settings-versions');
    await page.getByLabel('Keep versions for').fill('14');
    await page
      .getByLabel('When a file changed here and on the device')
      .selectOption({ label: 'The device wins' });
    await page.locator('form.versions-form').getByRole('button', { name: 'Save' }).click();
    await waitFor('the policy saved', () => {
      const saved = readPairVersions(account.profile, folder);
      return saved.keepDays === 14 && saved.conflicts === 'device' ? saved : undefined;
    });
    expect(readPairVersions(account.profile, folder).capBytes).toBeNull();
    await page.getByRole('button', { name: 'Clear versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the versions of Library?' });
    await dialog.getByText('The synced files of Library stay as they are', { exact: false }).waitFor();
    await shot('settings-clear-asked', false);
    await dialog.getByRole('button', { name: 'Clear versions' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No versions are kept now.').waitFor();
    expect(readdirSync(join(folder, '.mch-sync', 'versions'))).toEqual([]);
    await shot('settings-versions-cleared');
  });

  it('shows no error in the page throughout', () => {
    expect(problems).toEqual([]);
  });
});
