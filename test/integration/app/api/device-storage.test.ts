// The device's free space as the client reads it (issue #33): the real device's figures, with and without a
// capacity, through the relay path too; a device without the endpoint or with figures that do not add up.
import { describe, expect, it } from 'vitest';
import { readDeviceStorage } from '../../../../app/api/device-info/device-storage.ts';
import { clientFor, deviceClientAt } from '../../../helpers/api-client.ts';
import { withDevice } from '../../../helpers/device.ts';
import { createFile } from '../../../helpers/multipart.ts';
import { sendJson, serversClosedAfterEach } from '../../../helpers/hostile-server.ts';

const serve = serversClosedAfterEach();

describe('readDeviceStorage', () => {
  it("reads the capacity less what is stored, timestamped, also through the relay's path", async () => {
    await withDevice(
      async (device) => {
        await createFile(device, 'a.bin', Buffer.alloc(250_000, 1));
        const read = await readDeviceStorage(clientFor(device).device, { now: () => 1234 });
        expect(read).toEqual({ totalBytes: 1_000_000, freeBytes: 750_000, checkedAtMs: 1234 });
        const relayed = clientFor(device, { deviceUrl: device.running.urls.network.proxyURL }).device;
        expect(await readDeviceStorage(relayed, { now: () => 1 })).toEqual({ ...read, checkedAtMs: 1 });
      },
      { capacityBytes: 1_000_000 },
    );
  });

  it("reads the data folder's file system without a capacity", async () => {
    await withDevice(async (device) => {
      const { totalBytes, freeBytes } = await readDeviceStorage(clientFor(device).device);
      expect(totalBytes).toBeGreaterThan(0);
      expect(freeBytes).toBeLessThanOrEqual(totalBytes);
    });
  });

  it('fails with NOT_FOUND on a device without the endpoint, and BAD_RESPONSE on figures that do not add up or say no size', async () => {
    const missing = await serve((_request, response) =>
      sendJson(response, 404, { label: 'NOT_FOUND', message: 'No route.' }),
    );
    await expect(readDeviceStorage(deviceClientAt(missing.base))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const odd = await serve((_request, response) =>
      sendJson(response, 200, { totalBytes: 10, freeBytes: 11 }),
    );
    await expect(readDeviceStorage(deviceClientAt(odd.base))).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('freeBytes is more than totalBytes') as unknown,
    });
    for (const figures of [
      { totalBytes: 10, freeBytes: -1 },
      { totalBytes: 0, freeBytes: 0 },
    ]) {
      const server = await serve((_request, response) => sendJson(response, 200, figures));
      await expect(readDeviceStorage(deviceClientAt(server.base))).rejects.toMatchObject({
        code: 'BAD_RESPONSE',
      });
    }
  });
});
