// The device's free space (GET /sdk/v2/device/storage, docs/device.md), read before uploads that may not fit.
import { z } from 'zod';
import { parseJson } from '../answers.ts';
import type { DeviceEndpoint } from '../device-endpoint.ts';

/** The whole device's size and free bytes, as it answered them, and when (ms since the epoch). */
export interface DeviceStorage {
  totalBytes: number;
  freeBytes: number;
  checkedAtMs: number;
}

const bytes = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const storageSchema = z
  // A device of no size is no figure either: it would hold every upload back.
  .object({ totalBytes: bytes.positive(), freeBytes: bytes })
  // Free space larger than the disk is no figure to plan uploads with.
  .refine((figures) => figures.freeBytes <= figures.totalBytes, 'freeBytes is more than totalBytes');

/**
 * One GET. A device without the endpoint answers NOT_FOUND (an ApiError like any other failure): the
 * caller then knows no free space and uploads as before, the device's 507 still telling it when full.
 */
export async function readDeviceStorage(
  device: DeviceEndpoint,
  options: { signal?: AbortSignal | undefined; now?: () => number } = {},
): Promise<DeviceStorage> {
  const what = 'read the free space of the device';
  const response = await device.send({
    method: 'GET',
    url: device.url('/sdk/v2/device/storage'),
    what,
    signal: options.signal,
  });
  const figures = parseJson(response, storageSchema, what);
  return { ...figures, checkedAtMs: (options.now ?? Date.now)() };
}
