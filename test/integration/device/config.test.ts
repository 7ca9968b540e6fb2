// The configuration service at {config_url}/config/v1/config (interface.md "Configuration", device-api.md §5).
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { Configuration, Wrapped } from '../../../common/wire/cloud.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);
const ANY_NUMBER: unknown = expect.any(Number);

const SERVICE_KEYS = [
  'service.device.url',
  'service.share.url',
  'service.identity.url',
  'service.auth0.url',
  'service.auth.url',
  'service.client.url',
];

function getConfig(device: TestDevice, query = '', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${device.base}/config/v1/config${query}`, { headers });
}

describe('GET /config/v1/config', () => {
  it('answers 200 with {data: Configuration, error: null} and needs no token', async ({ device }) => {
    const response = await getConfig(device);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Wrapped<Configuration>;
    expect(body.error).toBeNull();
    expect(body.data).toMatchObject({
      configurationId: ANY_STRING,
      name: ANY_STRING,
      modelId: ANY_STRING,
      modifiedOn: ANY_NUMBER,
      createdOn: ANY_NUMBER,
    });
  });

  it('is the URL the device advertises as its configuration endpoint', ({ device }) => {
    expect(device.running.urls.config).toBe(`${device.base}/config/v1/config`);
  });

  it('publishes every service URL, each an absolute URL under the device base', async ({ device }) => {
    const body = (await (await getConfig(device)).json()) as Wrapped<Configuration>;
    const urls: Record<string, string> = body.data?.componentMap['cloud.service.urls'] ?? {};
    for (const key of SERVICE_KEYS) {
      expect(urls[key], key).toEqual(ANY_STRING);
      expect(urls[key]?.startsWith(`${device.base}/`), `${key} = ${urls[key]}`).toBe(true);
    }
  });

  it('publishes the identity provider under both identity and auth0 keys', async ({ device }) => {
    const body = (await (await getConfig(device)).json()) as Wrapped<Configuration>;
    const urls = body.data?.componentMap['cloud.service.urls'];
    expect(urls?.['service.identity.url']).toBe(urls?.['service.auth0.url']);
    expect(urls?.['service.identity.url']).toBe(device.running.urls.identity);
  });

  it('publishes a device lookup URL that answers', async ({ device }) => {
    const body = (await (await getConfig(device)).json()) as Wrapped<Configuration>;
    const deviceUrl = body.data?.componentMap['cloud.service.urls']['service.device.url'] ?? '';
    const userId = device.running.context.users.byName('alice')?.id ?? '';
    const response = await fetch(`${deviceUrl}/device/v1/user/${encodeURIComponent(userId)}`, {
      headers: { authorization: `Bearer ${device.tokenFor('alice')}` },
    });
    expect(response.status).toBe(200);
  });

  it('sends an ETag, and 304 without a body for If-None-Match with it', async ({ device }) => {
    const first = await getConfig(device);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?".*"$/);
    const second = await getConfig(device, '', { 'if-none-match': etag ?? '' });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('answers 200 for If-None-Match with another tag', async ({ device }) => {
    expect((await getConfig(device, '', { 'if-none-match': '"old"' })).status).toBe(200);
  });

  it('answers the same for clienttype=nas as for no clienttype', async ({ device }) => {
    const plain = await (await getConfig(device)).json();
    const nas = await (await getConfig(device, '?clienttype=nas')).json();
    expect(nas).toEqual(plain);
  });

  it('answers 200 wrapped for clienttype=portal', async ({ device }) => {
    const response = await getConfig(device, '?clienttype=portal');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Wrapped<Configuration>;
    expect(body.error).toBeNull();
    expect(Object.keys(body.data?.componentMap['cloud.service.urls'] ?? {})).toEqual(
      expect.arrayContaining(SERVICE_KEYS),
    );
  });

  it('answers 400 {data: null, error} for an unknown clienttype', async ({ device }) => {
    const response = await getConfig(device, '?clienttype=bogus');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      data: null,
      error: { label: ANY_STRING, message: ANY_STRING },
    });
  });

  it('answers 400 wrapped for a repeated clienttype', async ({ device }) => {
    const response = await getConfig(device, '?clienttype=nas&clienttype=portal');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ data: null, error: { label: ANY_STRING } });
  });

  it('ignores a bearer token, even an invalid one', async ({ device }) => {
    const response = await getConfig(device, '', { authorization: 'Bearer garbage' });
    expect(response.status).toBe(200);
  });
});

describe('the configuration of a device started with a public URL', () => {
  it('derives every service URL from that base', async () => {
    const publicUrl = 'https://cloud.example.test/base';
    const proxied = await startTestDevice({ publicUrl });
    try {
      // base is the public URL; the server itself still listens on loopback.
      const address = proxied.running.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const response = await fetch(`http://127.0.0.1:${port}/config/v1/config`);
      const body = (await response.json()) as Wrapped<Configuration>;
      const urls: Record<string, string> = body.data?.componentMap['cloud.service.urls'] ?? {};
      for (const key of SERVICE_KEYS) expect(urls[key]?.startsWith(`${publicUrl}/`), key).toBe(true);
    } finally {
      await proxied.stop();
    }
  });
});
