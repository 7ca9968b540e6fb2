// Live sync when things go wrong: changes during a running upload, the device stopped and started, injected faults.
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../../../device/faults.ts';
import { startTestDevice, type TestDevice, type TestDeviceOptions } from '../../../helpers/device.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { digestTree, isQuietPass, LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { files, startDeviceProxy, SyncPair, type Tree } from '../../../helpers/sync-pair.ts';

const devices: TestDevice[] = [];
const proxies: HostileServer[] = [];
const pairs: LivePair[] = [];
const readers: SyncPair[] = [];

afterEach(async () => {
  for (const pair of pairs.splice(0)) await pair.close();
  for (const reader of readers.splice(0)) reader.close();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(devices.splice(0).map((device) => device.stop()));
});

async function newDevice(options: TestDeviceOptions = {}): Promise<TestDevice> {
  const device = await startTestDevice(options);
  devices.push(device);
  return device;
}

/** Stops `device` and starts it again on the same port with the same data (and `options`). */
async function restartDevice(device: TestDevice, options: TestDeviceOptions = {}): Promise<TestDevice> {
  await device.stop({ keepData: true });
  devices.splice(devices.indexOf(device), 1);
  return newDevice({ ...options, dataDir: device.dataDir, port: Number(new URL(device.base).port) });
}

/** `lines` numbered lines starting with `version`: a big text whose every part says which version it is. */
function bigText(version: string, megabytes: number): string {
  const line = `${version} ${'-'.repeat(58)}\n`;
  return line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length));
}

describe('changes during a running upload', () => {
  /**
   * Starts a 24 MB upload, holds its first chunk at a proxy, and meanwhile renames, edits and adds small
   * files and rewrites the big one with `last`; then lets the upload go on and waits for both sides.
   */
  async function changeDuringUpload(last: string, timeoutMs?: number): Promise<void> {
    const device = await newDevice();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reachedProxy: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (reachedProxy = resolve));
    let held = false;
    const proxy = await startDeviceProxy(device.base, {
      before: async (request) => {
        if (held || request.method !== 'PUT' || !/\/resumable\/content\?offset=/.test(request.url)) return;
        held = true;
        reachedProxy();
        await released;
      },
    });
    proxies.push(proxy);
    const live = new LivePair(device, { deviceUrl: proxy.base });
    pairs.push(live);
    live.pair.writeLocal('a.txt', 'a');
    live.pair.writeLocal('b.txt', 'b');
    live.pair.writeLocal('docs/c.txt', 'c');
    await live.start({ synced: true });
    const ids = { a: await live.pair.remoteId('a.txt'), b: await live.pair.remoteId('b.txt') };

    writeFileSync(live.pair.local('big.bin'), bigText('first', 24));
    await inFlight;
    live.pair.renameLocal('a.txt', 'docs/a-renamed.txt');
    live.pair.writeLocal('b.txt', 'b, edited during the upload');
    live.pair.writeLocal('docs/new.txt', 'new during the upload');
    writeFileSync(live.pair.local('big.bin'), last);
    release();

    expect(await live.waitUntilSynced('both sides to match', timeoutMs)).toEqual(
      digestTree({
        ...files({
          'b.txt': 'b, edited during the upload',
          'docs/a-renamed.txt': 'a',
          'docs/c.txt': 'c',
          'docs/new.txt': 'new during the upload',
        }),
        'big.bin': { kind: 'file', text: last },
      }),
    );
    // Renamed and edited, not replaced.
    expect(await live.pair.remoteId('docs/a-renamed.txt')).toBe(ids.a);
    expect(await live.pair.remoteId('b.txt')).toBe(ids.b);
  }

  it('renames and edits made while a big upload is in flight all arrive, the last content wins', async () => {
    await changeDuringUpload(bigText('second', 26));
  }, 120_000);

  // Known slow: a chunk request promises more bytes than the shrunken file still has and waits for the
  // 30 s idle timeout (three times) before the pass gives up and the next one uploads the new content.
  it('a big file that shrinks while its upload is in flight ends with its last content', async () => {
    await changeDuringUpload(bigText('second', 20), 200_000);
  }, 240_000);
});

describe('the device stopped and started', () => {
  it('goes offline while the device is away, recovers by itself, and the changes made meanwhile arrive', async () => {
    const device = await newDevice();
    const live = new LivePair(device, { maxBackoffMs: 500 });
    pairs.push(live);
    live.pair.writeLocal('a.txt', 'a');
    live.pair.writeLocal('b.txt', 'b');
    await live.start({ synced: true });
    const id = await live.pair.remoteId('a.txt');

    await device.stop({ keepData: true });
    devices.splice(devices.indexOf(device), 1);
    live.pair.renameLocal('a.txt', 'a-renamed.txt');
    live.pair.writeLocal('while-away.txt', 'written while the device was away');
    live.pair.writeLocal('b.txt', 'b, edited while away');
    await waitFor('the offline state', () => (live.live.status().state === 'offline' ? true : undefined));
    expect(live.live.status().detail).toContain('cannot be reached');

    const again = await newDevice({ dataDir: device.dataDir, port: Number(new URL(device.base).port) });
    const reader = live.readThrough(again);
    expect(await live.waitUntilSynced('the changes made while away')).toEqual(
      digestTree(
        files({
          'a-renamed.txt': 'a',
          'b.txt': 'b, edited while away',
          'while-away.txt': 'written while the device was away',
        }),
      ),
    );
    expect((await reader.remoteAt('a-renamed.txt'))?.id).toBe(id);
    expect(live.live.status().detail).toBeNull();
  }, 120_000);
});

describe('a device with injected faults', () => {
  /** Repeats a change "from elsewhere" (its answer may be lost) until `done` says it took effect. */
  async function untilDone(what: string, act: () => Promise<unknown>, done: () => Promise<boolean>) {
    await waitFor(what, async () => {
      if (await done().catch(() => false)) return true;
      await act().catch(() => undefined);
      return undefined;
    });
  }

  /**
   * Waits until the local folder holds `expected` and then two passes in a row found nothing to do (the
   * remote side cannot be read reliably through the faults; it is compared at the end without them).
   */
  async function settle(live: LivePair, expected: Tree): Promise<void> {
    try {
      await waitFor('the local folder to hold what is expected', () =>
        isDeepStrictEqual(live.pair.localTree(), expected) ? true : undefined,
      );
      const from = live.passes.length;
      await waitFor('two quiet passes', () => {
        const [last, before] = live.passes.slice(from).reverse();
        return last !== undefined && before !== undefined && isQuietPass(last) && isQuietPass(before)
          ? true
          : undefined;
      });
    } catch (error) {
      const passes = live.passes
        .slice(-5)
        .map((pass) =>
          'report' in pass
            ? `${pass.report.status} ${JSON.stringify(pass.report.operations)} ${pass.report.issues
                .map((issue) => `${issue.kind} ${issue.path}: ${issue.message}`)
                .join('; ')}`
            : `threw ${String(pass.error)}`,
        );
      throw new Error(
        `${String(error)}\nlocal: ${JSON.stringify(live.pair.localTree())}\n` +
          `status: ${JSON.stringify(live.live.status().state)} ${live.live.status().detail}\n` +
          `last passes:\n${passes.join('\n')}`,
        { cause: error },
      );
    }
    expect(live.pair.localTree()).toEqual(expected);
  }

  it('local and remote changes over several rounds converge with nothing lost or doubled', async () => {
    const faulty = await newDevice({
      faults: { spec: parseFaultSpec('error=0.1,reset=0.05,lost=0.05'), seed: 6 },
    });
    const live = new LivePair(faulty, { maxBackoffMs: 500 });
    pairs.push(live);
    const { pair } = live;
    const texts: Record<string, string> = {};
    for (let index = 0; index < 12; index += 1) texts[`dir${index % 3}/f${index}.txt`] = `content ${index}`;
    for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
    await live.start();
    await settle(live, files(texts));

    for (let round = 0; round < 3; round += 1) {
      // Here: an edit, a rename into another folder, a new file, a delete.
      pair.writeLocal(`dir0/f${round * 3}.txt`, `local edit ${round}, longer`);
      texts[`dir0/f${round * 3}.txt`] = `local edit ${round}, longer`;
      pair.renameLocal(`dir1/f${round * 3 + 1}.txt`, `dir2/moved-${round}.txt`);
      texts[`dir2/moved-${round}.txt`] = texts[`dir1/f${round * 3 + 1}.txt`] ?? '';
      delete texts[`dir1/f${round * 3 + 1}.txt`];
      pair.writeLocal(`local-${round}.txt`, `new here ${round}`);
      texts[`local-${round}.txt`] = `new here ${round}`;
      pair.removeLocal(`dir2/f${round * 3 + 2}.txt`);
      delete texts[`dir2/f${round * 3 + 2}.txt`];
      // There: an edit, a rename, a new file (other items than the ones changed here).
      const edited = `dir${round % 3}/f${9 + round}.txt`;
      const editedText = `remote edit ${round}, a longer text`;
      await untilDone(
        `the remote edit of ${edited}`,
        () => pair.writeRemote(edited, editedText),
        async () => (await pair.remoteAt(edited))?.size === editedText.length,
      );
      texts[edited] = editedText;
      const renamedFrom = `dir${(round + 1) % 3}/f${9 + ((round + 1) % 3)}.txt`;
      const renamedTo = `remote-renamed-${round}.txt`;
      if (texts[renamedFrom] !== undefined) {
        await untilDone(
          `the remote rename of ${renamedFrom}`,
          () => pair.moveRemote(renamedFrom, renamedTo),
          async () => (await pair.remoteAt(renamedTo)) !== undefined,
        );
        texts[renamedTo] = texts[renamedFrom] ?? '';
        delete texts[renamedFrom];
      }
      const created = `dir1/remote-${round}.txt`;
      await untilDone(
        `the remote file ${created}`,
        () => pair.writeRemote(created, `new there ${round}`),
        async () => (await pair.remoteAt(created)) !== undefined,
      );
      texts[created] = `new there ${round}`;
      await settle(live, files(texts));
    }

    // The device without faults, on the same data: both sides hold exactly the same.
    await live.live.stop();
    const clean = await restartDevice(faulty);
    const reader = new SyncPair(clean, { remoteFolder: pair.remoteFolder });
    readers.push(reader);
    expect(await reader.remoteTree()).toEqual(files(texts));
    expect(pair.localTree()).toEqual(files(texts));
  }, 240_000);
});
