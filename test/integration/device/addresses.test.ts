// The device's home and relay addresses (`mch-device --home`, `--relay`, issue #33): both answer the device
// API, the relay adds its latency and bandwidth cap, and either can be switched off and on while running.
import { describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../../common/wire/cloud.ts';
import { withDevice, type TestDevice } from '../../helpers/device.ts';
import { createFile } from '../../helpers/multipart.ts';

const HOME = { host: '127.0.0.2' };
const RELAY = { host: '127.0.0.3' };

/** The device record as the client reads it, from the cloud's device lookup. */
async function deviceRecord(device: TestDevice): Promise<DeviceRecord> {
  const id = device.running.context.device.id;
  const response = await fetch(`${device.running.urls.cloud}/device/v1/device/${id}`, {
    headers: { authorization: `Bearer ${device.tokenFor()}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: DeviceRecord }).data;
}

/** The two device URLs the way the client builds them (device-api.md §1): http for a loopback name. */
function deviceUrls(record: DeviceRecord): { home: string; relay: string } {
  return { home: `http://${record.network.internalDNSName}`, relay: record.network.proxyURL };
}

function getRoot(device: TestDevice, deviceUrl: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${deviceUrl}/sdk/v2/files/root`, {
    ...init,
    headers: { authorization: `Bearer ${device.tokenFor()}` },
  });
}

/** The errno under a fetch failure (undici wraps it as the cause, sometimes twice). */
async function connectionError(request: Promise<unknown>): Promise<string | undefined> {
  try {
    await request;
  } catch (error) {
    let cause: unknown = error;
    while (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== undefined && code.startsWith('E')) return code;
      cause = cause.cause;
    }
    return 'no errno';
  }
  return undefined;
}

describe('the home and relay addresses', () => {
  it('are advertised in the device record, each on its own loopback address, and both answer', async () => {
    await withDevice(
      async (device) => {
        const record = await deviceRecord(device);
        const home = device.running.addresses.home;
        const relay = device.running.addresses.relay;
        expect(record.network.internalDNSName).toBe(`127.0.0.2:${home?.port}`);
        expect(record.network.internalURL).toBe(`http://127.0.0.2:${home?.port}`);
        expect(record.network.proxyURL).toBe(
          `http://127.0.0.3:${relay?.port}/proxy/${device.running.context.device.id}`,
        );
        expect(record.network.externalURI).toBe(record.network.proxyURL);
        const urls = deviceUrls(record);
        const answers = [];
        for (const url of [urls.home, urls.relay]) {
          const response = await getRoot(device, url);
          expect(response.status).toBe(200);
          answers.push(await response.json());
        }
        expect(answers[1]).toEqual(answers[0]);
        // The listener itself still serves everything, configuration included.
        expect((await fetch(device.running.urls.config)).status).toBe(200);
      },
      { home: HOME, relay: RELAY },
    );
  });

  it('keeps the record of a device started without them as it was', async () => {
    await withDevice(async (device) => {
      const record = await deviceRecord(device);
      const port = new URL(device.base).port;
      expect(record.network.internalDNSName).toBe(`localhost:${port}`);
      expect(record.network.proxyURL).toBe(`${device.base}/proxy/${device.running.context.device.id}`);
      expect(device.running.addresses).toEqual({});
    });
  });

  it('adds the relay latency to a round trip through the relay, and home answers too', async () => {
    await withDevice(
      async (device) => {
        const urls = deviceUrls(await deviceRecord(device));
        // Only the floor the shaping guarantees (150 ms each way: a round trip of at least ~300 ms); no
        // ceiling on home's time, which a shared machine can stretch at will. Home answers all the same.
        const started = performance.now();
        expect((await getRoot(device, urls.relay)).status).toBe(200);
        expect(performance.now() - started).toBeGreaterThanOrEqual(250);
        expect((await getRoot(device, urls.home)).status).toBe(200);
      },
      { home: HOME, relay: { ...RELAY, latencyMs: 150 } },
    );
  });

  it('caps the bandwidth of the relay: 5 MB at 2 MB/s take at least ~2 s, and home gives the same bytes', async () => {
    await withDevice(
      async (device) => {
        const urls = deviceUrls(await deviceRecord(device));
        const content = Buffer.alloc(5_000_000, 7);
        const file = await createFile(device, 'big.bin', content);
        const download = async (deviceUrl: string): Promise<number> => {
          const started = performance.now();
          const response = await fetch(`${deviceUrl}/sdk/v2/files/${file.id}/content`, {
            headers: { authorization: `Bearer ${device.tokenFor()}` },
          });
          expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
          return performance.now() - started;
        };
        // The cap's floor only (see above): through home the same bytes arrive, at whatever speed.
        expect(await download(urls.relay)).toBeGreaterThanOrEqual(2000);
        await download(urls.home);
      },
      { home: HOME, relay: { ...RELAY, bytesPerSecond: 2_000_000 } },
    );
  });

  it('refuses connections while an address is down, cuts the open ones, and answers again once up', async () => {
    await withDevice(
      async (device) => {
        const urls = deviceUrls(await deviceRecord(device));
        const file = await createFile(device, 'big.bin', Buffer.alloc(2_000_000, 1));
        // A download that takes ~2 s through the relay is in flight when the relay goes down.
        const response = await fetch(`${urls.relay}/sdk/v2/files/${file.id}/content`, {
          headers: { authorization: `Bearer ${device.tokenFor()}` },
        });
        expect(response.status).toBe(200);
        const body = response.arrayBuffer();
        await device.setAddress('relay', 'down');
        expect(await connectionError(body)).toBeDefined();
        expect(await connectionError(getRoot(device, urls.relay))).toBe('ECONNREFUSED');
        // Home is not affected, and goes down on its own.
        expect((await getRoot(device, urls.home)).status).toBe(200);
        await device.setAddress('home', 'down');
        expect(await connectionError(getRoot(device, urls.home))).toBe('ECONNREFUSED');
        await device.setAddress('relay', 'up');
        await device.setAddress('home', 'up');
        // Same ports as advertised: the record did not change.
        expect(deviceUrls(await deviceRecord(device))).toEqual(urls);
        expect((await getRoot(device, urls.relay)).status).toBe(200);
        expect((await getRoot(device, urls.home)).status).toBe(200);
      },
      { home: HOME, relay: { ...RELAY, bytesPerSecond: 1_000_000 } },
    );
  });

  it('says which address a switch names when the device has none', async () => {
    await withDevice(async (device) => {
      await expect(device.setAddress('relay', 'down')).rejects.toThrow(/without a relay address/);
    });
  });
});
