// The window's pause choices (#33): "Pause" until resumed, "Pause for 1 hour" and "Pause until tomorrow", on a card and for every folder.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { rendererSample } from '../helpers/renderer-sample.ts';
import { serveRenderer, type RendererServer } from '../helpers/renderer-server.ts';
import { scriptedBridgeSource } from '../helpers/scripted-bridge.ts';

let server: RendererServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await serveRenderer();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function statusPage(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.addInitScript(scriptedBridgeSource({ sample: rendererSample(Date.now()), scenario: 'ready' }));
  await page.goto(`${server.url}/#status`);
  await page.locator('main h1').first().waitFor();
  return page;
}

function pauseCalls(page: Page): Promise<Array<{ name: string; request: Record<string, unknown> }>> {
  return page
    .evaluate<Array<{ name: string; request: Record<string, unknown> }>>('window.__mch.calls')
    .then((calls) => calls.filter((call) => call.name === 'sync:pause'));
}

describe('pause for a while in the window', () => {
  it('sends sync:pause with for: 1h from a card, and with for: tomorrow for every folder', async () => {
    const page = await statusPage();
    const card = page.getByRole('article', { name: 'Family photos' });
    await card.getByText('Pause for a while…').click();
    await card.getByRole('button', { name: 'Pause for 1 hour', exact: true }).click();
    await card.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await pauseCalls(page)).toEqual([
      { name: 'sync:pause', request: { pairId: 'photos', for: '1h' } },
    ]);

    const header = page.locator('main header');
    await header.getByText('Pause for a while…').click();
    await header.getByRole('button', { name: 'Pause until tomorrow', exact: true }).click();
    await expect.poll(async () => (await pauseCalls(page)).length).toBe(2);
    expect((await pauseCalls(page))[1]).toEqual({
      name: 'sync:pause',
      request: { pairId: null, for: 'tomorrow' },
    });
    await page.close();
  });

  it('keeps "Pause" until resumed, with no length', async () => {
    const page = await statusPage();
    const card = page.getByRole('article', { name: 'Family photos' });
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    await card.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await pauseCalls(page)).toEqual([{ name: 'sync:pause', request: { pairId: 'photos' } }]);
    await page.close();
  });
});
