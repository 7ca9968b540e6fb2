// The window as a new user meets it: `mch-sync ui` (the real core and headless host) in Chromium against
// the real device: sign in, choose the folders, watch it sync, see a new file in Activity, then stop cleanly.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { startTestDevice, type TestDevice } from '../helpers/device.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { cliEnv, MCH_SYNC_BIN, runMchSync } from '../helpers/mch-sync.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-real');

let device: TestDevice;
let home: string;
let env: NodeJS.ProcessEnv;
let folder: string;
let ui: ChildProcessWithoutNullStreams;
let output = '';
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  device = await startTestDevice();
  home = mkdtempSync(join(tmpdir(), 'mch-ui-window-'));
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  env = cliEnv({ HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') });
  folder = join(home, 'Work');
  mkdirSync(folder);
  writeFileSync(join(folder, 'plan.txt'), 'the plan\n');
  ui = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', join(home, 'profile'), 'ui', '--no-open'], {
    env,
  });
  ui.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  ui.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = await waitFor('the address', () => /The window is at (\S+)/.exec(output)?.[1]);
  browser = await launchBrowser();
  page = await browser.context.newPage();
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
  await device?.stop();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the window of mch-sync ui', () => {
  it('signs in with a password and a configuration URL given under Advanced', async () => {
    await page.getByLabel('User name').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByText('Advanced').click();
    await page.getByLabel('Configuration URL').fill(device.running.urls.config);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose the folders to keep in sync' }).waitFor();
  });

  it('pairs a local folder with a new device folder and shows it up to date', async () => {
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Name of the new folder').fill('Work');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('/Work', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'status.png'), fullPage: true });
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=plan');
    expect(JSON.stringify(await found.json())).toContain('"name":"plan.txt"');
  });

  it('shows a file dropped into the folder in Activity', async () => {
    writeFileSync(join(folder, 'dropped in.txt'), 'new');
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /Activity/ })
      .click();
    await page.getByText('dropped in.txt').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'activity.png'), fullPage: true });
  });

  it('leaves the status to the command line too, while it runs', async () => {
    const status = await runMchSync(
      ['--profile', join(home, 'profile'), 'status', '--folder', folder, '--json'],
      {
        env,
      },
    );
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ pid: ui.pid });
  });

  it('stops every pass cleanly on SIGTERM, having caused no console error', async () => {
    const exited = new Promise<number | null>((done) => ui.once('exit', done));
    ui.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopped.');
    expect(problems).toEqual([]);
  });
});
