// The transport's limits against the real device, measured where it receives the bytes: one bucket for every transport derived from one, bodies in memory streamed through it.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../../../app/api/device-client.ts';
import { Bandwidth } from '../../../../app/api/http/bandwidth.ts';
import { Transport } from '../../../../app/api/http/transport.ts';
import { FAST_RETRY, staticTokens } from '../../../helpers/api-client.ts';
import { tappedDevice } from '../../../helpers/byte-tap.ts';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('Transport with a bandwidth limit', () => {
  it('two transports derived from one share its upload limit, for bodies held in memory too', async () => {
    const { device, tap, stop } = await tappedDevice();
    stops.push(stop);
    const rate = 200_000;
    const bandwidth = new Bandwidth({ upBytesPerSec: rate });
    const base = new Transport({ bandwidth });
    const tokens = staticTokens(device.tokenFor('alice'));
    // Derived as the client derives them: a token provider added, then other options.
    const first = new DeviceClient({ deviceUrl: device.base, transport: base.withTokens(tokens) });
    const second = new DeviceClient({
      deviceUrl: device.base,
      transport: base.withTokens(tokens).withOptions({ retry: FAST_RETRY }),
    });
    const size = 300_000;
    tap.reset();
    // Each body is in memory (as a file up to 1 MiB is read once) and larger than the burst (50,000).
    const [a, b] = await Promise.all([
      first.upload({ parentId: 'root', name: 'a.bin', content: randomBytes(size) }),
      second.upload({ parentId: 'root', name: 'b.bin', content: randomBytes(size) }),
    ]);
    expect([a.size, b.size]).toEqual([size, size]);
    // After the first 64 KiB, at most a burst (50,000 bytes) plus rate × time: two buckets would have
    // let the 600,000 bytes through in half the time.
    const leadIn = 64 * 1024;
    expect(tap.secondsBetween('up', leadIn, 2 * size)).toBeGreaterThanOrEqual(
      (2 * size - leadIn - 50_000) / rate,
    );
  });
});
