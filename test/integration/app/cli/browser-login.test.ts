// Browser sign-in without a browser: the printed address driven by fetch, error redirects, pasted addresses, timeout.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { CliDependencies } from '../../../../app/cli/terminal/cli-context.ts';
import { runCli } from '../../../../app/cli/main.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { cliEnv, MCH_SYNC_BIN, MemoryKeychain } from '../../../helpers/mch-sync.ts';

const folders: string[] = [];
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newProfile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-browser-login-'));
  folders.push(dir);
  return dir;
}

/** Starts `mch-sync login --no-browser` and waits for the address it prints. */
async function startLogin(device: TestDevice, profile: string) {
  const child = spawn(
    process.execPath,
    [MCH_SYNC_BIN, '--profile', profile, 'login', '--no-browser', '--config-url', device.running.urls.config],
    { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const address = await new Promise<URL>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /^ {2}(http\S+\/authorize\?\S+)$/m.exec(stdout);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(new URL(match[1]));
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`mch-sync exited with ${String(code)}: ${stdout}${stderr}`));
    });
  });
  return { address, exited, output: () => ({ stdout, stderr }) };
}

/** What a browser does on the sign-in page: post the form, and return where the device redirects to. */
async function submitSignIn(address: URL, username: string, password: string): Promise<string> {
  const page = await (await fetch(address)).text();
  const form = new URLSearchParams();
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const decode = (text: string): string =>
      text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    form.set(decode(match[1] ?? ''), decode(match[2] ?? ''));
  }
  form.set('username', username);
  form.set('password', password);
  const answer = await fetch(new URL('authorize', address), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return answer.headers.get('location') ?? '';
}

describe('mch-sync login without --username', () => {
  it('prints the sign-in address and finishes when the browser comes back with a code', async ({
    device,
  }) => {
    const profile = newProfile();
    const login = await startLogin(device, profile);
    expect(login.output().stdout).toContain('Open this address in a browser to sign in:');
    const location = await submitSignIn(login.address, 'alice', 'alice-password');
    const landing = await fetch(location);
    expect(landing.status).toBe(200);
    expect(landing.headers.get('cache-control')).toBe('no-store');
    expect(landing.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await landing.text()).toContain('You can close this window');
    expect(await login.exited).toBe(0);
    expect(login.output().stdout).toContain('Signed in as alice');
  });

  it('ignores an answer with another state, and fails with a clear message on access_denied', async ({
    device,
  }) => {
    const login = await startLogin(device, newProfile());
    const redirectUri = login.address.searchParams.get('redirect_uri') ?? '';
    const state = login.address.searchParams.get('state') ?? '';
    const forged = await fetch(`${redirectUri}?code=stolen&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('not the sign-in mch-sync is waiting for');
    const other = await fetch(new URL('/elsewhere', redirectUri));
    expect(other.status).toBe(404);
    const denied = await fetch(
      `${redirectUri}?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${encodeURIComponent(state)}`,
    );
    expect(denied.status).toBe(200);
    expect(await denied.text()).toContain('Sign-in did not finish');
    expect(await login.exited).toBe(1);
    // The last line; before it is the file store's warning (MCH_SECRET_STORE=file in spawned tests).
    expect(login.output().stderr.split('\n').at(-2)).toBe(
      'mch-sync: The sign-in was refused in the browser (access_denied: The user said no). Run `mch-sync login` again to retry.',
    );
  });
});

function inProcessDeps(
  overrides: Partial<CliDependencies>,
): CliDependencies & { out: () => string; err: () => string } {
  let stdout = '';
  let stderr = '';
  return {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    env: {},
    keychain: new MemoryKeychain(),
    openBrowser: () => Promise.resolve(),
    ...overrides,
    out: () => stdout,
    err: () => stderr,
  };
}

describe('browser sign-in in the CLI', () => {
  it('accepts the address a browser on another computer ended up on, pasted in', async ({ device }) => {
    const pasted = new PassThrough();
    const deps = inProcessDeps({
      pastedAddresses: pasted,
      openBrowser: async (url) => {
        // The other computer's browser cannot reach this loopback address: the person copies it instead.
        const location = await submitSignIn(new URL(url), 'bob', 'bob-password');
        pasted.write('http://127.0.0.1:1/callback/not-this-one?code=x&state=y\n');
        pasted.write(`${location}\n`);
      },
    });
    const code = await runCli(
      ['--profile', newProfile(), 'login', '--config-url', device.running.urls.config],
      deps,
    );
    expect(deps.err()).toBe('');
    expect(code).toBe(0);
    expect(deps.out()).toContain('paste here the address it ends up on');
    expect(deps.out()).toContain('That is not the address of this sign-in');
    expect(deps.out()).toContain('Signed in as bob');
  });

  it('gives up after the timeout, saying what to do', async ({ device }) => {
    const deps = inProcessDeps({ signInTimeoutMs: 500 });
    const code = await runCli(
      ['--profile', newProfile(), 'login', '--config-url', device.running.urls.config],
      deps,
    );
    expect(code).toBe(1);
    expect(deps.err()).toBe(
      'mch-sync: No sign-in arrived from the browser within 0.5 s: run `mch-sync login` again and finish signing in on the page that opens (or open the printed address yourself).\n',
    );
  });

  it('shows the address and goes on waiting when no browser can be opened', async ({ device }) => {
    const pasted = new PassThrough();
    const deps = inProcessDeps({
      pastedAddresses: pasted,
      openBrowser: async (url) => {
        // Let the warning be printed first, as it is when xdg-open is missing.
        setTimeout(
          () =>
            void submitSignIn(new URL(url), 'alice', 'alice-password').then((location) =>
              pasted.write(`${location}\n`),
            ),
          50,
        );
        throw new Error('xdg-open could not run: spawn xdg-open ENOENT');
      },
    });
    const code = await runCli(
      ['--profile', newProfile(), 'login', '--config-url', device.running.urls.config],
      deps,
    );
    expect(code).toBe(0);
    expect(deps.err()).toBe(
      'mch-sync: warning: Could not open a browser (xdg-open could not run: spawn xdg-open ENOENT): open the address above yourself.\n',
    );
  });
});
