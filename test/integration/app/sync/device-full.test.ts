// A device that is full (issue #33): an upload that cannot fit waits with an issue naming the file and the
// space missing, is not sent again on every pass, and goes by itself once the device has room; a 507 met
// in a race ends as the same issue. Against the real device with a capacity (`capacityBytes`).
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../../common/units.ts';
import { marginOf } from '../../../../app/sync/guards/upload-room.ts';
import type { PassIssue } from '../../../../app/sync/pass-report.ts';
import { withDevice, type TestDevice } from '../../../helpers/device.ts';
import { LivePair, waitFor } from '../../../helpers/live-pair.ts';
import { SyncPair, startDeviceProxy } from '../../../helpers/sync-pair.ts';

const CAPACITY = 4_000_000;
const BIG = 5_000_000;

async function storageOf(device: TestDevice): Promise<{ totalBytes: number; freeBytes: number }> {
  const response = await device.fetchAs('alice', '/sdk/v2/device/storage');
  return (await response.json()) as { totalBytes: number; freeBytes: number };
}

/** The words the hold must use, from the device's own figures (sizes as common/units.ts writes them). */
function heldWords(name: string, size: number, free: number, total: number): string {
  const missing = size - (free - marginOf(total));
  return `${name} (${formatBytes(size)}) does not fit on the device: ${formatBytes(free)} free, ${formatBytes(missing)} missing. Free space on the device; it is sent when there is room.`;
}

const fullIssues = (issues: readonly PassIssue[]): PassIssue[] =>
  issues.filter((issue) => issue.code === 'DEVICE_FULL');
const posts = (requests: string[]): string[] => requests.filter((request) => request.startsWith('POST '));

describe('a device that is full', () => {
  it('holds the file that cannot fit with its numbers, syncs the others both ways, and sends it once there is room', async () => {
    await withDevice(
      async (device) => {
        const pair = new SyncPair(device);
        try {
          await pair.sync(); // the device folder is made
          await pair.writeRemote('from-device.txt', 'down');
          pair.writeLocal('a.txt', 'a'.repeat(10_000));
          pair.writeLocal('big.bin', 'b'.repeat(BIG));
          pair.writeLocal('c.txt', 'c'.repeat(10_000));
          const before = await storageOf(device);
          const first = await pair.syncCounting();
          expect(fullIssues(first.report.issues)).toEqual([
            {
              kind: 'failed',
              remedy: 'needs-you',
              code: 'DEVICE_FULL',
              path: 'big.bin',
              message: heldWords('big.bin', BIG, before.freeBytes, CAPACITY),
            },
          ]);
          // Not one byte of it was sent: the two others went, one POST each, and the download came.
          expect(posts(first.requests)).toEqual(['POST /sdk/v2/files', 'POST /sdk/v2/files']);
          expect(first.report.status).toBe('errors');
          expect(Object.keys(await pair.remoteTree()).sort()).toEqual(['a.txt', 'c.txt', 'from-device.txt']);
          expect(pair.readLocal('from-device.txt')).toBe('down');

          // Another pass with the same free space: held again, nothing sent.
          const again = await pair.syncCounting();
          expect(fullIssues(again.report.issues).map((issue) => issue.path)).toEqual(['big.bin']);
          expect(posts(again.requests)).toEqual([]);

          // Room on the device: the next pass's reading shows it, and the file goes.
          device.setCapacity(4 * CAPACITY);
          const after = await pair.syncCounting();
          expect(after.report.issues).toEqual([]);
          expect(after.report.status).toBe('synced');
          expect((await pair.remoteTree())['big.bin']).toEqual({ kind: 'file', text: 'b'.repeat(BIG) });
        } finally {
          pair.close();
        }
      },
      { capacityBytes: CAPACITY },
    );
  });

  it('ends a 507 met in a race (the space went after the reading) as the same held issue, not sent again until there is room', async () => {
    await withDevice(
      async (device) => {
        // Another client fills the device right as the upload leaves: the device itself refuses it.
        let filled = false;
        const proxy = await startDeviceProxy(device.base, {
          before: (request, body) => {
            if (!filled && request.method === 'POST' && body.includes('"race.bin"')) {
              filled = true;
              device.setCapacity(device.running.context.storage.usedBytes + 100_000);
            }
          },
        });
        const pair = new SyncPair(device, { deviceUrl: proxy.base });
        try {
          await pair.sync();
          pair.writeLocal('race.bin', 'r'.repeat(1_000_000));
          const report = await pair.sync();
          expect(filled).toBe(true);
          const { freeBytes, totalBytes } = await storageOf(device);
          expect(fullIssues(report.issues)).toEqual([
            {
              kind: 'failed',
              remedy: 'needs-you',
              code: 'DEVICE_FULL',
              path: 'race.bin',
              message: heldWords('race.bin', 1_000_000, freeBytes, totalBytes),
            },
          ]);
          // The next pass knows: it does not send it.
          const again = await pair.syncCounting();
          expect(posts(again.requests)).toEqual([]);
          expect(fullIssues(again.report.issues).map((issue) => issue.path)).toEqual(['race.bin']);
          device.setCapacity(CAPACITY);
          expect((await pair.sync()).status).toBe('synced');
          expect((await pair.remoteAt('race.bin'))?.size).toBe(1_000_000);
        } finally {
          pair.close();
          await proxy.close();
        }
      },
      { capacityBytes: CAPACITY },
    );
  });

  it('in the live service: shows the free space, holds the file without sending it on every poll, and sends it by itself once the device has room', async () => {
    await withDevice(
      async (device) => {
        const live = new LivePair(device, { pollMs: 200 });
        try {
          live.pair.writeLocal('small.txt', 's'.repeat(10_000));
          live.pair.writeLocal('big.bin', 'b'.repeat(BIG));
          await live.start();
          const held = await waitFor('the held issue', () => {
            const issues = fullIssues(live.live.status().issues);
            return issues.length > 0 && live.live.status().state === 'idle' ? issues : undefined;
          });
          expect(held.map((issue) => issue.path)).toEqual(['big.bin']);
          await waitFor(
            'small.txt on the device',
            async () => (await live.pair.remoteAt('small.txt')) ?? undefined,
          );
          // The status carries the last pass's reading, and the issue its numbers: once small.txt is on
          // the device, a poll reads the space it left.
          const { freeBytes } = await storageOf(device);
          await waitFor('the status to show the free space', () => {
            const status = live.live.status();
            const issue = fullIssues(status.issues)[0];
            return status.device?.freeBytes === freeBytes &&
              issue?.message === heldWords('big.bin', BIG, freeBytes, CAPACITY)
              ? true
              : undefined;
          });
          expect(live.live.status().device?.totalBytes).toBe(CAPACITY);

          // Three more passes (polls) with the device as full: none sends it.
          const mark = live.mark();
          const passes = live.passes.length;
          await waitFor('three more polls', () => (live.passes.length >= passes + 3 ? true : undefined));
          expect(posts(live.requestsSince(mark))).toEqual([]);

          // Space is freed on the device; no one asks the service: its next poll reads it and sends.
          device.setCapacity(4 * CAPACITY);
          await live.waitUntilSynced('big.bin on the device');
          expect(fullIssues(live.live.status().issues)).toEqual([]);
          expect(live.live.status().device?.totalBytes).toBe(4 * CAPACITY);
        } finally {
          await live.close();
        }
      },
      { capacityBytes: CAPACITY },
    );
  });
});
