// The window's views in real Chromium under the window's CSP, over a scripted bridge: screenshots of every view (light, dark, 400 and 1280 px), axe-core, no overflow, no console errors or policy violations, and the calls the controls send.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiError, ViewName } from '../../common/contract.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { rendererSample } from '../helpers/renderer-sample.ts';
import { AXE_PATH, serveRenderer, type RendererServer } from '../helpers/renderer-server.ts';
import { scriptedBridgeSource, type ScriptedBridgeOptions } from '../helpers/scripted-bridge.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui');

/** The core's words for failures the views show (app/ui/ui-errors.ts, settings-check.ts). */
const INTERNAL_FAILURE: UiError = {
  code: 'INTERNAL',
  title: 'Something went wrong',
  message:
    'mch-sync could not do this because of a fault of its own. Try again; if it fails again, the log says what happened.',
  details: 'shell:openPath: Cannot read properties of undefined (reading "path")',
  logFile: '/home/ann/.config/mch-sync/logs/window.log',
};
const SIGN_IN_UNREACHABLE: UiError = {
  code: 'SIGN_IN_UNREACHABLE',
  title: 'Could not reach the sign-in service',
  message:
    'Nothing answered at 127.0.0.1:8080. Check the configuration URL under Advanced, and that the device is on and on this network, then sign in again.',
  details: 'NETWORK: GET http://127.0.0.1:8080/config: connect ECONNREFUSED 127.0.0.1:8080',
};
const RULES_REFUSED: UiError = {
  code: 'IGNORE_RULE_INVALID',
  title: 'Ignore rules not saved',
  message:
    'Line 2 ("report[2024.pdf") cannot be read: the "[" at character 7 is never closed (write "\\[" for a bracket in a name). Fix it and save again; the rules stay as they were.',
  details:
    'line 2: report[2024.pdf — the "[" at character 7 is never closed (write "\\[" for a bracket in a name)',
};
const SIZES = [
  { width: 400, height: 600 },
  { width: 1280, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

let server: RendererServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await serveRenderer();
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  problems: string[];
}

async function openWindow(
  view: ViewName,
  scenario: ScriptedBridgeOptions['scenario'] = 'ready',
  options: Pick<ScriptedBridgeOptions, 'failures' | 'pending'> & {
    bridge?: boolean;
    resolvesDroppedFiles?: boolean;
  } = {},
): Promise<OpenPage> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  if (options.bridge !== false) {
    const sample = rendererSample(Date.now());
    await page.addInitScript(
      scriptedBridgeSource({
        sample,
        scenario,
        resolvesDroppedFiles: options.resolvesDroppedFiles ?? false,
        ...(options.failures === undefined ? {} : { failures: options.failures }),
        ...(options.pending === undefined ? {} : { pending: options.pending }),
      }),
    );
  }
  await page.goto(`${server.url}/#${view}`);
  await page.locator('main h1').first().waitFor();
  return { page, problems };
}

function calls(page: Page): Promise<Array<{ name: string; request: Record<string, unknown> }>> {
  return page.evaluate('window.__mch.calls');
}

/** Fires a core event in the page, as the host would. */
async function emit(page: Page, name: string, payload: unknown): Promise<void> {
  await page.evaluate(`window.__mch.emit(${JSON.stringify(name)}, ${JSON.stringify(payload)})`);
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate('window.__mch ? window.__mch.violations : []');
}

/** axe-core's serious and critical violations, as `rule: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) {
    await page.addScriptTag({ url: AXE_PATH });
  }
  const found = await page.evaluate<
    Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>
  >(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  );
  return found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

async function searchText(page: Page): Promise<void> {
  await page.getByLabel('Search the device').fill('report');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator('mark').first().waitFor();
}

/** Each screenshot: the view, the bridge's scenario, and what to do before it shows what is worth seeing. */
const SHOTS_TAKEN: Array<{
  shot: string;
  view: ViewName;
  scenario: ScriptedBridgeOptions['scenario'];
  bridge?: Pick<ScriptedBridgeOptions, 'failures' | 'pending'>;
  prepare?: (page: Page) => Promise<void>;
}> = [
  { shot: 'first-run', view: 'first-run', scenario: 'new' },
  {
    shot: 'first-run-device',
    view: 'first-run',
    scenario: 'new',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Sign in with browser' }).click();
      await page.getByRole('radio', { name: /Office backup/ }).waitFor();
    },
  },
  {
    shot: 'first-run-folders',
    view: 'first-run',
    scenario: 'new',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Sign in with browser' }).click();
      await page.getByRole('button', { name: 'Use this device' }).click();
      await page.getByRole('button', { name: 'Photos' }).click();
      await page.getByText('/Photos', { exact: true }).waitFor();
    },
  },
  { shot: 'status', view: 'status', scenario: 'ready' },
  { shot: 'activity', view: 'activity', scenario: 'ready' },
  { shot: 'issues', view: 'issues', scenario: 'ready' },
  {
    // The destructive answer asks first, with what it deletes and where.
    shot: 'issues-hold-asked',
    view: 'issues',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Delete them on the device too' }).click();
      await page.getByText('Delete 214 items on the device and on every computer that syncs it?').waitFor();
    },
  },
  { shot: 'shares', view: 'shares', scenario: 'ready' },
  {
    shot: 'shares-picker',
    view: 'shares',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Choose items' }).click();
      await page.getByRole('button', { name: 'Open Documents' }).click();
      await page.getByRole('checkbox', { name: /report 2024\.pdf/ }).check();
    },
  },
  { shot: 'search', view: 'search', scenario: 'ready', prepare: searchText },
  {
    shot: 'search-photos',
    view: 'search',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Photos by date' }).click();
      await page.getByLabel('From').fill('2024-07-01');
      await page.getByLabel('To').fill('2024-07-31');
      await page.getByRole('button', { name: 'Find photos' }).click();
      await page.getByText('EOS R6', { exact: false }).waitFor();
    },
  },
  { shot: 'settings', view: 'settings', scenario: 'ready' },
  {
    shot: 'settings-add-new-folder',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Add a folder' }).click();
      await page.getByLabel('Folder on this computer').fill('/home/ann/Videos');
      await page.getByRole('button', { name: 'Photos', exact: true }).click();
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByLabel('Name of the new folder').fill('Videos');
      await page.getByRole('button', { name: 'Use this name' }).click();
      await page.getByText('(new, made when syncing starts)').waitFor();
    },
  },
  {
    // Selective sync: the device folders of a pair, one opened, each state beside its box.
    shot: 'settings-choose-folders',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Choose folders of Family photos' }).click();
      await page.getByRole('button', { name: 'Open 2024' }).click();
      await page.getByRole('checkbox', { name: 'Work trip' }).waitFor();
    },
  },
  {
    // Unchecking a synced folder asks what becomes of its copy here.
    shot: 'settings-leave-out',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Choose folders of Family photos' }).click();
      await page.getByRole('checkbox', { name: '2023' }).click();
      await page.getByRole('dialog', { name: 'Stop syncing 2023 to this computer?' }).waitFor();
    },
  },
  {
    shot: 'settings-sign-out',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('dialog', { name: 'Sign out of mch-sync?' }).waitFor();
    },
  },
  {
    shot: 'settings-rules-refused',
    view: 'settings',
    scenario: 'ready',
    bridge: { failures: { 'settings:update': RULES_REFUSED } },
    prepare: async (page) => {
      await page.getByLabel('Ignore rules').fill('*.tmp\nreport[2024.pdf\n');
      await page.getByRole('button', { name: 'Save rules' }).click();
      await page.getByRole('alert').filter({ hasText: 'Ignore rules not saved' }).waitFor();
    },
  },
  {
    // Settings › Network: a rate the parser cannot read, refused in its words beside the limits.
    shot: 'settings-network-refused',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByLabel('Download limit').fill('fast');
      await page.getByRole('button', { name: 'Save limits' }).click();
      await page.getByRole('alert').filter({ hasText: 'Not a speed' }).waitFor();
    },
  },
  {
    shot: 'error-details',
    view: 'status',
    scenario: 'ready',
    bridge: { failures: { 'shell:openPath': INTERNAL_FAILURE } },
    prepare: async (page) => {
      await page
        .getByRole('article', { name: 'Documents' })
        .getByRole('button', { name: 'Open folder' })
        .click();
      const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
      await alert.getByText('Details').click();
      await alert.getByText(INTERNAL_FAILURE.logFile ?? '').waitFor();
    },
  },
  {
    shot: 'sign-in-unreachable',
    view: 'first-run',
    scenario: 'new',
    bridge: { failures: { 'account:signInPassword': SIGN_IN_UNREACHABLE } },
    prepare: async (page) => {
      await page.getByLabel('User name').fill('ann');
      await page.getByLabel('Password').fill('secret');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Could not reach the sign-in service' }).waitFor();
    },
  },
  {
    shot: 'busy-open-folder',
    view: 'status',
    scenario: 'ready',
    bridge: { pending: ['shell:openPath'] },
    prepare: async (page) => {
      const open = page
        .getByRole('article', { name: 'Documents' })
        .getByRole('button', { name: 'Open folder' });
      await open.click();
      await expect.poll(() => open.getAttribute('aria-busy')).toBe('true');
    },
  },
  {
    shot: 'issues-answering',
    view: 'issues',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Restore them here' }).click();
      await page.getByText('Restore them here: under way…').first().waitFor();
    },
  },
  // Versions (issue 31): the conflicts with both sides under Issues, Recently deleted, a file's versions, a pair's policy.
  {
    shot: 'issues-conflicts-checked',
    view: 'issues',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('checkbox', { name: 'Select the conflict of Notes/shopping.md' }).check();
      await page.getByRole('checkbox', { name: 'Select the conflict of Scans/receipt.png' }).check();
      await page.getByRole('button', { name: 'Keep the device’s for all selected' }).waitFor();
    },
  },
  {
    shot: 'deleted',
    view: 'deleted',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('checkbox', { name: /^Taxes\/2023\/return\.pdf/ }).check();
      await page.getByRole('checkbox', { name: /^budget\.ods/ }).check();
    },
  },
  {
    shot: 'versions-dialog',
    view: 'activity',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Versions of Letters/landlord (final).odt' }).click();
      await page.getByRole('button', { name: 'Restore version 2 of landlord (final).odt' }).waitFor();
    },
  },
  {
    shot: 'versions-restore-asked',
    view: 'activity',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Versions of Letters/landlord (final).odt' }).click();
      await page.getByRole('button', { name: 'Restore version 2 of landlord (final).odt' }).click();
      await page.getByText('Restore version 2 of landlord (final).odt?').waitFor();
    },
  },
  {
    shot: 'settings-versions',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Versions of Documents' }).click();
      await page.getByText('214 versions kept: 1.8 GB of 26 GB.').waitFor();
    },
  },
  {
    shot: 'settings-add-refused',
    view: 'settings',
    scenario: 'ready',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Add a folder' }).click();
      const local = page.getByLabel('Folder on this computer');
      await local.fill('/home/ann/Documents/Taxes');
      await local.blur();
      await page.getByText('Folders overlap').waitFor();
    },
  },
];

describe('every view', () => {
  it.each(SHOTS_TAKEN)(
    '$shot: light and dark at 400 and 1280 px, no serious axe violation, no overflow, no error',
    async ({ view, scenario, shot, bridge, prepare }) => {
      const { page, problems } = await openWindow(view, scenario, bridge);
      await prepare?.(page);
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const size of SIZES) {
          await page.setViewportSize(size);
          const where = `${shot} ${scheme} ${size.width}`;
          const overflow = await page.evaluate<number>(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          );
          expect(overflow, `horizontal overflow in ${where}`).toBe(0);
          // Animations stopped: a spinner or a moving bar is shot where it rests, the same each run.
          await page.screenshot({
            path: join(SHOTS, `${shot}-${scheme}-${size.width}.png`),
            fullPage: true,
            animations: 'disabled',
          });
          expect(await seriousViolations(page), `axe in ${where}`).toEqual([]);
        }
      }
      expect(await violations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    90_000,
  );

  it('says under the status header how the device is reached (issue #33)', async () => {
    const { page } = await openWindow('status');
    await page.getByText('Living-room cloud · at home').waitFor();
    await page.close();
  });

  it('runs under the policy: an inline style attribute set from markup is refused and recorded', async () => {
    const { page } = await openWindow('status');
    await page.evaluate(`document.body.insertAdjacentHTML('beforeend', '<p style="color: red">inline</p>')`);
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^style-src-attr/)]);
    await page.close();
  });

  it('says so when the page has no bridge, instead of a blank window', async () => {
    const { page, problems } = await openWindow('status', 'ready', { bridge: false });
    expect(await page.locator('h1').innerText()).toBe('This window is not connected to mch-sync');
    await page.screenshot({ path: join(SHOTS, 'no-bridge-light-1280.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Issues tags each item with what the user can do, and lists what needs nothing apart', async () => {
    const { page } = await openWindow('issues');
    const photos = page.getByRole('region', { name: /Family photos/ });
    // The heading counts what the card counts (3 not synced); the link and the warning are apart.
    await expect.poll(() => photos.getByRole('heading', { level: 2 }).innerText()).toBe('Family photos (3)');
    const tags = await photos.locator('.tag').allInnerTexts();
    expect(tags).toEqual([
      'Needs you',
      'Cannot sync as it is',
      'Will retry',
      'Left out',
      'Synced, with a warning',
    ]);
    const quiet = photos.locator('h3 ~ ul .issue');
    expect(await quiet.locator('.issue-path').allInnerTexts()).toEqual(['Latest', '2024/con.jpg']);
    // Each conflict with both sides (the newer one marked), its tag on its head.
    expect(
      await page
        .getByRole('region', { name: /^Documents/ })
        .locator('.issue-head .tag')
        .allInnerTexts(),
    ).toEqual(['Conflict', 'Conflict']);
    await page.close();
  });
});

describe('the controls send the contract calls', () => {
  it('sign-in sends account:signInPassword with what was typed', async () => {
    const { page } = await openWindow('first-run', 'new');
    await page.getByLabel('User name').fill('ann');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByText('Advanced').click();
    await page.getByLabel('Configuration URL').fill('http://127.0.0.1:9999/config');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose the device' }).waitFor();
    const sent = (await calls(page)).filter((call) => call.name === 'account:signInPassword');
    expect(sent).toEqual([
      {
        name: 'account:signInPassword',
        request: { configUrl: 'http://127.0.0.1:9999/config', username: 'ann', password: 'correct horse' },
      },
    ]);
    await page.close();
  });

  it('pause sends sync:pause with the pair', async () => {
    const { page } = await openWindow('status');
    const card = page.getByRole('article', { name: 'Family photos' });
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    await card.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect((await calls(page)).filter((call) => call.name === 'sync:pause')).toEqual([
      { name: 'sync:pause', request: { pairId: 'photos' } },
    ]);
    await page.close();
  });

  it('"Restore them here" sends sync:restore, and the card says it is under way until its pass ends', async () => {
    const { page } = await openWindow('issues');
    await page.getByRole('button', { name: 'Restore them here' }).click();
    const card = page.locator('section.hold', { hasText: 'Folder emptied: Documents' });
    await card.getByRole('status').getByText('Restore them here: under way…').waitFor();
    // No answer can be given twice: the hold's buttons are gone while it is carried out.
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await card.getByRole('progressbar', { name: 'Progress of Documents' }).count()).toBe(1);
    const sent = (await calls(page)).filter((call) => call.name.startsWith('sync:'));
    expect(sent).toEqual([
      { name: 'sync:restore', request: { pairId: 'documents', reason: 'emptied-root' } },
    ]);
    // The pass ended: the core's next pairs:changed has neither hold nor answer.
    const pairs = rendererSample(Date.now()).pairs.map((pair) => ({ ...pair, hold: null, state: 'idle' }));
    await emit(page, 'pairs:changed', pairs);
    await card.waitFor({ state: 'detached' });
    await page.close();
  });

  it('search marks exactly the located text, an emoji before the match included', async () => {
    const { page } = await openWindow('search');
    await searchText(page);
    const marks = await page.locator('.fragments mark').allInnerTexts();
    expect(marks).toEqual(['report', 'report', 'Report']);
    const emojiLine = await page.locator('.fragments li', { hasText: '🎉' }).innerHTML();
    expect(emojiLine).toContain('🎉 <mark>report</mark> of the party');
    expect((await calls(page)).find((call) => call.name === 'search:text')?.request).toEqual({
      query: 'report',
      limit: 50,
      pageToken: null,
    });
    await page.close();
  });

  it('revoke asks first, then sends shares:revoke', async () => {
    const { page } = await openWindow('shares');
    const share = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Summer holiday' }) });
    await share.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this link?' });
    await dialog.waitFor();
    expect((await calls(page)).some((call) => call.name === 'shares:revoke')).toBe(false);
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await calls(page)).filter((call) => call.name === 'shares:revoke')).toEqual([
      { name: 'shares:revoke', request: { shareId: 'sh-1' } },
    ]);
    expect(await page.getByRole('heading', { name: 'Summer holiday' }).count()).toBe(0);
    await page.close();
  });

  it('"Add a folder" offers the device folder the core names, and adds the pair with it', async () => {
    const { page } = await openWindow('settings');
    await page.getByRole('button', { name: 'Add a folder' }).click();
    const local = page.getByLabel('Folder on this computer');
    await local.fill('/home/ann/Notes');
    await local.blur();
    await page.getByText('/Notes', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    await page.getByRole('button', { name: 'Add a folder' }).waitFor();
    const sent = (await calls(page)).filter((call) => call.name.startsWith('pairs:'));
    expect(sent.filter((call) => call.name !== 'pairs:list')).toEqual([
      { name: 'pairs:check', request: { localRoot: '/home/ann/Notes', remoteFolder: null } },
      { name: 'pairs:add', request: { localRoot: '/home/ann/Notes', remoteFolder: '/Notes' } },
    ]);
    await page.close();
  });

  it('removing a pair asks whether to keep the local files, then sends pairs:remove with the answer', async () => {
    const { page } = await openWindow('settings');
    await page.getByRole('button', { name: 'Remove Documents' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop syncing Documents?' });
    await dialog.getByRole('button', { name: 'Keep the files' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await calls(page)).filter((call) => call.name === 'pairs:remove')).toEqual([
      { name: 'pairs:remove', request: { pairId: 'documents', keepLocalFiles: true } },
    ]);
    expect(await page.getByRole('button', { name: 'Remove Documents' }).count()).toBe(0);
    await page.close();
  });

  it('a settings switch sends settings:update with only what changed', async () => {
    const { page } = await openWindow('settings');
    await page.getByLabel('Show notifications').uncheck();
    await expect
      .poll(async () => (await calls(page)).filter((call) => call.name === 'settings:update'))
      .toEqual([{ name: 'settings:update', request: { notifications: false } }]);
    const entries = page.getByRole('checkbox', { name: 'Add “Copy share link” to the file manager' });
    await expect.poll(() => entries.getAttribute('aria-describedby')).not.toBeNull();
    expect(
      await page.locator(`[id="${await entries.getAttribute('aria-describedby')}"]`).textContent(),
    ).toMatch(/Right-click files in a synced folder/);
    await entries.uncheck();
    await expect
      .poll(async () => (await calls(page)).filter((call) => call.name === 'settings:update').at(-1))
      .toEqual({ name: 'settings:update', request: { fileManagerEntries: false } });
    await page.close();
  });

  it('a file dropped in the browser host says to use the picker', async () => {
    const { page } = await openWindow('status');
    const dataTransfer = await page.evaluateHandle(
      `(() => { const d = new DataTransfer(); d.items.add(new File(['x'], 'notes.txt')); return d; })()`,
    );
    await page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByText('Drop works in the desktop app', { exact: true }).waitFor();
    expect(page.url()).toMatch(/#shares$/);
    expect((await calls(page)).some((call) => call.name === 'shares:create')).toBe(false);
    await page.close();
  });

  it('a file dropped where the host tells its path becomes a share link', async () => {
    const { page } = await openWindow('status', 'ready', { resolvesDroppedFiles: true });
    const dataTransfer = await page.evaluateHandle(
      `(() => { const d = new DataTransfer(); d.items.add(new File(['x'], 'notes.txt')); return d; })()`,
    );
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByText('Link ready', { exact: false }).waitFor();
    expect((await calls(page)).filter((call) => call.name === 'shares:create')).toEqual([
      { name: 'shares:create', request: { paths: ['/home/ann/Documents/notes.txt'], fresh: false } },
    ]);
    await page.close();
  });

  it('a notification is a toast whose button opens the view it names', async () => {
    const { page } = await openWindow('status');
    await page.evaluate(
      `window.__mch.emit('notification', { id: 'n1', kind: 'conflict', title: 'Conflicts in Documents', body: '3 files changed on both sides.', count: 3, view: 'issues', pairId: 'documents' })`,
    );
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await toasts.getByText('Conflicts in Documents').waitFor();
    await page.setViewportSize(SIZES[0]);
    await page.screenshot({ path: join(SHOTS, 'toast-light-400.png') });
    await toasts.getByRole('button', { name: 'Show issues' }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
    expect(await toasts.getByText('Conflicts in Documents').count()).toBe(0);
    await page.close();
  });
});

describe('the window says what it is doing and what went wrong', () => {
  it('turns "Sync now" off while the pair syncs (it would ask for what runs), and on once it is idle', async () => {
    const { page } = await openWindow('status');
    const card = page.getByRole('article', { name: 'Family photos' });
    const syncing = card.getByRole('button', { name: 'Syncing…' });
    expect(await syncing.isDisabled()).toBe(true);
    const pairs = rendererSample(Date.now()).pairs.map((pair) => ({
      ...pair,
      state: 'idle',
      progress: null,
    }));
    await emit(page, 'pairs:changed', pairs);
    expect(await card.getByRole('button', { name: 'Sync now' }).isEnabled()).toBe(true);
    await page.close();
  });

  it('shows a control working from the click until the answer, and its error beside it', async () => {
    const { page } = await openWindow('status', 'ready', {
      pending: ['sync:pause'],
      failures: { 'shell:openPath': INTERNAL_FAILURE },
    });
    const card = page.getByRole('article', { name: 'Documents' });
    const pause = card.getByRole('button', { name: 'Pause', exact: true });
    await pause.click();
    await expect.poll(() => pause.getAttribute('aria-busy')).toBe('true');
    expect(await pause.isDisabled()).toBe(true);
    expect(await card.locator('button[aria-busy="true"] .spinner').count()).toBe(1);
    await page.evaluate(`window.__mch.release('sync:pause')`);
    await card.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    // An error for people: the words first, the code, what failed and the log behind "Details".
    await card.getByRole('button', { name: 'Open folder' }).click();
    const alert = card.getByRole('alert');
    await alert.getByText(INTERNAL_FAILURE.message).waitFor();
    expect(await alert.getByText('INTERNAL', { exact: true }).isVisible()).toBe(false);
    await alert.getByText('Details').click();
    expect(await alert.getByText('INTERNAL', { exact: true }).isVisible()).toBe(true);
    expect(await alert.getByText(INTERNAL_FAILURE.logFile ?? '').isVisible()).toBe(true);
    await page.close();
  });

  it('shows a pass in the units of the tray and the command line (test/unit/common/units.test.ts)', async () => {
    const { page } = await openWindow('status');
    await page.getByText('128 of 412 items · 734 MB of 2.1 GB · 5.5 MB/s · 4 min left').waitFor();
    await page.close();
  });

  it('lists an upload that has not sent a byte yet with its size and a moving bar', async () => {
    const { page } = await openWindow('status');
    const transfers = page.getByRole('list', { name: 'Transfers running in Family photos' });
    const starting = transfers.getByRole('listitem').filter({ hasText: 'holiday-film.mov' });
    await starting.getByText('Reading it to send · 1.5 GB').waitFor();
    // No value: an indeterminate bar, which moves before the first byte does.
    expect(await starting.locator('progress').getAttribute('value')).toBeNull();
    await page.close();
  });

  it('asks before signing out, saying what stops; Cancel keeps the sign-in', async () => {
    const { page } = await openWindow('settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out of mch-sync?' });
    await dialog
      .getByText('Syncing stops for Family photos and Documents until you sign in again.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await calls(page)).some((call) => call.name === 'account:signOut')).toBe(false);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await calls(page)).filter((call) => call.name === 'account:signOut')).toHaveLength(1);
    await page.close();
  });

  it('"Add a folder" names a new device folder without making it, and Cancel changes nothing', async () => {
    const { page } = await openWindow('settings');
    await page.getByRole('button', { name: 'Add a folder' }).click();
    await page.getByLabel('Folder on this computer').fill('/home/ann/Videos');
    await page.getByRole('button', { name: 'Photos', exact: true }).click();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Name of the new folder').fill('Videos');
    await page.getByRole('button', { name: 'Use this name' }).click();
    await page.getByText('/Photos/Videos', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add a folder' }).waitFor();
    const changing = (names: string[]) =>
      names.filter((name) => ['pairs:add', 'remote:createFolder'].includes(name));
    expect(changing((await calls(page)).map((call) => call.name))).toEqual([]);
    // Again, confirmed this time: the pair is added with the new folder, which its first pass makes.
    await page.getByRole('button', { name: 'Add a folder' }).click();
    await page.getByLabel('Folder on this computer').fill('/home/ann/Videos');
    await page.getByRole('button', { name: 'Photos', exact: true }).click();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Name of the new folder').fill('Videos');
    await page.getByRole('button', { name: 'Use this name' }).click();
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    await page.getByRole('button', { name: 'Add a folder' }).waitFor();
    expect((await calls(page)).filter((call) => changing([call.name]).length > 0)).toEqual([
      { name: 'pairs:add', request: { localRoot: '/home/ann/Videos', remoteFolder: '/Photos/Videos' } },
    ]);
    await page.close();
  });

  it("Network saves the limits and the proxy as typed, refuses `fast` in the core's words, and says which proxy is in use", async () => {
    const { page } = await openWindow('settings');
    const up = page.getByLabel('Upload limit');
    const down = page.getByLabel('Download limit');
    await expect.poll(() => up.inputValue()).toBe('2MB/s');
    expect(await down.inputValue()).toBe('');
    expect(await down.getAttribute('placeholder')).toBe('off');
    await page
      .getByRole('status')
      .getByText(
        "In use: http://proxy.example:3128, this profile's own. Reached directly: localhost,127.0.0.1.",
      )
      .waitFor();
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    expect(await password.getAttribute('placeholder')).toBe('unchanged');

    await up.fill('500KB/s');
    await down.fill('fast');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page
      .getByRole('alert')
      .getByText('Download limit: "fast" is not a speed: write it as 2MB/s, 500KB/s, 1.5MiB/s or off.')
      .waitFor();
    expect(await down.getAttribute('aria-invalid')).toBe('true');
    expect(await up.getAttribute('aria-invalid')).toBe('false');
    await down.fill('1.5 MiB/s');
    await page.getByRole('button', { name: 'Save limits' }).click();
    // What was kept, in the writing that reads back the same: nothing left to save.
    await expect.poll(() => down.inputValue()).toBe('1.5MiB/s');
    expect(await up.inputValue()).toBe('500KB/s');
    expect(await page.getByRole('button', { name: 'Save limits' }).isDisabled()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);

    // The password left empty keeps the one stored: the request has none.
    await page.getByLabel('Proxy URL').fill('http://proxy.work.example:8080');
    await page.getByLabel('User', { exact: true }).fill('bob');
    await page.getByRole('button', { name: 'Save proxy' }).click();
    await page
      .getByText("In use: http://proxy.work.example:8080, this profile's own.", { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Stop using this proxy' }).click();
    await page.getByRole('status').getByText('In use: no proxy; every request goes direct.').waitFor();
    expect(await page.getByLabel('Proxy URL').inputValue()).toBe('');
    expect(await password.getAttribute('placeholder')).toBe('');

    const sent = (await calls(page)).filter((call) => call.name.startsWith('network:set'));
    expect(sent).toEqual([
      { name: 'network:setLimits', request: { up: '500KB/s', down: 'fast' } },
      { name: 'network:setLimits', request: { up: '500KB/s', down: '1.5 MiB/s' } },
      { name: 'network:setProxy', request: { url: 'http://proxy.work.example:8080', user: 'bob' } },
      { name: 'network:setProxy', request: { url: null, user: null, password: null } },
    ]);
    await page.close();
  });

  it('refuses ignore rules in the words of the core beside them, the rules kept as typed', async () => {
    const { page } = await openWindow('settings', 'ready', {
      failures: { 'settings:update': RULES_REFUSED },
    });
    const rules = page.getByLabel('Ignore rules');
    await rules.fill('*.tmp\nreport[2024.pdf\n');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByRole('alert').getByText(RULES_REFUSED.message).waitFor();
    expect(await rules.getAttribute('aria-invalid')).toBe('true');
    expect(await rules.inputValue()).toBe('*.tmp\nreport[2024.pdf\n');
    await page
      .getByText('Left out now, on purpose: 14 items matching ignore rules; 4 system or temporary files')
      .waitFor();
    await page.close();
  });

  it('keeps what is typed in a setting when the settings change elsewhere, and shows the change otherwise', async () => {
    const { page } = await openWindow('settings');
    const poll = page.getByLabel('Ask the device for changes every (seconds)');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await poll.fill('45');
    const sample = rendererSample(Date.now());
    await emit(page, 'settings:changed', { ...sample.settings, pollIntervalSeconds: 90 });
    // Two frames: Preact's effects have run by then.
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    );
    expect(await poll.inputValue()).toBe('45');
    expect(await save.isEnabled()).toBe(true);
    // Not edited (the stored value again): a change from elsewhere is shown.
    await poll.fill('90');
    await emit(page, 'settings:changed', { ...sample.settings, pollIntervalSeconds: 120 });
    // Polled from here: a string predicate polled in the page is an eval, which the window's CSP refuses.
    await expect.poll(() => poll.inputValue()).toBe('120');
    await page.close();
  });

  it('keeps the activity when the account or the settings change', async () => {
    const { page } = await openWindow('activity');
    const lines = page.getByRole('list', { name: 'Recent changes, newest first' }).getByRole('listitem');
    const before = await lines.count();
    const sample = rendererSample(Date.now());
    await emit(page, 'account:changed', sample.account);
    await emit(page, 'settings:changed', sample.settings);
    expect(await lines.count()).toBe(before);
    expect(before).toBeGreaterThan(0);
    await page.close();
  });
});

describe('keyboard only', () => {
  /** The accessible names of the elements Tab reaches, in order, from the top of the page. */
  async function tabOrder(page: Page, presses: number): Promise<string[]> {
    const reached: string[] = [];
    for (let press = 0; press < presses; press += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate<string>(
          `(() => { const e = document.activeElement; return e ? (e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent || '').trim()) : ''; })()`,
        ),
      );
    }
    return reached;
  }

  it('Tab reaches the nav and the main action of the status and shares views', async () => {
    const { page } = await openWindow('status');
    // The skip link, seven views in the nav (Recently deleted is the fifth), the header's Pause all and
    // Pause for a while…, then the first card: its new folder's two buttons and its issues link before Pause.
    const status = await tabOrder(page, 14);
    expect(status).toContain('A Status');
    expect(status).toContain('A Shares');
    expect(status).toContain('BUTTON Pause');
    await page.close();

    const shares = await openWindow('shares');
    const order = await tabOrder(shares.page, 10);
    expect(order).toContain('A Settings');
    expect(order).toContain('BUTTON Choose items');
    await shares.page.close();
  });

  it('the nav moves to a view with Enter and puts the focus on its heading', async () => {
    const { page } = await openWindow('status');
    await page.getByRole('link', { name: 'Activity' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Activity');
    await page.close();
  });
});
