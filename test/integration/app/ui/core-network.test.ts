// The window's core and its network settings (#33): limits set from Settings are the ones `mch-sync limits` reads and the running core applies, a bad rate changes nothing, the profile's proxy is kept as `mch-sync proxy` keeps it (its password only in the secret store) and removed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { InvokeName, InvokeRequest, InvokeResponse } from '../../../../common/contract.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { cliEnv, readAllFiles, runMchSync } from '../../../helpers/mch-sync.ts';

const PROXY_PASSWORD = 'pr0xy-Secret-Words';

let home: string;
let profileDir: string;
let core: UiCore;
const logged: string[] = [];

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

/** `mch-sync --profile <the core's> ARGS --json`, without the machine's proxy variables. */
async function cliJson(args: readonly string[]): Promise<unknown> {
  const env = cliEnv({ HOME: home });
  for (const name of Object.keys(env)) if (/^(https?|all|no)_proxy$/i.test(name)) delete env[name];
  const run = await runMchSync(['--profile', profileDir, ...args, '--json'], { env, timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

function settingsJson(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(profileDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
}

describe('the window core and its network settings', () => {
  test.beforeAll(async ({ device }) => {
    home = mkdtempSync(join(tmpdir(), 'mch-ui-core-network-'));
    profileDir = join(home, 'profile');
    core = await openTestCore(home, { log: (_level, message) => logged.push(message) });
    await signInAlice(core, device);
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  it('sets the limits: settings.json and `mch-sync limits` have them, and the running core applies them', async () => {
    const view = await call('network:setLimits', { up: '2MB/s', down: '1.5MiB/s' });
    expect(view.limits).toEqual({ upBytesPerSec: 2_000_000, downBytesPerSec: 1_572_864 });
    expect(settingsJson()['limits']).toEqual({ upBytesPerSec: 2_000_000, downBytesPerSec: 1_572_864 });
    expect(await cliJson(['limits'])).toEqual({ upBytesPerSec: 2_000_000, downBytesPerSec: 1_572_864 });
    // The core's limits watcher followed the file: nothing to restart.
    await waitFor('the core to apply the limits', () =>
      logged.find((line) => line.startsWith('limits changed:') && line.includes('2.0 MB/s')),
    );

    const off = await call('network:setLimits', { up: 'off', down: '' });
    expect(off.limits).toEqual({ upBytesPerSec: null, downBytesPerSec: null });
    expect(settingsJson()).not.toHaveProperty('limits');
    expect((await call('network:get', {})).limits).toEqual({ upBytesPerSec: null, downBytesPerSec: null });
  });

  it("refuses a bad rate in the command's words and changes neither limit", async () => {
    await call('network:setLimits', { up: '500KB/s', down: 'off' });
    const before = readFileSync(join(profileDir, 'settings.json'), 'utf8');
    await expect(call('network:setLimits', { up: '1MB/s', down: 'fast' })).rejects.toMatchObject({
      code: 'RATE_INVALID',
      title: 'Not a speed',
      message: expect.stringMatching(/^Download limit: "fast" is not a speed: write it as 2MB\/s/) as unknown,
    });
    await expect(call('network:setLimits', { up: '8Mbps', down: 'off' })).rejects.toMatchObject({
      code: 'RATE_INVALID',
      message: expect.stringContaining('may be bits') as unknown,
    });
    expect(readFileSync(join(profileDir, 'settings.json'), 'utf8')).toBe(before);
    expect((await call('network:get', {})).limits).toEqual({ upBytesPerSec: 500_000, downBytesPerSec: null });
  });

  it('keeps the proxy with its user, the password only in the secret store; off removes both', async () => {
    const set = await call('network:setProxy', {
      url: 'http://proxy.example:3128',
      user: 'ann',
      password: PROXY_PASSWORD,
    });
    expect(set.proxy).toEqual({
      url: 'http://proxy.example:3128',
      user: 'ann',
      hasPassword: true,
      source: 'manual',
      effective: 'http://proxy.example:3128',
      noProxy: null,
    });
    expect(settingsJson()['proxy']).toEqual({
      url: 'http://proxy.example:3128',
      user: 'ann',
      passwordStore: 'file',
    });
    const holding = readAllFiles(profileDir).filter((file) => file.text.includes(PROXY_PASSWORD));
    expect(holding.map((file) => file.path)).toEqual([join(profileDir, 'secrets.json')]);
    expect(await cliJson(['proxy', '--show'])).toEqual({
      manual: { url: 'http://proxy.example:3128', user: 'ann', password: true },
      inUse: {
        source: 'settings',
        https: 'http://proxy.example:3128',
        http: 'http://proxy.example:3128',
        noProxy: '',
      },
    });

    // A new address with the password left unchanged keeps the one stored.
    const moved = await call('network:setProxy', { url: 'https://proxy.example:8443', user: 'ann' });
    expect(moved.proxy).toMatchObject({ url: 'https://proxy.example:8443', user: 'ann', hasPassword: true });
    expect(readAllFiles(profileDir).filter((file) => file.text.includes(PROXY_PASSWORD))).toHaveLength(1);

    const off = await call('network:setProxy', { url: null, user: null, password: null });
    expect(off.proxy).toEqual({
      url: null,
      user: null,
      hasPassword: false,
      source: 'none',
      effective: null,
      noProxy: null,
    });
    expect(settingsJson()).not.toHaveProperty('proxy');
    expect(readAllFiles(profileDir).filter((file) => file.text.includes(PROXY_PASSWORD))).toEqual([]);
    expect(await cliJson(['proxy', '--show'])).toEqual({ manual: null, inUse: null });
  });

  it('refuses a proxy the command refuses, and changes nothing', async () => {
    await call('network:setProxy', { url: 'http://proxy.example:3128', user: null, password: null });
    const before = readFileSync(join(profileDir, 'settings.json'), 'utf8');
    await expect(
      call('network:setProxy', { url: 'socks5://proxy.example:1080', user: null, password: null }),
    ).rejects.toMatchObject({ code: 'PROXY_INVALID' });
    await expect(
      call('network:setProxy', { url: 'http://:3128', user: null, password: null }),
    ).rejects.toMatchObject({ code: 'PROXY_INVALID' });
    await expect(
      call('network:setProxy', { url: 'http://proxy.example:3128', user: null, password: 'lonely' }),
    ).rejects.toMatchObject({
      code: 'PROXY_INVALID',
      message: expect.stringContaining('user name') as unknown,
    });
    expect(readFileSync(join(profileDir, 'settings.json'), 'utf8')).toBe(before);
    expect((await call('network:get', {})).proxy).toMatchObject({
      url: 'http://proxy.example:3128',
      user: null,
    });
  });
});
