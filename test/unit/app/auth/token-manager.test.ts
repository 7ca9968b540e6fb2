// The token manager's rules: refresh before expiry, one refresh for concurrent callers, keep the refresh token.
import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../../../../app/api/cloud/identity-client.ts';
import { SignInRequiredError } from '../../../../app/auth/auth-errors.ts';
import type { SecretStore } from '../../../../app/auth/secrets/secret-store.ts';
import { storedTokensFrom, TokenManager, type TokenRefresher } from '../../../../app/auth/token-manager.ts';
import { TokenVault, type StoredTokens } from '../../../../app/auth/token-vault.ts';
import { AuthError, NetworkError } from '../../../../common/errors.ts';

class MemoryStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location = 'memory';
  readonly secrets = new Map<string, string>();
  async get(account: string) {
    return this.secrets.get(account);
  }
  async set(account: string, secret: string) {
    this.secrets.set(account, secret);
  }
  async delete(account: string) {
    this.secrets.delete(account);
  }
}

const HOUR = 3_600_000;

/** A refresher that answers with access-1, access-2, ... and counts its calls. */
class CountingRefresher implements TokenRefresher {
  calls: Array<{ refreshToken: string }> = [];
  failure: Error | undefined;
  refreshTokenInAnswer: string | undefined;
  release: (() => void) | undefined;
  #gate: Promise<void> | undefined;
  readonly clock: { now: number };
  constructor(clock: { now: number }) {
    this.clock = clock;
  }
  hold(): void {
    this.#gate = new Promise((resolve) => (this.release = resolve));
  }
  async refresh(request: { refreshToken: string }): Promise<TokenSet> {
    this.calls.push(request);
    await this.#gate;
    if (this.failure) throw this.failure;
    return {
      accessToken: `access-${this.calls.length}`,
      ...(this.refreshTokenInAnswer === undefined ? {} : { refreshToken: this.refreshTokenInAnswer }),
      expiresAt: this.clock.now + 24 * HOUR,
      scope: 'openid offline_access',
    };
  }
}

async function setup(tokens: Partial<StoredTokens> = {}) {
  const clock = { now: 1_000_000_000_000 };
  const store = new MemoryStore();
  const vault = new TokenVault(store, 'alice');
  await vault.save({
    accessToken: 'access-0',
    refreshToken: 'refresh-0',
    obtainedAt: clock.now,
    expiresAt: clock.now + 24 * HOUR,
    scope: 'openid offline_access',
    ...tokens,
  });
  const identity = new CountingRefresher(clock);
  const manager = new TokenManager({ identity, vault, now: () => clock.now });
  return { clock, store, vault, identity, manager };
}

describe('TokenManager', () => {
  it('hands out the stored token while it has more than a minute left', async () => {
    const { clock, identity, manager } = await setup();
    clock.now += 24 * HOUR - 61_000;
    expect(await manager.accessToken()).toBe('access-0');
    expect(identity.calls).toEqual([]);
  });

  it('refreshes within the last minute and saves the new token with the old refresh token', async () => {
    const { clock, identity, manager, vault } = await setup();
    clock.now += 24 * HOUR - 59_000;
    expect(await manager.accessToken()).toBe('access-1');
    expect(identity.calls).toEqual([{ refreshToken: 'refresh-0' }]);
    expect(await vault.load()).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-0',
      obtainedAt: clock.now,
      expiresAt: clock.now + 24 * HOUR,
      scope: 'openid offline_access',
    });
  });

  it('refreshes short-lived tokens at 90 % of their life', async () => {
    const { clock, identity, manager } = await setup({ expiresAt: 1_000_000_000_000 + 10_000 });
    clock.now += 8_900;
    expect(await manager.accessToken()).toBe('access-0');
    clock.now += 200;
    expect(await manager.accessToken()).toBe('access-1');
    expect(identity.calls).toHaveLength(1);
  });

  it('takes a new refresh token when the answer has one', async () => {
    const { clock, identity, manager, vault } = await setup();
    identity.refreshTokenInAnswer = 'refresh-rotated';
    clock.now += 25 * HOUR;
    await manager.accessToken();
    expect((await vault.load())?.refreshToken).toBe('refresh-rotated');
  });

  it('lets concurrent callers share one refresh', async () => {
    const { clock, identity, manager } = await setup();
    clock.now += 25 * HOUR;
    identity.hold();
    const tokens = Promise.all([
      manager.accessToken(),
      manager.accessToken(),
      manager.refreshAfterUnauthorized('access-0'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    identity.release?.();
    expect(await tokens).toEqual(['access-1', 'access-1', 'access-1']);
    expect(identity.calls).toHaveLength(1);
  });

  it('refreshes after a 401 even before expiry, but not for a token already replaced', async () => {
    const { identity, manager } = await setup();
    expect(await manager.refreshAfterUnauthorized('access-0')).toBe('access-1');
    // A request that still carried access-0 gets the newer token without another refresh.
    expect(await manager.refreshAfterUnauthorized('access-0')).toBe('access-1');
    expect(identity.calls).toHaveLength(1);
  });

  it('uses a token another process refreshed meanwhile instead of refreshing again', async () => {
    const { clock, identity, manager, vault } = await setup();
    expect(await manager.accessToken()).toBe('access-0');
    clock.now += 25 * HOUR;
    await vault.save(
      storedTokensFrom({ accessToken: 'from-tray-app', expiresAt: clock.now + HOUR, scope: '' }, clock.now, {
        accessToken: 'access-0',
        refreshToken: 'refresh-0',
        expiresAt: 0,
        obtainedAt: 0,
        scope: '',
      }),
    );
    expect(await manager.accessToken()).toBe('from-tray-app');
    expect(identity.calls).toEqual([]);
  });

  it('turns a refused refresh token into SIGN_IN_REQUIRED saying to run mch-sync login', async () => {
    const { clock, identity, manager } = await setup();
    identity.failure = new AuthError('AUTH_REQUIRED', 'invalid_grant', { label: 'invalid_grant' });
    clock.now += 25 * HOUR;
    const failure = await manager.accessToken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignInRequiredError);
    expect(failure).toMatchObject({ code: 'SIGN_IN_REQUIRED', title: 'Sign-in needed' });
    expect((failure as Error).message).toContain('run `mch-sync login`');
  });

  it('passes a network failure on as it is, so callers retry later', async () => {
    const { clock, identity, manager } = await setup();
    identity.failure = new NetworkError('NETWORK', 'connect ECONNREFUSED');
    clock.now += 25 * HOUR;
    await expect(manager.accessToken()).rejects.toMatchObject({ code: 'NETWORK' });
    // The next call tries again rather than remembering the failure.
    identity.failure = undefined;
    expect(await manager.accessToken()).toBe('access-2');
  });

  it('asks for a sign-in when nothing is stored, or when an expired token has no refresh token', async () => {
    const empty = new TokenManager({
      identity: new CountingRefresher({ now: 0 }),
      vault: new TokenVault(new MemoryStore(), 'nobody'),
      signInAdvice: 'sign in from the tray menu',
    });
    await expect(empty.accessToken()).rejects.toThrow(
      'No sign-in is stored in memory: sign in from the tray menu.',
    );
    const { clock, vault, identity } = await setup();
    const { refreshToken: _dropped, ...withoutRefresh } = (await vault.load()) as StoredTokens;
    await vault.save(withoutRefresh);
    const manager = new TokenManager({ identity, vault, now: () => clock.now });
    clock.now += 25 * HOUR;
    await expect(manager.accessToken()).rejects.toMatchObject({ code: 'SIGN_IN_REQUIRED' });
  });

  it('asks for a sign-in when the stored entry is damaged, without quoting it', async () => {
    const { store, manager } = await setup();
    store.secrets.set('alice', 'secret-looking-garbage');
    const failure = (await manager.accessToken().catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'SIGN_IN_REQUIRED' });
    expect(failure.message).not.toContain('secret-looking-garbage');
  });
});
