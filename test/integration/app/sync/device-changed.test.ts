// A pair whose device changed (a new or reset device at the same address, another device chosen) is held with words that say so, never read as "all gone".
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine, type SyncEngineOptions } from '../../../../app/sync/engine.ts';
import { clientFor, type RecordedClient } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { digestTree, LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { runMchSync } from '../../../helpers/mch-sync.ts';
import { signedInProfile } from '../../../helpers/signed-in-profile.ts';
import { files, isWrite, SyncPair } from '../../../helpers/sync-pair.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

let first: TestDevice;
let second: TestDevice;
const pairs: SyncPair[] = [];

beforeAll(async () => {
  first = await startTestDevice();
  second = await startTestDevice();
});

afterEach(() => {
  for (const pair of pairs.splice(0)) pair.close();
});

afterAll(async () => {
  await first?.stop();
  await second?.stop();
});

const TEXTS = { 'a.txt': 'alpha', 'docs/b.txt': 'beta', 'docs/c.txt': 'gamma' };

async function syncedPair(device: SyncEngineOptions['device']): Promise<SyncPair> {
  const pair = new SyncPair(first, device === undefined ? {} : { engine: { device } });
  pairs.push(pair);
  for (const [path, text] of Object.entries(TEXTS)) pair.writeLocal(path, text);
  expectSynced(await pair.sync());
  return pair;
}

/** An engine over the pair's index and folder that reaches another device through `client`. */
function engineThrough(
  pair: SyncPair,
  client: RecordedClient,
  device?: SyncEngineOptions['device'],
): SyncEngine {
  return new SyncEngine({
    client: client.device,
    index: pair.index,
    localRoot: pair.localRoot,
    remoteFolder: pair.remoteFolder,
    env: { HOME: pair.home, XDG_DATA_HOME: join(pair.home, '.local', 'share') },
    ...(device === undefined ? {} : { device }),
  });
}

describe('a new, empty device at the same address', () => {
  it('holds the pair with words that say the device changed; nothing is written on either side', async () => {
    const pair = await syncedPair({ id: 'dev-1', name: 'My Cloud' });
    const client = clientFor(second);
    const report = await engineThrough(pair, client, { id: 'dev-1', name: 'My Cloud' }).syncOnce();
    expect(report.status).toBe('held');
    expect(report.hold?.reason).toBe('device-changed');
    expect(report.hold?.advice).toContain('was reset or replaced');
    expect(report.hold?.advice).toContain('--restore');
    expect(client.requests().filter(isWrite)).toEqual([]);
    expect(pair.localTree()).toEqual(files(TEXTS));
  });

  it('restore syncs the folder with the new device: made there, everything uploaded, nothing deleted', async () => {
    const pair = await syncedPair(undefined);
    const client = clientFor(second);
    const engine = engineThrough(pair, client);
    expect((await engine.syncOnce()).hold?.reason).toBe('device-changed');
    const report = await engine.syncOnce({ restore: true });
    expectSynced(report);
    expect(report.counts.uploaded).toBe(3);
    expect(report.counts.deleted).toBe(0);
    expect(pair.localTree()).toEqual(files(TEXTS));
    const onSecond = new SyncPair(second, { remoteFolder: pair.remoteFolder });
    pairs.push(onSecond);
    expect(await onSecond.remoteTree()).toEqual(files(TEXTS));
    // From then on it is this device's pair: the next pass is quiet.
    expect((await engine.syncOnce()).counts.uploaded).toBe(0);
  });

  it('an answer given for another hold does not answer this one', async () => {
    const pair = await syncedPair(undefined);
    const client = clientFor(second);
    const report = await engineThrough(pair, client).syncOnce({ restore: true, answers: 'emptied-root' });
    expect(report.hold?.reason).toBe('device-changed');
    expect(client.requests().filter(isWrite)).toEqual([]);
  });
});

describe('another device chosen in the profile', () => {
  it('holds the pair, naming both devices', async () => {
    const pair = await syncedPair({ id: 'dev-1', name: 'Living room' });
    const client = clientFor(first);
    const report = await engineThrough(pair, client, { id: 'dev-2', name: 'Office' }).syncOnce();
    expect(report.hold?.reason).toBe('device-changed');
    expect(report.hold?.advice).toContain('Living room (dev-1)');
    expect(report.hold?.advice).toContain('Office (dev-2)');
    expect(client.requests().filter(isWrite)).toEqual([]);
  });

  it('the same device under a new name syncs on', async () => {
    const pair = await syncedPair({ id: 'dev-1', name: 'Living room' });
    const report = await engineThrough(pair, clientFor(first), { id: 'dev-1', name: 'Den' }).syncOnce();
    expectSynced(report);
  });
});

describe('mch-sync run --once with a new device at the same address', () => {
  it('says the device changed (exit 3), and --restore syncs the folder with the new one', async () => {
    const old = await startTestDevice();
    const port = Number(new URL(old.base).port);
    const signedIn = await signedInProfile(old, 'mch-sync-new-device-');
    const run = (...extra: string[]): ReturnType<typeof runMchSync> =>
      runMchSync(['--profile', signedIn.profile, 'run', '--folder', folder, '--once', ...extra], {
        env: signedIn.env,
      });
    const folder = join(signedIn.home, 'Notes');
    let replacement: TestDevice | undefined;
    try {
      mkdirSync(folder);
      writeFileSync(join(folder, 'a.txt'), 'alpha');
      writeFileSync(join(folder, 'b.txt'), 'beta');
      expect((await run()).code).toBe(0);

      // The device is replaced by a new, empty one on the same address; the user signs in again.
      await old.stop();
      replacement = await startTestDevice({ port });
      const login = await runMchSync(
        [
          '--profile',
          signedIn.profile,
          'login',
          '--config-url',
          replacement.running.urls.config,
          '--username',
          'alice',
          '--password-stdin',
        ],
        { input: 'alice-password\n', env: signedIn.env },
      );
      expect(login.code).toBe(0);
      const held = await run();
      expect(held.code).toBe(3);
      expect(held.stdout).toContain('the device is not the one');
      expect(held.stdout).not.toContain('is gone from the device');
      expect(held.stdout).toContain('--restore');
      const api = clientFor(replacement).device;
      expect(await api.findByName('root', 'Notes')).toBeUndefined();

      const restored = await run('--restore');
      expect(restored.code).toBe(0);
      const notes = await api.findByName('root', 'Notes');
      expect(notes).toBeDefined();
      const listing = await api.listAll(notes?.id ?? '');
      expect('files' in listing ? listing.files.map((file) => file.name).sort() : []).toEqual([
        'a.txt',
        'b.txt',
      ]);
      expect((await run()).code).toBe(0);
    } finally {
      await replacement?.stop();
      signedIn.remove();
    }
    // Five commands and two devices started: 30 s ran out on a loaded machine (load 13, fresh clone).
  }, 90_000);
});

/** A front on loopback that passes every request to the device it is pointed at, with that device's token. */
async function switchableFront(
  target: TestDevice,
): Promise<{ base: string; point: (to: TestDevice) => void; close: () => Promise<void> }> {
  let current = target;
  const server = createServer((request, response) => {
    const upstream = new URL(current.base);
    const headers = {
      ...request.headers,
      host: upstream.host,
      authorization: `Bearer ${current.tokenFor('alice')}`,
    };
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    point: (to) => {
      current = to;
      server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('live: the device replaced at the same address while the service runs', () => {
  it('holds with device-changed, writes nothing to the new device, and restore syncs the folder there', async () => {
    const replacement = await startTestDevice();
    const front = await switchableFront(first);
    const live = new LivePair(first, { deviceUrl: front.base });
    try {
      for (const [path, text] of Object.entries(TEXTS)) live.pair.writeLocal(path, text);
      await live.start({ synced: true });
      const mark = live.mark();
      front.point(replacement);
      live.live.syncNow();
      await waitFor('the held state', () =>
        live.live.hold()?.reason === 'device-changed' ? true : undefined,
      );
      expect(live.writesSince(mark)).toEqual([]);
      expect(live.pair.localTree()).toEqual(files(TEXTS));

      live.live.restore();
      live.readThrough(replacement);
      expect(await live.waitUntilSynced('synced with the new device')).toEqual(digestTree(files(TEXTS)));
      expect(live.writesSince(mark).filter((request) => request.startsWith('DELETE '))).toEqual([]);
    } finally {
      await live.close();
      await front.close();
      await replacement.stop();
    }
  }, 120_000);
});
