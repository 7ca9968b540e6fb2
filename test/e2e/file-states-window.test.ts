// The file manager's "Why is this not synced?" and "Show in mch-sync" as a user meets them: `mch-sync ui` (the real core and headless host) against the real device opens the browser at the address it gives for the item, and Chromium shows that item's issue highlighted under Issues (or says it has none), and its folder's card in Status. Screenshots in test-results/ui-file-states/.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { routeFragment } from '../../common/window-route.ts';
import type { StateConnection } from '../../app/file-state/state-client.ts';
import { it, test } from '../helpers/fixtures.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { expectExit } from '../helpers/expect-cli.ts';
import { serviceOf, stateBecomes } from '../helpers/file-state.ts';
import { mch } from '../helpers/on-demand-cli.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';
import { startUiHost } from '../helpers/ui-host-process.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-file-states');

let account: SignedInProfile;
let folder: string;
let record: string;
let ui: ChildProcessWithoutNullStreams;
let hostAddress: string;
let service: StateConnection;
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

function local(path: string): string {
  return join(folder, ...path.split('/'));
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Asks the running client for a menu entry, as the file manager's extension does; the address it opened. */
async function act(action: 'why' | 'show', path: string): Promise<string> {
  const before = opened().length;
  const reply = await service.request({ op: 'act', action, paths: [path] });
  expect(reply.type).toBe('done');
  return waitFor(`the browser opened for ${action}`, () => opened()[before]);
}

function opened(): string[] {
  return existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

test.beforeAll(async ({ device }) => {
  account = await signedInProfile(device, 'mch-ui-file-states-');
  folder = join(account.home, 'Papers');
  mkdirSync(join(folder, 'notes'), { recursive: true });
  mkdirSync(join(folder, 'letters'), { recursive: true });
  writeFileSync(local('letters/to-ann.txt'), 'Dear Ann,\n');
  writeFileSync(local('letters/to-bob.txt'), 'Dear Bob,\n');
  writeFileSync(local('plan.txt'), 'the plan\n');
  expectExit(await mch(account, ['run', '--folder', folder, '--remote-folder', '/Papers', '--once']), 0);
  // The system browser: a stand-in for xdg-open that writes down each address it is given.
  const bin = join(account.home, 'bin');
  mkdirSync(bin);
  record = join(account.home, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  ({ process: ui, address: hostAddress } = await startUiHost(account.profile, {
    ...account.env,
    PATH: `${bin}:${account.env['PATH'] ?? ''}`,
    DISPLAY: ':99',
  }));
  service = await serviceOf(account, folder);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 900, height: 760 });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  service?.close();
  await browser?.close();
  if (ui !== undefined && ui.exitCode === null) ui.kill('SIGKILL');
  account?.remove();
});

describe('the window at an item, from the file manager', () => {
  it('opens Issues at the item’s issue, highlighted among the others', async () => {
    // Three items that cannot sync: a name Windows reads as a folder separator, and a name clash.
    writeFileSync(local('notes/draft\\1.txt'), 'draft\n');
    writeFileSync(local('letters/caf\u00e9.txt'), 'nfc\n');
    writeFileSync(local('letters/cafe\u0301.txt'), 'nfd\n');
    await stateBecomes(service, folder, 'notes/draft\\1.txt', 'not-synced');
    await stateBecomes(service, folder, 'letters', 'not-synced');

    const url = await act('why', local('notes/draft\\1.txt'));
    expect(url.startsWith(new URL(hostAddress).origin)).toBe(true);
    expect(new URL(url).hash).toBe(
      `#${routeFragment({ view: 'issues', item: local('notes/draft\\1.txt') })}`,
    );
    // The address as the browser gets it: the secret traded for the cookie, the fragment kept.
    await page.goto(url);
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
    const pointed = page.locator('li.issue.pointed');
    await pointed.waitFor();
    expect(await pointed.count()).toBe(1);
    await expect.poll(() => pointed.locator('.issue-path').first().textContent()).toBe('notes/draft\\1.txt');
    expect(await pointed.getAttribute('aria-current')).toBe('true');
    // The focus is on it, so a screen reader reads what was asked for.
    expect(
      await page.evaluate<string>("document.activeElement.classList.contains('pointed') ? 'yes' : 'no'"),
    ).toBe('yes');
    // The others are listed as usual, not highlighted.
    expect(await page.locator('li.issue:not(.pointed)').count()).toBeGreaterThanOrEqual(1);
    expect(new URL(page.url()).searchParams.get('secret')).toBeNull();
    await shot('issue-pointed');
  }, 120_000);

  it('goes from a folder to the item below it that makes it not synced', async () => {
    const url = await act('why', local('letters'));
    await page.goto(url);
    const pointed = page.locator('li.issue.pointed');
    await pointed.waitFor();
    await expect.poll(() => pointed.locator('.issue-path').first().textContent()).toMatch(/^letters\/caf/);
  });

  it('says plainly when the item has no issue any more', async () => {
    const url = await act('why', local('plan.txt'));
    await page.goto(url);
    await page.getByText('Nothing is listed for', { exact: false }).waitFor();
    expect(await page.locator('.pointed').count()).toBe(0);
    await shot('issue-gone');
  });

  it('shows the item’s folder in Status for “Show in mch-sync”', async () => {
    const url = await act('show', local('letters/to-ann.txt'));
    await page.goto(url);
    const card = page.locator('article.pair.pointed');
    await card.waitFor();
    await card.getByText('letters/to-ann.txt', { exact: true }).waitFor();
    await shot('status-pointed');
    expect(problems).toEqual([]);
  });
});
