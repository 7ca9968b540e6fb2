// The token manager against the real identity provider: one shared refresh, refresh after a 401, revoked sign-ins.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { Transport, type ApiLogEntry } from '../../../../app/api/http/transport.ts';
import { login } from '../../../../app/auth/login.ts';
import { Session, type AuthEnvironment } from '../../../../app/auth/session.ts';
import { tokenAccount, TokenVault } from '../../../../app/auth/token-vault.ts';
import { DESKTOP_CLIENT_ID } from '../../../../common/wire/identity.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { MemoryKeychain } from '../../../helpers/mch-sync.ts';

const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A signed-in profile whose requests are logged, so a test can count the token requests. */
async function signedIn(device: TestDevice) {
  const profileDir = mkdtempSync(join(tmpdir(), 'mch-sync-refresh-'));
  folders.push(profileDir);
  const log: ApiLogEntry[] = [];
  const warnings: string[] = [];
  const environment: AuthEnvironment = {
    profileDir,
    env: {},
    keychain: new MemoryKeychain(),
    transport: new Transport({ log: (entry) => log.push(entry) }),
    warn: (message) => warnings.push(message),
  };
  const result = await login(environment, {
    configUrl: device.running.urls.config,
    method: { kind: 'password', username: 'alice', password: 'alice-password' },
  });
  const session = await Session.open(environment);
  const vault = new TokenVault(session.store, tokenAccount(profileDir, result.user.id));
  const tokenRequests = (): number =>
    log.filter((entry) => entry.message === 'answer' && entry.request.endsWith('/identity/oauth/token'))
      .length;
  return { environment, session, vault, tokenRequests, warnings };
}

describe('the token manager', () => {
  it('refreshes an expired token once for many callers at the same moment, and saves it', async ({
    device,
  }) => {
    const { session, vault, tokenRequests } = await signedIn(device);
    const stored = await vault.load();
    if (!stored) throw new Error('no tokens after login');
    // Written as another process would find it the next day: expired.
    await vault.save({ ...stored, expiresAt: Date.now() - 1000, obtainedAt: Date.now() - 86_401_000 });
    const before = tokenRequests();
    const lookup = await session.deviceLookup();
    const lists = await Promise.all(
      Array.from({ length: 5 }, () => lookup.listDevices(session.settings.user.id)),
    );
    expect(lists.map((devices) => devices.length)).toEqual([1, 1, 1, 1, 1]);
    expect(tokenRequests() - before).toBe(1);
    const saved = await vault.load();
    // (The new access token may equal the old one: same claims within the same second.)
    expect(saved?.refreshToken).toBe(stored.refreshToken);
    expect(saved?.expiresAt).toBeGreaterThan(Date.now());
  });

  it('refreshes once when the device refuses a token that looked valid', async ({ device }) => {
    const { session, vault, tokenRequests } = await signedIn(device);
    const stored = await vault.load();
    if (!stored) throw new Error('no tokens after login');
    await vault.save({ ...stored, accessToken: 'refused.by.device' });
    const before = tokenRequests();
    const lookup = await session.deviceLookup();
    expect(await lookup.listDevices(session.settings.user.id)).toHaveLength(1);
    expect(tokenRequests() - before).toBe(1);
    expect((await vault.load())?.accessToken).not.toBe('refused.by.device');
  });

  it('asks to sign in again when the refresh token was revoked', async ({ device }) => {
    const { session, vault } = await signedIn(device);
    const stored = await vault.load();
    if (!stored?.refreshToken) throw new Error('no refresh token after login');
    const revoked = await fetch(`${device.running.urls.identity}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: DESKTOP_CLIENT_ID, token: stored.refreshToken }),
    });
    expect(revoked.status).toBe(200);
    await vault.save({ ...stored, expiresAt: Date.now() - 1000 });
    const failure = await session.userInfo().catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'SIGN_IN_REQUIRED',
      message:
        'The sign-in is no longer valid (it was signed out elsewhere or revoked): run `mch-sync login`.',
    });
  });
});
