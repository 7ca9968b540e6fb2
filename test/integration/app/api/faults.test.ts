// The client under injected faults (device/faults.ts): reads get through, unsafe writes say OUTCOME_UNKNOWN.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../common/errors.ts';
import { parseFaultSpec } from '../../../../device/faults.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';

const devices: TestDevice[] = [];

async function faultyDevice(spec: string, seed: number): Promise<TestDevice> {
  const device = await startTestDevice({ faults: { spec: parseFaultSpec(spec), seed } });
  devices.push(device);
  return device;
}

afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.stop()));
});

describe('retries under faults', () => {
  it('gets every idempotent read through error=0.3, retrying the 503s', async () => {
    const device = await faultyDevice('error=0.3', 7);
    const response = await device.fetchAs('alice', '/sdk/v2/files/root');
    // The fixture itself may hit a fault; the client is what is under test.
    expect([200, 503]).toContain(response.status);
    const { device: api, log } = clientFor(device);
    for (let round = 0; round < 30; round += 1) {
      await api.getFile('root');
      await api.list('root');
    }
    const statuses = log.filter((entry) => entry.message === 'answer').map((entry) => entry.status);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(5);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
  });

  it('gets reads through dropped connections and lost answers (reset=0.2,lost=0.2)', async () => {
    const device = await faultyDevice('reset=0.2,lost=0.2', 11);
    const { device: api, log } = clientFor(device);
    for (let round = 0; round < 30; round += 1) expect((await api.getFile('root')).name).toBe('');
    expect(log.filter((entry) => entry.message === 'failed').length).toBeGreaterThan(3);
  });

  it('sends every attempt of one request with the same x-correlation-id', async () => {
    const device = await faultyDevice('error=0.5', 3);
    const { device: api, log } = clientFor(device);
    for (let round = 0; round < 5; round += 1) await api.getFile('root');
    const retried = log.filter((entry) => entry.message.startsWith('retrying'));
    expect(retried.length).toBeGreaterThan(0);
    for (const entry of retried) {
      expect(log.filter((other) => other.correlationId === entry.correlationId).length).toBeGreaterThan(2);
    }
  });

  it('does not repeat a create whose answer was lost: OUTCOME_UNKNOWN, then findByName tells', async () => {
    const device = await faultyDevice('lost=0.5', 5);
    const { device: api, requests } = clientFor(device);
    const outcomes: { name: string; error?: ApiError }[] = [];
    for (let index = 0; index < 12; index += 1) {
      const name = `lost-${index}.txt`;
      try {
        await api.create({ name, content: Buffer.from(name) });
        outcomes.push({ name });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcomes.push({ name, error });
      }
    }
    const unknown = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(unknown.length).toBeGreaterThan(0);
    for (const outcome of unknown) {
      expect(outcome.error?.code).toBe('OUTCOME_UNKNOWN');
      expect(outcome.error?.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      // The device applied it: the lookup (a GET, retried through the faults) finds it.
      expect(await api.findByName('root', outcome.name)).toMatchObject({ name: outcome.name });
    }
    // One POST per create, never a second one.
    expect(requests().filter((request) => request.startsWith('POST')).length).toBeLessThanOrEqual(12);
  });

  it('reports a guarded write whose answer was lost and whose retry met 412 as OUTCOME_UNKNOWN', async () => {
    const device = await faultyDevice('lost=0.5', 9);
    const { device: api } = clientFor(device);
    const results: string[] = [];
    let created;
    for (let tries = 0; created === undefined && tries < 20; tries += 1) {
      created = await api
        .create({ name: 'guarded.txt', content: Buffer.from('v0'), resolveNameConflict: true })
        .catch(() => undefined);
    }
    if (!created) throw new Error('could not create the test file');
    let eTag = created.eTag;
    for (let round = 0; round < 10; round += 1) {
      try {
        eTag = (await api.putContent(created.id, Buffer.from(`v${round + 1}`), { ifMatch: eTag })).eTag;
        results.push('ok');
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push(error.code);
        eTag = (await api.getFile(created.id)).eTag;
      }
    }
    expect(results).toContain('OUTCOME_UNKNOWN');
    expect(results).not.toContain('PRECONDITION_FAILED');
    expect(results.every((result) => result === 'ok' || result === 'OUTCOME_UNKNOWN')).toBe(true);
  });
});
