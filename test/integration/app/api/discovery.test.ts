// The configuration, identity and device lookup clients against the real local device.
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { ConfigClient } from '../../../../app/api/cloud/config-client.ts';
import { DeviceLookup } from '../../../../app/api/cloud/device-lookup.ts';
import { IdentityClient } from '../../../../app/api/cloud/identity-client.ts';
import { Transport, type AccessTokenProvider } from '../../../../app/api/http/transport.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { startHostileServer } from '../../../helpers/hostile-server.ts';

function fixedTokens(token: string): AccessTokenProvider {
  return { accessToken: async () => token, refreshAfterUnauthorized: async () => token };
}

describe('ConfigClient', () => {
  it('reads the service URLs from a base URL or the full endpoint', async ({ device }) => {
    const fromBase = await new ConfigClient({ configUrl: device.base }).serviceUrls();
    const fromEndpoint = await new ConfigClient({
      configUrl: `${device.base}/config/v1/config`,
    }).serviceUrls();
    expect(fromBase).toEqual(fromEndpoint);
    expect(fromBase.identity).toBe(`${device.base}/identity`);
    expect(fromBase.device).toBe(`${device.base}/cloud`);
    expect(fromBase.share).toBe(`${device.base}/cloud`);
  });

  it('revalidates with If-None-Match and reuses the cached answer on 304', async ({ device }) => {
    const statuses: (number | undefined)[] = [];
    const transport = new Transport({ log: (entry) => statuses.push(entry.status) });
    const client = new ConfigClient({ configUrl: device.base, transport });
    const first = await client.serviceUrls();
    const second = await client.serviceUrls();
    expect(second).toEqual(first);
    expect(statuses).toEqual([200, 304]);
  });
});

describe('IdentityClient', () => {
  const identity = (device: TestDevice): IdentityClient =>
    new IdentityClient({ identityUrl: `${device.base}/identity` });

  it('signs in with a password, reads userinfo, refreshes and revokes', async ({ device }) => {
    const client = identity(device);
    const tokens = await client.passwordGrant({
      username: 'alice',
      password: 'alice-password',
      scope: 'openid email profile offline_access nas_read_write',
    });
    expect(tokens.refreshToken).toBeDefined();
    expect(tokens.expiresAt).toBeGreaterThan(Date.now());
    const info = await client.userInfo(tokens.accessToken);
    expect(info.sub).toMatch(/^auth0\|[0-9a-f]{24}$/);
    const renewed = await client.refresh({ refreshToken: tokens.refreshToken ?? '' });
    expect(renewed.accessToken).not.toBe('');
    expect(renewed.refreshToken).toBeUndefined();
    await client.revoke({ token: tokens.refreshToken ?? '' });
    await expect(client.refresh({ refreshToken: tokens.refreshToken ?? '' })).rejects.toMatchObject({
      code: 'AUTH_REQUIRED',
    });
  });

  it('reports a wrong password as AUTH_INVALID_CREDENTIALS', async ({ device }) => {
    await expect(
      identity(device).passwordGrant({ username: 'alice', password: 'nope' }),
    ).rejects.toMatchObject({
      code: 'AUTH_INVALID_CREDENTIALS',
    });
  });

  it('builds an authorize URL with PKCE S256', ({ device }) => {
    const url = new URL(
      identity(device).authorizeUrl({
        redirectUri: 'http://127.0.0.1:5555/callback',
        scope: 'openid offline_access',
        state: 's1',
        codeChallenge: 'c1',
      }),
    );
    expect(url.pathname).toBe('/identity/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'mch-desktop',
      redirect_uri: 'http://127.0.0.1:5555/callback',
      scope: 'openid offline_access',
      state: 's1',
      code_challenge: 'c1',
      code_challenge_method: 'S256',
    });
  });
});

describe('DeviceLookup', () => {
  it('lists the user’s device and chooses its internal address', async ({ device }) => {
    const urls = await new ConfigClient({ configUrl: device.base }).serviceUrls();
    const token = device.tokenFor('alice');
    const transport = new Transport({ tokens: fixedTokens(token) });
    const info = await new IdentityClient({ identityUrl: urls.identity }).userInfo(token);
    const lookup = new DeviceLookup({ deviceServiceUrl: urls.device, transport });
    const [record] = await lookup.listDevices(info.sub);
    expect(record?.deviceId).toBe(device.running.context.device.id);
    const chosen = await lookup.chooseDeviceUrl(record!);
    expect(chosen.via).toBe('internal');
    expect(chosen.url).toMatch(/^http:\/\/localhost:\d+$/);
  });

  it('falls back to the relay when the home address does not answer in time, or is not a device', async ({
    device,
  }) => {
    const hanging = await startHostileServer(() => undefined);
    const portal = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>captive portal</html>');
    });
    try {
      const transport = new Transport({ tokens: fixedTokens(device.tokenFor('alice')) });
      const lookup = new DeviceLookup({
        deviceServiceUrl: `${device.base}/cloud`,
        transport,
        probeTimeoutMs: 300,
      });
      const deviceId = device.running.context.device.id;
      const proxyURL = `${device.base}/proxy/${deviceId}`;
      for (const home of [hanging.base, portal.base]) {
        const network = {
          internalDNSName: new URL(home).host,
          internalURL: home,
          proxyURL,
          externalURI: proxyURL,
        };
        expect(await lookup.chooseDeviceUrl({ deviceId, network })).toEqual({ url: proxyURL, via: 'proxy' });
      }
    } finally {
      await hanging.close();
      await portal.close();
    }
  });

  it('uses a pinned URL as is, and says DEVICE_UNREACHABLE when nothing answers', async ({ device }) => {
    const transport = new Transport({ tokens: fixedTokens(device.tokenFor('alice')) });
    const lookup = new DeviceLookup({
      deviceServiceUrl: `${device.base}/cloud`,
      transport,
      probeTimeoutMs: 300,
    });
    const network = {
      internalDNSName: '127.0.0.1:1',
      internalURL: '',
      proxyURL: 'not a url',
      externalURI: '',
    };
    expect(
      await lookup.chooseDeviceUrl({ deviceId: 'd', network }, { pinnedUrl: 'https://nas.example/' }),
    ).toEqual({
      url: 'https://nas.example',
      via: 'pinned',
    });
    await expect(lookup.chooseDeviceUrl({ deviceId: 'd', network })).rejects.toMatchObject({
      code: 'DEVICE_UNREACHABLE',
    });
  });

  it('refuses another user’s id with FORBIDDEN', async ({ device }) => {
    const transport = new Transport({ tokens: fixedTokens(device.tokenFor('alice')) });
    const lookup = new DeviceLookup({ deviceServiceUrl: `${device.base}/cloud`, transport });
    const bob = device.running.context.users.byName('bob');
    await expect(lookup.listDevices(bob?.id ?? '')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
