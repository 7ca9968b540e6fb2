// Tokens on the wire: one refresh after a 401 then one retry, and tokens only where they are safe.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { AuthError } from '../../../../common/errors.ts';
import { DeviceClient } from '../../../../app/api/device-client.ts';
import { IdentityClient } from '../../../../app/api/cloud/identity-client.ts';
import { Transport, type AccessTokenProvider } from '../../../../app/api/http/transport.ts';
import { FAST_RETRY } from '../../../helpers/api-client.ts';
import { startTestDevice } from '../../../helpers/device.ts';
import { startHostileServer, type HostileServer } from '../../../helpers/hostile-server.ts';

/** Hands out `first`, then on refresh `next` (recording what was rejected). */
function provider(first: string, next: () => string): AccessTokenProvider & { rejected: string[] } {
  const rejected: string[] = [];
  let current = first;
  return {
    rejected,
    accessToken: async () => current,
    refreshAfterUnauthorized: async (token) => {
      rejected.push(token);
      current = next();
      return current;
    },
  };
}

function clientWith(
  tokens: AccessTokenProvider,
  deviceUrl: string,
): { api: DeviceClient; statuses: (number | undefined)[] } {
  const statuses: (number | undefined)[] = [];
  const transport = new Transport({ tokens, retry: FAST_RETRY, log: (entry) => statuses.push(entry.status) });
  return { api: new DeviceClient({ deviceUrl, transport }), statuses };
}

describe('refresh on 401', () => {
  it('refreshes once after a 401 and retries with the new token', async ({ device }) => {
    const tokens = provider('not-a-valid-token', () => device.tokenFor('alice'));
    const { api, statuses } = clientWith(tokens, device.base);
    expect((await api.getFile('root')).isFolder).toBe(true);
    expect(tokens.rejected).toEqual(['not-a-valid-token']);
    expect(statuses).toEqual([401, 200]);
  });

  it('re-sends a create body after the refresh, creating the file once', async ({ device }) => {
    const tokens = provider('stale', () => device.tokenFor('alice'));
    const { api, statuses } = clientWith(tokens, device.base);
    const created = await api.create({ name: 'after-refresh.txt', content: Buffer.from('body survives') });
    expect(statuses).toEqual([401, 201]);
    expect((await api.getFile(created.id)).size).toBe('body survives'.length);
  });

  it('gives up with AUTH_REQUIRED when the refreshed token is refused too, after one refresh', async ({
    device,
  }) => {
    const tokens = provider('bad-1', () => 'bad-2');
    const { api, statuses } = clientWith(tokens, device.base);
    await expect(api.getFile('root')).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(tokens.rejected).toEqual(['bad-1']);
    expect(statuses).toEqual([401, 401]);
  });

  it('passes on the typed error of a refresh that cannot happen', async ({ device }) => {
    const failing: AccessTokenProvider = {
      accessToken: async () => 'stale',
      refreshAfterUnauthorized: async () => {
        throw new AuthError('AUTH_REQUIRED', 'The refresh token was revoked: sign in again.');
      },
    };
    await expect(clientWith(failing, device.base).api.getFile('root')).rejects.toMatchObject({
      code: 'AUTH_REQUIRED',
      message: 'The refresh token was revoked: sign in again.',
    });
  });

  it('renews a really expired token through the identity provider', async () => {
    const shortLived = await startTestDevice({ tokenTtlSeconds: 1 });
    try {
      const identity = new IdentityClient({ identityUrl: `${shortLived.base}/identity` });
      let tokens = await identity.passwordGrant({
        username: 'alice',
        password: 'alice-password',
        scope: 'openid offline_access nas_read_write',
      });
      const refreshToken = tokens.refreshToken ?? '';
      const manager: AccessTokenProvider = {
        accessToken: async () => tokens.accessToken,
        refreshAfterUnauthorized: async () => {
          tokens = await identity.refresh({ refreshToken });
          return tokens.accessToken;
        },
      };
      const first = tokens.accessToken;
      await sleep(2100);
      const { api, statuses } = clientWith(manager, shortLived.base);
      expect((await api.getFile('root')).name).toBe('');
      expect(statuses).toEqual([401, 200]);
      expect(tokens.accessToken).not.toBe(first);
    } finally {
      await shortLived.stop();
    }
  });

  it('does not refresh an explicitly given token (userinfo): AUTH_REQUIRED at once', async ({ device }) => {
    const identity = new IdentityClient({ identityUrl: `${device.base}/identity` });
    await expect(identity.userInfo('garbage')).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
  });
});

describe('tokens only over TLS, except to loopback', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer((_request, response) => response.end('{}'));
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses to send a token to a plain-http host that is not loopback, before connecting', async () => {
    const tokens = provider('secret-token', () => 'secret-token');
    const { api } = clientWith(tokens, 'http://files.example.com:8080');
    await expect(api.getFile('root')).rejects.toMatchObject({ code: 'INSECURE_URL' });
    const identity = new IdentityClient({ identityUrl: 'http://login.example.com' });
    await expect(identity.passwordGrant({ username: 'a', password: 'b' })).rejects.toMatchObject({
      code: 'INSECURE_URL',
    });
    await expect(identity.userInfo('secret-token')).rejects.toMatchObject({ code: 'INSECURE_URL' });
  });

  it('sends the token over plain http to 127.0.0.1 and localhost', async () => {
    const tokens = provider('loopback-token', () => 'loopback-token');
    for (const host of ['127.0.0.1', 'localhost']) {
      const url = server.base.replace('127.0.0.1', host);
      await clientWith(tokens, url)
        .api.getFile('root')
        .catch(() => undefined);
    }
    expect(server.requests.map((request) => request.headers['authorization'])).toEqual([
      'Bearer loopback-token',
      'Bearer loopback-token',
    ]);
  });
});
