// Every request of mch-sync through a real proxy (Debian's tinyproxy): the environment's, NO_PROXY, and the profile's own with a password.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { cliEnv, readAllFiles, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import {
  folderNumbering,
  signedInProfile,
  type SignedInProfile,
} from '../../../helpers/signed-in-profile.ts';
import { hasTinyproxy, startTinyproxy, type TinyProxy } from '../../../helpers/tinyproxy.ts';

const localFolder = folderNumbering();

const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'ALL_PROXY',
  'all_proxy',
  'NO_PROXY',
  'no_proxy',
];

/** The environment of a command: the profile's, without the machine's own proxy variables, plus `env`. */
function commandEnv(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = { ...base };
  for (const name of PROXY_VARIABLES) delete clean[name];
  return { ...clean, ...env };
}

function mchSync(
  profile: SignedInProfile,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input = '',
): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], {
    env: commandEnv(profile.env, env),
    input,
    timeoutMs: 60_000,
  });
}

/** The requests tinyproxy logged since `before` that went to the device (its record names it localhost). */
function deviceRequests(proxy: TinyProxy, base: string, before: number): string[] {
  const port = new URL(base).port;
  return proxy
    .requests()
    .slice(before)
    .filter((line) => new RegExp(`^[A-Z]+ http://(localhost|127\\.0\\.0\\.1):${port}/`).test(line));
}

describe.skipIf(!hasTinyproxy())('mch-sync through a proxy (tinyproxy)', () => {
  let open: TinyProxy;
  let guarded: TinyProxy;
  beforeAll(async () => {
    open = await startTinyproxy();
    guarded = await startTinyproxy({ basicAuth: { user: 'bob', password: 'proxy-secret' } });
  });
  afterAll(async () => {
    await open?.stop();
    await guarded?.stop();
  });

  it('run --once up and down, status and share go through HTTP_PROXY, as its log shows', async ({
    device,
    profile,
  }) => {
    const env = { HTTP_PROXY: open.url };
    const before = open.requests().length;
    const up = localFolder(profile.home, 'Proxied', { 'a.txt': 'alpha', 'sub/b.txt': 'beta' });
    const first = await mchSync(profile, ['run', '--folder', up, '--once'], env);
    expect(first.stderr, first.stdout).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^uploaded: +2 \(/m);

    // Down: another computer (a second profile) syncs the device folder through the proxy too.
    const other = await signedInProfile(device, 'mch-proxy-other-');
    const down = localFolder(other.home, 'ProxiedCopy');
    try {
      const second = await mchSync(
        other,
        ['run', '--folder', down, '--remote-folder', '/Proxied', '--once'],
        env,
      );
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(readFileSync(join(down, 'a.txt'), 'utf8')).toBe('alpha');
      expect(readFileSync(join(down, 'sub', 'b.txt'), 'utf8')).toBe('beta');
    } finally {
      other.remove();
    }

    const status = await mchSync(profile, ['status', '--folder', up], env);
    expect(status.code, status.stdout + status.stderr).toBe(0);
    const share = await mchSync(profile, ['share', join(up, 'a.txt')], env);
    expect(share.stderr, share.stdout).toBe('');
    expect(share.code).toBe(0);
    expect(share.stdout).toMatch(/https?:\/\//);

    // Absolute-form requests to the device's address: the uploads, the listings and the downloads.
    const carried = deviceRequests(open, device.base, before);
    expect(carried.some((line) => /^POST \S+\/sdk\/v2\/files /.test(line))).toBe(true);
    expect(carried.some((line) => /^GET \S+\/sdk\/v2\/files\/[^/]+\/content/.test(line))).toBe(true);
    // The share service is asked through the proxy as well.
    expect(carried.some((line) => /share/i.test(line))).toBe(true);
  });

  it('signs in through the proxy: configuration, identity and device lookup', async ({ device }) => {
    const home = mkdtempSync(join(tmpdir(), 'mch-proxy-login-'));
    try {
      const before = open.requests().length;
      const env = commandEnv(cliEnv({ HOME: home }), { HTTP_PROXY: open.url });
      const login = await runMchSync(
        [
          '--profile',
          join(home, 'profile'),
          'login',
          '--config-url',
          device.running.urls.config,
          '--username',
          'alice',
          '--password-stdin',
        ],
        { input: 'alice-password\n', env, timeoutMs: 60_000 },
      );
      expect(login.code, login.stderr).toBe(0);
      const paths = open
        .requests()
        .slice(before)
        .map((line) => new URL(line.split(' ')[1] as string).pathname);
      expect(paths).toContain(new URL(device.running.urls.config).pathname);
      expect(paths.some((path) => path.includes('token'))).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('leaves the proxy out for the hosts NO_PROXY names', async ({ device, profile }) => {
    const before = open.requests().length;
    const folder = localFolder(profile.home, 'Direct', { 'c.txt': 'gamma' });
    const env = { HTTP_PROXY: open.url, HTTPS_PROXY: open.url, NO_PROXY: 'localhost,127.0.0.1' };
    const result = await mchSync(profile, ['run', '--folder', folder, '--once'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^uploaded: +1 \(/m);
    expect(deviceRequests(open, device.base, before)).toEqual([]);
  });

  it('uses the profile proxy with its user and password, kept out of settings and output', async ({
    device,
    profile,
  }) => {
    const set = await mchSync(
      profile,
      ['proxy', '--set', guarded.url, '--user', 'bob', '--password-stdin'],
      {},
      'proxy-secret\n',
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(`profile's proxy: ${guarded.url} (user bob, password in the secrets file)`);
    expect(set.stdout).toContain('source: settings');
    expect(set.stdout).not.toContain('proxy-secret');
    expect(readFileSync(join(profile.profile, 'settings.json'), 'utf8')).not.toContain('proxy-secret');

    const before = guarded.requests().length;
    const folder = localFolder(profile.home, 'Guarded', { 'd.txt': 'delta' });
    // The profile's proxy wins over the environment's.
    const result = await mchSync(profile, ['run', '--folder', folder, '--once'], { HTTP_PROXY: open.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(
      deviceRequests(guarded, device.base, before).length,
      guarded.requests().join('\n') + device.base,
    ).toBeGreaterThan(0);

    const show = await mchSync(profile, ['proxy', '--show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      manual: { url: guarded.url, user: 'bob', password: true },
      inUse: { source: 'settings', http: guarded.url, https: guarded.url },
    });
    for (const file of readAllFiles(profile.profile)) {
      if (!file.path.endsWith('secrets.json')) expect(file.text).not.toContain('proxy-secret');
    }

    const off = await mchSync(profile, ['proxy', '--off']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('proxy: none');
    const secrets = join(profile.profile, 'secrets.json');
    if (existsSync(secrets)) expect(readFileSync(secrets, 'utf8')).not.toContain('proxy-secret');
  });

  it('says the proxy refused its password, naming the proxy and not the password', async ({ profile }) => {
    const set = await mchSync(
      profile,
      ['proxy', '--set', guarded.url, '--user', 'bob', '--password-stdin'],
      {},
      'wrong-one\n',
    );
    expect(set.code).toBe(0);
    try {
      const folder = localFolder(profile.home, 'Refused', { 'e.txt': 'epsilon' });
      const result = await mchSync(profile, ['run', '--folder', folder, '--once']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the proxy ${guarded.url} refused its user name and password`);
      expect(result.stderr).not.toContain('wrong-one');
    } finally {
      await mchSync(profile, ['proxy', '--off']);
    }
  });

  it('refuses a proxy URL without host, another scheme or a bad port (exit 2), changing nothing', async ({
    profile,
  }) => {
    const settings = join(profile.profile, 'settings.json');
    const was = readFileSync(settings, 'utf8');
    const cases: Array<[string, RegExp]> = [
      ['http://:3128', /has no host/],
      ['socks5://127.0.0.1:1080', /only http:\/\/ and https:\/\/ proxies/],
      ['http://127.0.0.1:99999', /bad port/],
      ['http://127.0.0.1:0', /bad port/],
      ['127.0.0.1:3128', /has no scheme/],
      ['http://127.0.0.1:3128/path', /has a path/],
    ];
    for (const [url, message] of cases) {
      const result = await mchSync(profile, ['proxy', '--set', url]);
      expect(result.code, url).toBe(2);
      expect(result.stderr, url).toMatch(message);
      expect(readFileSync(settings, 'utf8')).toBe(was);
    }
    const both = await mchSync(profile, ['proxy', '--set', open.url, '--off']);
    expect(both.code).toBe(2);
    const userAlone = await mchSync(profile, ['proxy', '--user', 'bob']);
    expect(userAlone.code).toBe(2);
    expect(readFileSync(settings, 'utf8')).toBe(was);
  });

  it('names a proxy that cannot be reached', async ({ profile }) => {
    const folder = localFolder(profile.home, 'NoProxyThere', { 'g.txt': 'gamma' });
    const gone = await startTinyproxy();
    await gone.stop();
    const result = await mchSync(profile, ['run', '--folder', folder, '--once'], { HTTP_PROXY: gone.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the proxy ${gone.url} cannot be reached`);
  });

  it('fails clearly on a proxy variable that is not usable, before any request', async ({ profile }) => {
    const folder = localFolder(profile.home, 'BadVariable', { 'f.txt': 'phi' });
    const result = await mchSync(profile, ['run', '--folder', folder, '--once'], {
      HTTP_PROXY: 'socks5://127.0.0.1:1',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP_PROXY "socks5://127.0.0.1:1" is a socks5 proxy');
  });
});
