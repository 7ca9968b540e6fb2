// A link made by `mch-sync share`, opened by someone without an account in a fresh Chromium profile:
// exactly the shared items, their bytes, and nothing once `mch-sync unshare` revoked it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../helpers/fixtures.ts';
import type { ShareJson } from '../../app/cli/share-commands/share-command.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { runMchSync, type CliRun } from '../helpers/mch-sync.ts';
import type { SignedInProfile } from '../helpers/signed-in-profile.ts';
import { expectExit } from '../helpers/expect-cli.ts';

const NAMES = ['Résumé – v2.txt', 'budget 2025.csv', 'Holiday'];
const RESUME = Buffer.from('Curriculum vitæ\n', 'utf8');
const SCREENSHOT = join(import.meta.dirname, '..', '..', 'test-results', 'share-command-link.png');

let browser: TestBrowser;
let page: Page;
let shared: ShareJson;
let folder: string;

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

test.beforeAll(async ({ profile }) => {
  folder = join(profile.home, 'Shared stuff');
  mkdirSync(join(folder, 'Holiday'), { recursive: true });
  writeFileSync(join(folder, NAMES[0] ?? ''), RESUME);
  writeFileSync(join(folder, 'budget 2025.csv'), 'rent,100\n');
  writeFileSync(join(folder, 'Holiday', 'beach.txt'), 'sand\n');
  writeFileSync(join(folder, 'private.txt'), 'not shared\n');
  const run = await mch(profile, ['run', '--folder', folder, '--once']);
  expectExit(run, 0);
  const share = await mch(profile, ['share', '--json', ...NAMES.map((name) => join(folder, name))]);
  expectExit(share, 0);
  shared = JSON.parse(share.stdout) as ShareJson;
  // A fresh browser profile: no account, no cookie, only the link.
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 90_000);

afterAll(async () => {
  await browser?.close();
});

describe('a link made by mch-sync share', () => {
  it('shows exactly the shared items to someone without an account', async () => {
    const response = await page.goto(shared.url);
    expect(response?.status()).toBe(200);
    const names = await page.locator('tbody td.name').allInnerTexts();
    expect(names.map((name) => name.replace(/, folder$/, '').trim()).sort()).toEqual([...NAMES].sort());
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('downloads a shared file with its exact bytes', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download ${NAMES[0] ?? ''}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(NAMES[0]);
    expect(readFileSync(await download.path()).equals(RESUME)).toBe(true);
  });

  it('opens the shared folder', async () => {
    await page.getByRole('link', { name: 'Holiday' }).first().click();
    expect(await page.locator('tbody td.name').allInnerTexts()).toEqual(['beach.txt']);
  });

  it('is gone at once after mch-sync unshare', async ({ profile }) => {
    await page.goto(shared.url);
    const run = await mch(profile, ['unshare', shared.url]);
    expectExit(run, 0);
    const response = await page.reload();
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This link is not available');
  });
});
