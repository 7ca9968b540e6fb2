// Device lookup and user lookup at service.device.url / service.auth.url (device-api.md §5).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { Configuration, DeviceRecord, UserRecord, Wrapped } from '../../../common/wire/cloud.ts';
import type { TestDevice } from '../../helpers/device.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);
const ANY_NUMBER: unknown = expect.any(Number);

let deviceUrl: string;
let authUrl: string;
let aliceId: string;
let bobId: string;

test.beforeAll(async ({ device }) => {
  // Clients follow the configuration, never a fixed layout (device-api.md §1).
  const config = (await (await fetch(device.running.urls.config)).json()) as Wrapped<Configuration>;
  const urls = config.data?.componentMap['cloud.service.urls'];
  deviceUrl = urls?.['service.device.url'] ?? '';
  authUrl = urls?.['service.auth.url'] ?? '';
  aliceId = device.running.context.users.byName('alice')?.id ?? '';
  bobId = device.running.context.users.byName('bob')?.id ?? '';
});

function getAs(device: TestDevice, user: string | undefined, url: string): Promise<Response> {
  const headers: Record<string, string> = user ? { authorization: `Bearer ${device.tokenFor(user)}` } : {};
  return fetch(url, { headers });
}

const userDevicesUrl = (userId: string): string =>
  `${deviceUrl}/device/v1/user/${encodeURIComponent(userId)}`;

describe('GET {service.device.url}/device/v1/user/{userId}', () => {
  it('answers 200 {data: [Device]} for the caller’s own id', async ({ device }) => {
    const response = await getAs(device, 'alice', userDevicesUrl(aliceId));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Wrapped<DeviceRecord[]>;
    expect(body.data).toHaveLength(1);
    expect(body.data?.[0]).toMatchObject({
      deviceId: ANY_STRING,
      name: ANY_STRING,
      modelId: ANY_STRING,
      type: ANY_STRING,
      serialNumber: ANY_STRING,
      createdOn: ANY_NUMBER,
    });
  });

  it('describes the network as §5 says for the local device', async ({ device }) => {
    const body = (await (await getAs(device, 'alice', userDevicesUrl(aliceId))).json()) as Wrapped<
      DeviceRecord[]
    >;
    const record = body.data?.[0];
    const port = new URL(device.base).port;
    expect(record?.network).toEqual({
      internalDNSName: `localhost:${port}`,
      internalURL: `http://localhost:${port}`,
      proxyURL: `${device.base}/proxy/${record?.deviceId}`,
      externalURI: `${device.base}/proxy/${record?.deviceId}`,
    });
  });

  it('gives addresses where the device API answers', async ({ device }) => {
    const body = (await (await getAs(device, 'alice', userDevicesUrl(aliceId))).json()) as Wrapped<
      DeviceRecord[]
    >;
    const network = body.data?.[0]?.network;
    for (const base of [network?.internalURL, network?.proxyURL]) {
      const response = await getAs(device, 'alice', `${base}/sdk/v2/files/root`);
      expect(response.status, base).toBe(200);
    }
  });

  it('accepts the user id with an unencoded |', async ({ device }) => {
    const response = await getAs(device, 'alice', `${deviceUrl}/device/v1/user/${aliceId}`);
    expect(response.status).toBe(200);
  });

  it('answers 403 wrapped for another user’s id', async ({ device }) => {
    const response = await getAs(device, 'alice', userDevicesUrl(bobId));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ data: null, error: { label: ANY_STRING } });
  });

  it('answers 401 with WWW-Authenticate: Bearer without a token', async ({ device }) => {
    const response = await getAs(device, undefined, userDevicesUrl(aliceId));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(await response.json()).toMatchObject({ data: null, error: { label: ANY_STRING } });
  });

  it('answers 401 for a garbage token', async () => {
    const response = await fetch(userDevicesUrl(aliceId), { headers: { authorization: 'Bearer garbage' } });
    expect(response.status).toBe(401);
  });
});

describe('GET {service.device.url}/device/v1/device/{deviceId}', () => {
  it('answers 200 {data: Device} for a member', async ({ device }) => {
    const list = (await (await getAs(device, 'bob', userDevicesUrl(bobId))).json()) as Wrapped<
      DeviceRecord[]
    >;
    const deviceId = list.data?.[0]?.deviceId ?? '';
    const response = await getAs(device, 'bob', `${deviceUrl}/device/v1/device/${deviceId}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Wrapped<DeviceRecord>;
    expect(body).toEqual({ data: list.data?.[0], error: null });
  });

  it('answers 404 wrapped for an unknown device id', async ({ device }) => {
    const response = await getAs(device, 'alice', `${deviceUrl}/device/v1/device/no-such-device`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ data: null, error: { label: ANY_STRING } });
  });

  it('answers 401 without a token', async ({ device }) => {
    expect((await getAs(device, undefined, `${deviceUrl}/device/v1/device/any`)).status).toBe(401);
  });
});

describe('GET {service.auth.url}/authservice/v2/auth0/user?email=', () => {
  const lookup = (device: TestDevice, user: string | undefined, email: string): Promise<Response> =>
    getAs(device, user, `${authUrl}/authservice/v2/auth0/user?email=${encodeURIComponent(email)}`);

  it('answers 200 with the caller’s own record', async ({ device }) => {
    const email = device.running.context.users.byName('alice')?.email ?? '';
    const response = await lookup(device, 'alice', email);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Wrapped<UserRecord[]>;
    expect(body.data).toHaveLength(1);
    expect(body.data?.[0]).toMatchObject({
      user_id: aliceId,
      email,
      name: 'alice',
      user_metadata: {
        first_name: ANY_STRING,
        last_name: ANY_STRING,
        lang: ANY_STRING,
        time_zone_name: ANY_STRING,
      },
    });
  });

  it('uses the user name as the email when none was set', async ({ device }) => {
    const body = (await (await lookup(device, 'alice', 'alice')).json()) as Wrapped<UserRecord[]>;
    expect(body.data?.[0]?.user_id).toBe(aliceId);
  });

  it('never returns another user’s record', async ({ device }) => {
    const response = await lookup(device, 'alice', 'bob');
    const body = (await response.json()) as Wrapped<UserRecord[]>;
    expect(response.status).toBe(200);
    expect(body.data?.some((record) => record.user_id === bobId)).toBe(false);
  });

  it('answers 400 wrapped without an email', async ({ device }) => {
    const response = await getAs(device, 'alice', `${authUrl}/authservice/v2/auth0/user`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ data: null, error: { label: ANY_STRING } });
  });

  it('answers 401 without a token', async ({ device }) => {
    expect((await lookup(device, undefined, 'alice')).status).toBe(401);
  });
});
