// Changes and failures mid-pass: a 412 never overwrites, a lost answer never duplicates, a broken download never shows.
import { afterEach, describe, expect, it } from 'vitest';
import { MchError } from '../../../../common/errors.ts';
import type { PassReport } from '../../../../app/sync/pass-report.ts';
import { parseFaultSpec } from '../../../../device/faults.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { files, startDeviceProxy, SyncPair, type ProxyHooks } from '../../../helpers/sync-pair.ts';
import { expectLocalText, expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

const devices: TestDevice[] = [];
const proxies: HostileServer[] = [];
const pairs: SyncPair[] = [];

afterEach(async () => {
  for (const pair of pairs.splice(0)) pair.close();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(devices.splice(0).map((device) => device.stop()));
});

async function newDevice(options: Parameters<typeof startTestDevice>[0] = {}): Promise<TestDevice> {
  const device = await startTestDevice(options);
  devices.push(device);
  return device;
}

/** A pair whose engine reaches the device through a proxy with `hooks`. */
async function proxiedPair(device: TestDevice, hooks: ProxyHooks, indexFile = false): Promise<SyncPair> {
  const proxy = await startDeviceProxy(device.base, hooks);
  proxies.push(proxy);
  const pair = new SyncPair(device, { deviceUrl: proxy.base, indexFile });
  pairs.push(pair);
  return pair;
}

/** Passes until one ends synced (at most `max`). */
async function syncUntilSynced(pair: SyncPair, max = 5): Promise<void> {
  for (let pass = 0; pass < max; pass += 1) {
    if ((await pair.sync()).status === 'synced') return;
  }
  throw new Error(`not synced after ${max} passes`);
}

function isContentPut(method: string, url: string): boolean {
  return method === 'PUT' && /\/sdk\/v2\/files\/[^/]+\/content$/.test(url);
}

describe('a remote change between the walk and the write (412)', () => {
  it('never overwrites the version the pass did not see: both versions are kept on both sides', async () => {
    const device = await newDevice();
    const late: { pair?: SyncPair } = {};
    let changedRemotely = false;
    const pair = await proxiedPair(device, {
      // Right before the engine's upload of the local edit reaches the device, someone else edits it.
      before: async (request) => {
        if (changedRemotely || late.pair === undefined || !isContentPut(request.method, request.url)) return;
        changedRemotely = true;
        await late.pair.writeRemote('a.txt', 'unseen remote edit');
      },
    });
    late.pair = pair;
    pair.writeLocal('a.txt', 'v1');
    expectSynced(await pair.sync());
    pair.writeLocal('a.txt', 'local edit', Date.parse('2026-02-01T00:00:00.000Z'));
    await syncUntilSynced(pair);
    expect(changedRemotely).toBe(true);
    const remote = await pair.remoteTree();
    const texts = Object.values(remote).map((item) => (item.kind === 'file' ? item.text : '/'));
    expect(texts.sort()).toEqual(['local edit', 'unseen remote edit']);
    expect(remote['a.txt']).toEqual({ kind: 'file', text: 'unseen remote edit' });
    expect(pair.localTree()).toEqual(remote);
  });
});

describe('an answer lost after the device acted (crash safety)', () => {
  it('does not create an upload twice when the answer of its create was lost', async () => {
    const device = await newDevice();
    const creates: string[] = [];
    let lost = false;
    const pair = await proxiedPair(
      device,
      {
        loseAnswer: (request, body) => {
          if (request.method !== 'POST' || !body.includes('"name":"a.txt"')) return false;
          creates.push(request.url);
          if (lost) return false;
          lost = true;
          return true;
        },
      },
      true,
    );
    pair.writeLocal('a.txt', 'only once');
    pair.writeLocal('b.txt', 'bystander');
    await pair.sync();
    // As after a crash: a new engine over the same index file.
    pair.restart();
    await syncUntilSynced(pair);
    expect(lost).toBe(true);
    await expectRemoteFiles(pair, { 'a.txt': 'only once', 'b.txt': 'bystander' });
    expect(creates).toHaveLength(1);
    expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('creates every file exactly once under seeded lost answers and dropped connections', async () => {
    const device = await newDevice({ faults: { spec: parseFaultSpec('lost=0.15,reset=0.1'), seed: 42 } });
    const pair = new SyncPair(device, { indexFile: true });
    pairs.push(pair);
    const texts: Record<string, string> = {};
    for (let i = 0; i < 20; i += 1) texts[`dir${i % 3}/f${i}.txt`] = `content ${i}`;
    for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
    for (let pass = 0; pass < 10; pass += 1) {
      const report = await pair.sync().catch(() => undefined);
      if (report?.status === 'synced') break;
      pair.restart();
    }
    // Read through a device without faults: the same data folder.
    await device.stop({ keepData: true });
    devices.splice(devices.indexOf(device), 1);
    const clean = await newDevice({ dataDir: device.dataDir });
    const reader = new SyncPair(clean, { remoteFolder: pair.remoteFolder });
    pairs.push(reader);
    expect(await reader.remoteTree()).toEqual(files(texts));
  });
});

describe('an interrupted download', () => {
  it('leaves no partial file under the real name and never uploads the partial file', async () => {
    const device = await newDevice();
    const big = 'x'.repeat(300_000);
    let cutting = true;
    const pair = await proxiedPair(device, {
      // Every content answer stops at byte 100 000 of the file, whatever Range asked for.
      cutAfter: (request) => {
        if (!cutting || request.method !== 'GET' || !request.url.includes('/content')) return undefined;
        const start = /bytes=(\d+)-/.exec(String(request.headers['range'] ?? ''))?.[1];
        return Math.max(0, 100_000 - Number(start ?? 0));
      },
    });
    await pair.writeRemote('big.bin', big);
    await pair.writeRemote('small.txt', 'small');
    // The broken connection outlasts the retries: the engine reads it as the device gone (NETWORK)
    // or reports the item; either way nothing may appear under the real name.
    const first = await pair.sync().catch((error: unknown) => error);
    if (first instanceof MchError) expect(first.code).toBe('NETWORK');
    else expect((first as PassReport).issues.map((issue) => issue.path)).toContain('big.bin');
    expect(pair.localTree()['big.bin']).toBeUndefined();
    // A pass with the partial file still there must not take it for a new local file.
    const before = pair.client.requests().length;
    await pair.sync().catch(() => undefined);
    const uploads = pair.client
      .requests()
      .slice(before)
      .filter((request) => /^(POST|PUT) /.test(request));
    expect(uploads).toEqual([]);
    expect(pair.localTree()['big.bin']).toBeUndefined();
    cutting = false;
    await syncUntilSynced(pair);
    expectLocalText(pair, 'big.bin', big);
    await expectRemoteFiles(pair, { 'big.bin': big, 'small.txt': 'small' });
    // No partial download is left behind once the file is complete (keys only: the texts are long).
    expect(Object.keys(pair.localTree()).sort()).toEqual(['big.bin', 'small.txt']);
  });
});
