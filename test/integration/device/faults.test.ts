// Fault injection as client tests use it: 503s, dropped connections and lost answers on the device API.
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../../device/faults.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';

let device: TestDevice | undefined;
afterEach(async () => {
  await device?.stop();
  device = undefined;
});

async function withFaults(text: string, seed = 1): Promise<TestDevice> {
  device = await startTestDevice({ faults: { spec: parseFaultSpec(text), seed } });
  return device;
}

describe('fault injection', () => {
  it('answers device-API requests 503 with Retry-After, and spares the configuration', async () => {
    const d = await withFaults('error=1');
    const answer = await d.fetchAs('alice', '/sdk/v2/files/root');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(((await answer.json()) as { label: string }).label).toBe('SERVICE_UNAVAILABLE');
    expect((await fetch(`${d.base}/config/v1/config`)).status).toBe(200);
  });

  it('reaches configuration and identity too with scope=all', async () => {
    const d = await withFaults('error=1,scope=all');
    expect((await fetch(`${d.base}/config/v1/config`)).status).toBe(503);
  });

  it('drops the connection before handling on reset, so nothing changes', async () => {
    const d = await withFaults('reset=1');
    await expect(
      d.fetchAs('alice', '/sdk/v2/files/root', {
        method: 'PATCH',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
    ).rejects.toThrow();
    expect(
      d.running.context.items.getLive(d.running.context.users.byName('alice')?.root_id ?? ''),
    ).toBeDefined();
  });

  it('applies the request but loses the answer on lost', async () => {
    const d = await withFaults('lost=1');
    const boundary = 'b';
    const body = `--${boundary}\r\n\r\n${JSON.stringify({ name: 'kept.txt' })}\r\n--${boundary}\r\n\r\nhi\r\n--${boundary}--\r\n`;
    await expect(
      d.fetchAs('alice', '/sdk/v2/files', {
        method: 'POST',
        body,
        headers: { 'content-type': `multipart/related; boundary=${boundary}` },
      }),
    ).rejects.toThrow();
    const rootId = d.running.context.users.byName('alice')?.root_id ?? '';
    expect(d.running.context.items.childByName(rootId, 'kept.txt')).toBeDefined();
  });

  it('makes affected requests wait for the latency first', async () => {
    const d = await withFaults('latency=150');
    const started = performance.now();
    expect((await d.fetchAs('alice', '/sdk/v2/files/root')).status).toBe(200);
    // A lower bound only: the injected sleep guarantees it, however busy the machine is.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('gives the same statuses for the same requests and seed', async () => {
    const statuses = async (): Promise<number[]> => {
      const d = await withFaults('error=0.5', 42);
      const result: number[] = [];
      for (let i = 0; i < 30; i += 1) result.push((await d.fetchAs('alice', '/sdk/v2/files/root')).status);
      await d.stop();
      device = undefined;
      return result;
    };
    const first = await statuses();
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await statuses()).toEqual(first);
  });
});
