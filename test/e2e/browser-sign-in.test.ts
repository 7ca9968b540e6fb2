// Browser sign-in in real Chromium: the CLI's opener drives the device's sign-in page, the loopback receiver gets the code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.ts';
import type { CliDependencies } from '../../app/cli/terminal/cli-context.ts';
import { runCli } from '../../app/cli/main.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { MemoryKeychain } from '../helpers/mch-sync.ts';

let browser: TestBrowser;
const folders: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newProfile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-browser-'));
  folders.push(dir);
  return dir;
}

/** Runs `mch-sync` in this process; `openBrowser` stands in for the system browser. */
async function run(
  profile: string,
  args: string[],
  openBrowser: (url: string) => Promise<void>,
  keychain: MemoryKeychain,
) {
  let stdout = '';
  let stderr = '';
  const deps: CliDependencies = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    env: {},
    keychain,
    openBrowser,
  };
  const code = await runCli(['--profile', profile, ...args], deps);
  return { code, stdout, stderr };
}

async function signInOnPage(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('mch-sync login in the browser', () => {
  it('signs in through the device sign-in page and shows a page saying the window can be closed', async ({
    device,
  }) => {
    const profile = newProfile();
    const keychain = new MemoryKeychain();
    const page = await browser.context.newPage();
    let opened: URL | undefined;
    const result = await run(
      profile,
      ['login', '--config-url', device.running.urls.config],
      async (url) => {
        opened = new URL(url);
        await page.goto(url);
        // A wrong password first: the page says so and the sign-in goes on.
        await signInOnPage(page, 'alice', 'wrong');
        await expect.poll(() => page.getByRole('alert').innerText()).toContain('Wrong username or password.');
        await signInOnPage(page, 'alice', 'alice-password');
      },
      keychain,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(opened?.href);
    expect(result.stdout).toContain('Signed in as alice (auth0|');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('You are signed in');
    expect(await page.locator('body').innerText()).toContain(
      'You can close this window and return to mch-sync.',
    );

    // RFC 8252 / RFC 7636: loopback IP literal on a random port and path, S256, a state.
    const query = opened?.searchParams;
    expect(opened?.pathname).toMatch(/\/identity\/authorize$/);
    expect(query?.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/[0-9a-f]{32}$/);
    expect(query?.get('code_challenge_method')).toBe('S256');
    expect(query?.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query?.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(query?.get('scope')?.split(' ')).toContain('offline_access');

    // The receiver is gone once the code arrived.
    await expect(fetch(query?.get('redirect_uri') ?? '')).rejects.toThrow();
    const whoami = await run(profile, ['whoami', '--json'], () => Promise.resolve(), keychain);
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      user: { name: 'alice' },
      secretStore: { kind: 'keychain' },
    });
    await page.close();
  });

  it('signs in as the user who signs in on the page, whoever ran the command', async ({ device }) => {
    const profile = newProfile();
    const keychain = new MemoryKeychain();
    const page = await browser.context.newPage();
    const result = await run(
      profile,
      ['login', '--config-url', device.running.urls.config],
      async (url) => {
        await page.goto(url);
        await signInOnPage(page, 'bob', 'bob-password');
      },
      keychain,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Signed in as bob (');
    await page.close();
  });
});
