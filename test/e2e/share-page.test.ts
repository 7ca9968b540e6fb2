// A link recipient in real Chromium: opens the share, browses, downloads, is refused what was not
// shared, and sees the page disappear when the share is deleted (device-api.md §4).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../helpers/fixtures.ts';
import type { Share } from '../../common/wire/sharing.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { createFile, createFolder, type Created } from '../helpers/multipart.ts';
import { shareWithLink, solidPng } from '../helpers/shares.ts';

const UNICODE_NAME = 'Résumé – Резюме ✓ (v2).txt';
const UNICODE_BYTES = Buffer.from('Curriculum vitæ\n', 'utf8');
const IMAGE = solidPng(96, 64, [24, 110, 200]);
const SCREENSHOT = join(import.meta.dirname, '..', '..', 'test-results', 'share-page.png');

let browser: TestBrowser;
let page: Page;
let share: Share;
let folder: Created;
let unshared: Created;
const problems: string[] = [];

test.beforeAll(async ({ device }) => {
  const unicode = await createFile(device, UNICODE_NAME, UNICODE_BYTES);
  const image = await createFile(device, 'harbour.png', IMAGE);
  folder = await createFolder(device, 'Trip notes');
  await createFile(device, 'day-1.txt', 'Arrived.', folder.id);
  unshared = await createFile(device, 'diary.txt', 'private');
  share = await shareWithLink(device, 'alice', [unicode.id, image.id, folder.id]);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  // A blocked resource or a policy violation shows up here; the page should cause none.
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

function rowNames(): Promise<string[]> {
  return page.locator('tbody td.name').allInnerTexts();
}

describe('the recipient', () => {
  it('sees the shared files and folder, with a thumbnail for the image', async () => {
    const response = await page.goto(share.url);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Shared files');
    const names = (await rowNames()).map((name) => name.replace(/, folder$/, '').trim());
    expect(names.sort()).toEqual([UNICODE_NAME, 'Trip notes', 'harbour.png'].sort());
    const thumbnail = page.getByRole('img', { name: 'Preview of harbour.png' });
    await thumbnail.scrollIntoViewIfNeeded();
    // naturalWidth is 0 until the image has loaded, and stays 0 if the policy or the device refused it.
    // Page code is passed as strings: the tests' TypeScript has no DOM types.
    const naturalWidth = `document.querySelector('img[alt="Preview of harbour.png"]').naturalWidth`;
    await expect.poll(() => page.evaluate<number>(naturalWidth)).toBe(96);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.setViewportSize({ width: 1000, height: 560 });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('downloads a file with its exact bytes and unicode name', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download ${UNICODE_NAME}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(UNICODE_NAME);
    const path = await download.path();
    expect(readFileSync(path).equals(UNICODE_BYTES)).toBe(true);
  });

  it('opens the shared folder and comes back by the breadcrumb', async () => {
    await page.getByRole('link', { name: 'Trip notes' }).first().click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Trip notes');
    expect(await rowNames()).toEqual(['day-1.txt']);
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await breadcrumb.locator('[aria-current="page"]').innerText()).toBe('Trip notes');
    await breadcrumb.getByRole('link', { name: 'Shared files' }).click();
    expect(page.url()).toBe(share.url);
  });

  it('shows focus and fits a phone screen', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate<string>(
      'getComputedStyle(document.activeElement ?? document.body).outlineWidth',
    );
    expect(outline).not.toBe('0px');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1000, height: 560 });
  });

  it('cannot reach an unshared file by editing the address', async () => {
    for (const path of [`/files/${unshared.id}`, `/files/${unshared.id}/download`]) {
      const response = await page.goto(`${share.url}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This link is not available');
      expect(await page.content()).not.toContain('diary');
    }
  });

  it('sees the page gone once the share is deleted', async ({ device }) => {
    await page.goto(share.url);
    const deleted = await device.fetchAs('alice', `/cloud/v1/shares/${share.shareId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const response = await page.reload();
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This link is not available');
    const again = await page.goto(`${share.url}/files/${folder.id}`);
    expect(again?.status()).toBe(404);
  });

  it('caused no console errors or policy violations on the shown pages', () => {
    // The 404 answers above are logged as failed loads; nothing else may be.
    expect(problems.filter((text) => !text.includes('404'))).toEqual([]);
  });
});
