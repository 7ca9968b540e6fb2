// The device's space (issue #33): GET /sdk/v2/device/storage, and a capacity (`--capacity`) that refuses
// every kind of write past it with 507 INSUFFICIENT_STORAGE, changes nothing, and counts freed space.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startTestDevice, withDevice, type TestDevice } from '../../helpers/device.ts';
import { createFile, idFromLocation, postMultipart } from '../../helpers/multipart.ts';
import type { ListingResponse } from '../../../common/wire/device-api.ts';

interface Storage {
  totalBytes: number;
  freeBytes: number;
}

async function storageOf(device: TestDevice, user = 'alice'): Promise<Storage> {
  const response = await device.fetchAs(user, '/sdk/v2/device/storage');
  expect(response.status).toBe(200);
  return (await response.json()) as Storage;
}

async function rootNames(device: TestDevice): Promise<string[]> {
  const response = await device.fetchAs('alice', '/sdk/v2/filesSearch/parents?ids=root');
  return ((await response.json()) as ListingResponse).files.map((file) => file.name ?? '');
}

async function expectFull(response: Response): Promise<void> {
  expect(response.status).toBe(507);
  expect(((await response.json()) as { label: string }).label).toBe('INSUFFICIENT_STORAGE');
}

const bytes = (count: number): Buffer => Buffer.alloc(count, 7);

describe('GET /sdk/v2/device/storage', () => {
  it("answers the data folder's file system without a capacity", async () => {
    await withDevice(async (device) => {
      const { totalBytes, freeBytes } = await storageOf(device);
      expect(totalBytes).toBeGreaterThan(0);
      expect(freeBytes).toBeGreaterThanOrEqual(0);
      expect(freeBytes).toBeLessThanOrEqual(totalBytes);
    });
  });

  it('answers the capacity, less what is stored, to any user, and 401 without a token', async () => {
    await withDevice(
      async (device) => {
        expect(await storageOf(device)).toEqual({ totalBytes: 1_000_000, freeBytes: 1_000_000 });
        await createFile(device, 'a.bin', bytes(300_000));
        // One disk for everyone: bob sees alice's file take its room.
        expect(await storageOf(device, 'bob')).toEqual({ totalBytes: 1_000_000, freeBytes: 700_000 });
        expect((await fetch(`${device.sdk}/v2/device/storage`)).status).toBe(401);
      },
      { capacityBytes: 1_000_000 },
    );
  });
});

describe('a device with a capacity', () => {
  it('refuses a create that does not fit with 507, and keeps nothing of it', async () => {
    await withDevice(
      async (device) => {
        await createFile(device, 'fits.bin', bytes(600_000));
        await expectFull(await postMultipart(device, { name: 'big.bin', parentID: 'root' }, bytes(500_000)));
        expect(await rootNames(device)).toEqual(['fits.bin']);
        expect((await storageOf(device)).freeBytes).toBe(400_000);
        // What fits still goes.
        await createFile(device, 'small.bin', bytes(100_000));
        expect((await storageOf(device)).freeBytes).toBe(300_000);
      },
      { capacityBytes: 1_000_000 },
    );
  });

  it('refuses a streamed body (no Content-Length) when the byte that does not fit arrives', async () => {
    await withDevice(
      async (device) => {
        const file = await createFile(device, 'file.bin', bytes(100_000));
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let chunk = 0; chunk < 20; chunk++) controller.enqueue(bytes(64 * 1024));
            controller.close();
          },
        });
        // The device may cut the connection instead of answering: the body is still coming.
        const answer = await device
          .fetchAs('alice', `/sdk/v2/files/${file.id}/content`, {
            method: 'PUT',
            body,
            duplex: 'half',
          })
          .then(
            (response) => response.status,
            () => 'cut',
          );
        expect([507, 'cut']).toContain(answer);
        // The old content stands, and the refused bytes count for nothing.
        const content = await device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`);
        expect((await content.arrayBuffer()).byteLength).toBe(100_000);
        expect((await storageOf(device)).freeBytes).toBe(900_000);
      },
      { capacityBytes: 1_000_000 },
    );
  });

  it('refuses a resumable chunk past it, keeps the bytes received, and takes it once there is room', async () => {
    await withDevice(
      async (device) => {
        const started = await postMultipart(device, { name: 'up.bin', parentID: 'root' }, bytes(200_000), {
          path: '/sdk/v2/files/resumable',
          query: 'done=false',
        });
        expect(started.status).toBe(201);
        const id = idFromLocation(started);
        const put = (query: string): Promise<Response> =>
          device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content?${query}`, {
            method: 'PUT',
            body: bytes(400_000),
          });
        await expectFull(await put('done=true'));
        const received = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
        expect(((await received.json()) as { size: number }).size).toBe(200_000);
        expect((await storageOf(device)).freeBytes).toBe(300_000);
        expect(await rootNames(device)).toEqual([]);
        // The capacity grows while the device runs: the same chunk goes, the file is there.
        device.setCapacity(2_000_000);
        expect((await put('done=true')).status).toBe(204);
        expect(await rootNames(device)).toEqual(['up.bin']);
        expect(await storageOf(device)).toEqual({ totalBytes: 2_000_000, freeBytes: 1_400_000 });
      },
      { capacityBytes: 500_000 },
    );
  });

  it('counts a deleted file and replaced content as freed', async () => {
    await withDevice(
      async (device) => {
        const file = await createFile(device, 'a.bin', bytes(700_000));
        const replace = (size: number): Promise<Response> =>
          device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`, { method: 'PUT', body: bytes(size) });
        // Old and new content are both stored until the new one is in place.
        await expectFull(await replace(400_000));
        expect((await replace(200_000)).status).toBe(204);
        expect((await storageOf(device)).freeBytes).toBe(800_000);
        expect((await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, { method: 'DELETE' })).status).toBe(
          204,
        );
        // A delete's bytes may go in the background: wait for the outcome, not for a time.
        for (let tries = 0; (await storageOf(device)).freeBytes !== 1_000_000 && tries < 200; tries++) {
          await sleep(25);
        }
        expect(await storageOf(device)).toEqual({ totalBytes: 1_000_000, freeBytes: 1_000_000 });
      },
      { capacityBytes: 1_000_000 },
    );
  });

  it('counts what is stored across a restart', async () => {
    const first = await startTestDevice({ capacityBytes: 1_000_000 });
    await createFile(first, 'kept.bin', bytes(250_000));
    await first.stop({ keepData: true });
    await withDevice(
      async (device) => {
        expect(await storageOf(device)).toEqual({ totalBytes: 1_000_000, freeBytes: 750_000 });
      },
      { capacityBytes: 1_000_000, dataDir: first.dataDir },
    );
  });
});

describe('mch-device --capacity', () => {
  const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'mch-device.js');

  it('prints the capacity and changes it by a line on standard input', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mch-device-capacity-'));
    const child = spawn(process.execPath, [bin, '--port', '0', '--data', dataDir, '--capacity', '1MB'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const printed = async (pattern: RegExp): Promise<void> => {
      for (let waited = 0; !pattern.test(output); waited += 50) {
        if (waited > 15_000) throw new Error(`mch-device never printed ${pattern}:\n${output}`);
        await sleep(50);
      }
    };
    try {
      await printed(/^capacity: 1000000 bytes$/m);
      await printed(/Press Ctrl\+C/);
      child.stdin.write('capacity 2.5MB\n');
      await printed(/^mch-device: capacity 2500000 bytes$/m);
      child.stdin.write('capacity lots\n');
      await printed(/^mch-device: capacity takes a size such as 64MB/m);
      child.stdin.write('capacity off\n');
      await printed(/^mch-device: capacity off$/m);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops at a bad size with a message that names the option', async () => {
    const child = spawn(process.execPath, [bin, '--capacity', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
    expect(code).toBe(2);
    expect(output).toMatch(/^mch-device: --capacity takes a size such as 64MB/);
  });
});
