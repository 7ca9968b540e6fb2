// The mch-sync command against the real device: password login, whoami across a refresh, devices, logout.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { DESKTOP_CLIENT_ID } from '../../../../common/wire/identity.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { runMchSync } from '../../../helpers/mch-sync.ts';

let configUrl: string;
const folders: string[] = [];

// Two-second tokens, so a test can outlive one without slowing the others much.
test.override({ deviceOptions: { tokenTtlSeconds: 2 } });

test.beforeAll(async ({ device }) => {
  configUrl = device.running.urls.config;
});

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newProfile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-cli-'));
  folders.push(dir);
  return join(dir, 'profile');
}

function login(profile: string, password = 'alice-password', user = 'alice') {
  return runMchSync(
    ['--profile', profile, 'login', '--config-url', configUrl, '--username', user, '--password-stdin'],
    { input: `${password}\n` },
  );
}

interface StoredSecret {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

function storedTokens(profile: string): StoredSecret {
  const file = JSON.parse(readFileSync(join(profile, 'secrets.json'), 'utf8')) as {
    secrets: Record<string, string>;
  };
  const values = Object.values(file.secrets);
  expect(values).toHaveLength(1);
  return JSON.parse(values[0] ?? '') as StoredSecret;
}

async function refreshWorks(device: TestDevice, refreshToken: string): Promise<boolean> {
  const answer = await fetch(`${device.running.urls.identity}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'refresh_token',
      client_id: DESKTOP_CLIENT_ID,
      refresh_token: refreshToken,
    }),
  });
  return answer.status === 200;
}

describe('mch-sync login with a password', () => {
  it('signs in, keeps the tokens in the profile and remembers the user and device', async ({ device }) => {
    const profile = newProfile();
    const run = await login(profile);
    expect(run.stderr).toContain('MCH_SECRET_STORE=file');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Signed in as alice (auth0|');
    expect(run.stdout).toContain(
      `Device: My Cloud Home (local) (${device.running.context.device.id}) at http://localhost:`,
    );
    const settings = JSON.parse(readFileSync(join(profile, 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({
      configUrl,
      user: { name: 'alice', id: device.running.context.users.byName('alice')?.id },
      secretStore: 'file',
      device: { id: device.running.context.device.id, url: device.base.replace('127.0.0.1', 'localhost') },
    });
    expect(statSync(join(profile, 'settings.json')).mode & 0o777).toBe(0o600);
    expect(storedTokens(profile).refreshToken).toMatch(/./);
  });

  it('fails with exit code 1 and says what to do when the password is wrong', async () => {
    const profile = newProfile();
    const run = await login(profile, 'not-the-password');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/mch-sync: Could not sign in as alice: check the name and password/);
    expect(() => statSync(join(profile, 'settings.json'))).toThrow();
  });

  it('fails with exit code 1 when the configuration service cannot be reached', async () => {
    const profile = newProfile();
    const run = await runMchSync(
      [
        '--profile',
        profile,
        'login',
        '--config-url',
        'http://127.0.0.1:9/config',
        '--username',
        'a',
        '--password-stdin',
      ],
      { input: 'pw' },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/mch-sync: Could not read the configuration/);
  });
});

describe('mch-sync whoami', () => {
  it('shows the user after the access token expired, having refreshed and saved a new one', async () => {
    const profile = newProfile();
    expect((await login(profile)).code).toBe(0);
    const before = storedTokens(profile);
    // Wait out the two-second token, as a user coming back the next day would.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, before.expiresAt - Date.now()) + 200));
    const run = await runMchSync(['--profile', profile, 'whoami', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as {
      user: { name: string };
      tokenExpiresAt: string;
      secretStore: { kind: string };
    };
    expect(shown.user.name).toBe('alice');
    expect(shown.secretStore.kind).toBe('file');
    const after = storedTokens(profile);
    expect(after.accessToken).not.toBe(before.accessToken);
    // The device does not rotate refresh tokens; the one from login is kept.
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(Date.parse(shown.tokenExpiresAt)).toBe(after.expiresAt);
  });

  it('prints a readable summary', async () => {
    const profile = newProfile();
    expect((await login(profile)).code).toBe(0);
    const run = await runMchSync(['--profile', profile, 'whoami']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^user: +alice \(auth0\|[0-9a-f]{24}\)$/m);
    expect(run.stdout).toContain(`config url:    ${configUrl}`);
    expect(run.stdout).toMatch(/^secret store: +file: .*secrets\.json$/m);
    expect(run.stdout).toMatch(/^token expires: +\d{4}-/m);
  });

  it('says to log in when the profile is not signed in', async () => {
    const run = await runMchSync(['--profile', newProfile(), 'whoami']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Not signed in .*run `mch-sync login --config-url URL`/);
  });
});

describe('mch-sync devices', () => {
  it('lists the device with the address that answers, as JSON', async ({ device }) => {
    const profile = newProfile();
    expect((await login(profile, 'bob-password', 'bob')).code).toBe(0);
    const run = await runMchSync(['--profile', profile, 'devices', '--json']);
    expect(run.code).toBe(0);
    const { devices } = JSON.parse(run.stdout) as { devices: Array<Record<string, unknown>> };
    expect(devices).toEqual([
      expect.objectContaining({
        id: device.running.context.device.id,
        name: 'My Cloud Home (local)',
        type: 'nas',
        chosen: true,
        url: device.base.replace('127.0.0.1', 'localhost'),
        via: 'internal',
      }),
    ]);
  });
});

describe('mch-sync logout', () => {
  it('revokes the refresh token, deletes the secrets and forgets the user', async ({ device }) => {
    const profile = newProfile();
    expect((await login(profile)).code).toBe(0);
    const { refreshToken } = storedTokens(profile);
    expect(await refreshWorks(device, refreshToken)).toBe(true);
    const run = await runMchSync(['--profile', profile, 'logout']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Signed out alice');
    expect(await refreshWorks(device, refreshToken)).toBe(false);
    expect(() => statSync(join(profile, 'secrets.json'))).toThrow();
    const settings = JSON.parse(readFileSync(join(profile, 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(settings).toEqual({ version: 1, configUrl });
    const whoami = await runMchSync(['--profile', profile, 'whoami']);
    expect(whoami.code).toBe(1);
    // The configuration URL is remembered, so logging in again needs only the credentials.
    const again = await runMchSync(
      ['--profile', profile, 'login', '--username', 'alice', '--password-stdin'],
      {
        input: 'alice-password',
      },
    );
    expect(again.code).toBe(0);
  });

  it('succeeds and says so when nobody is signed in', async () => {
    const run = await runMchSync(['--profile', newProfile(), 'logout']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Not signed in');
  });
});

describe('usage errors', () => {
  it.each([
    [[], 'No command given.'],
    [['sync-everything'], 'Unknown command "sync-everything"'],
    [['whoami', '--yaml'], "Unknown option '--yaml'"],
    [
      ['login', '--config-url', 'http://127.0.0.1:9/config', '--username', 'alice'],
      '--username needs --password-stdin',
    ],
    [['login', '--config-url', 'not a url'], '--config-url must be an absolute URL'],
    [['login'], '--config-url is needed'],
  ])('exits with 2 for %j', async (args, message) => {
    const run = await runMchSync(['--profile', newProfile(), ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: mch-sync');
  });
});

describe('mch-sync login on a profile that is signed in', () => {
  it('replaces the sign-in: the old refresh token is revoked and only the new user has a stored secret', async ({
    device,
  }) => {
    const profile = newProfile();
    expect((await login(profile)).code).toBe(0);
    const alice = storedTokens(profile);
    expect((await login(profile, 'bob-password', 'bob')).code).toBe(0);
    const bob = storedTokens(profile);
    expect(bob.refreshToken).not.toBe(alice.refreshToken);
    expect(await refreshWorks(device, alice.refreshToken)).toBe(false);
    expect(await refreshWorks(device, bob.refreshToken)).toBe(true);
    const whoami = await runMchSync(['--profile', profile, 'whoami', '--json']);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ user: { name: 'bob' } });
  });
});
