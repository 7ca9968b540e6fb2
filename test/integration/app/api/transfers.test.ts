// Large transfers against the real device: resumable uploads and downloads that resume after breaks.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { partialPath } from '../../../../app/api/download.ts';
import { parseFaultSpec } from '../../../../device/faults.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { startCuttingProxy, type HostileServer } from '../../../helpers/hostile-server.ts';

const MIB = 1024 * 1024;
const BIG = randomBytes(20 * MIB + 12_345);

const extra: { stop(): Promise<void> }[] = [];
const proxies: HostileServer[] = [];

afterEach(async () => {
  await Promise.all(extra.splice(0).map((item) => item.stop()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

/** The bytes the device stores for `id`, read with a plain fetch (not the client under test). */
async function storedBytes(on: TestDevice, id: string): Promise<Buffer> {
  const response = await on.fetchAs('alice', `/sdk/v2/files/${id}/content`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('resumable upload', () => {
  it('uploads 20 MiB in chunks above the threshold and commits it byte-identical', async ({ device }) => {
    const { device: api, requests } = clientFor(device, { chunkBytes: 4 * MIB });
    const result = await api.upload({ name: 'big.bin', content: BIG });
    expect(result.size).toBe(BIG.length);
    expect((await storedBytes(device, result.id)).equals(BIG)).toBe(true);
    const sent = requests();
    expect(sent[0]).toBe('POST /sdk/v2/files/resumable');
    expect(sent.filter((request) => request.endsWith('/resumable/content'))).toHaveLength(7);
  });

  it('keeps going through dropped connections and lost answers (reset=0.15,lost=0.15) to an identical file', async ({
    tempDir,
  }) => {
    const faulty = await startTestDevice({
      faults: { spec: parseFaultSpec('reset=0.15,lost=0.15'), seed: 21 },
    });
    extra.push(faulty);
    const { device: api, requests } = clientFor(faulty, { chunkBytes: 2 * MIB });
    const result = await api.upload({ name: 'faulty.bin', content: BIG });
    // The client checked what the device kept after a break (GET .../resumable) and went on from there.
    expect(
      requests().filter((request) => request === `GET /sdk/v2/files/${result.id}/resumable`).length,
    ).toBeGreaterThan(0);
    const plain = clientFor(faulty).device;
    expect((await plain.getFile(result.id)).size).toBe(BIG.length);
    // Read back through the same faulty device: the download's own retries get it through.
    const target = join(tempDir, 'faulty-copy.bin');
    await plain.download(result.id, target);
    expect(readFileSync(target).equals(BIG)).toBe(true);
  });

  it('continues an upload cancelled mid-way from what the device kept', async ({ device }) => {
    const { device: api, requests } = clientFor(device, { chunkBytes: 2 * MIB });
    const controller = new AbortController();
    let uploadId: string | undefined;
    await expect(
      api.upload({
        name: 'resumed.bin',
        content: BIG,
        signal: controller.signal,
        onUploadStarted: (id) => (uploadId = id),
        onProgress: (progress) => {
          if (progress.bytesDone > 9 * MIB) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    if (uploadId === undefined) throw new Error('no upload id');
    // Invisible until committed.
    await expect(api.getFile(uploadId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const before = requests().length;
    const progress: number[] = [];
    const result = await api.upload({
      name: 'resumed.bin',
      content: BIG,
      resumeUploadId: uploadId,
      onProgress: (p) => progress.push(p.bytesDone),
    });
    expect(result.id).toBe(uploadId);
    expect(requests()[before]).toBe(`GET /sdk/v2/files/${uploadId}/resumable`);
    expect(Math.min(...progress)).toBeGreaterThanOrEqual(8 * MIB);
    expect((await storedBytes(device, uploadId)).equals(BIG)).toBe(true);
  });
});

describe('download resume', () => {
  it('resumes with Range after the connection breaks mid-body and ends byte-identical', async ({
    device,
    tempDir,
  }) => {
    const created = await clientFor(device).device.upload({ name: 'cut.bin', content: BIG });
    let cuts = 0;
    const proxy = await startCuttingProxy(device.base, (request) =>
      request.url.endsWith('/content') && cuts++ < 2 ? 3 * MIB : undefined,
    );
    proxies.push(proxy);
    const { device: api } = clientFor(device, { deviceUrl: proxy.base });
    const target = join(tempDir, 'cut.bin');
    const result = await api.download(created.id, target);
    expect(result).toEqual({ size: BIG.length, eTag: created.eTag });
    expect(readFileSync(target).equals(BIG)).toBe(true);
    const ranges = proxy.requests
      .filter((request) => request.url.endsWith('/content'))
      .map((request) => request.headers['range']);
    // Bytes in flight when the connection dropped are lost, so each resume starts a little before the cut.
    expect(ranges).toHaveLength(3);
    expect(ranges[0]).toBeUndefined();
    const starts = ranges.slice(1).map((range) => Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1]));
    expect(starts[0]).toBeGreaterThan(0);
    expect(starts[0]).toBeLessThanOrEqual(3 * MIB);
    expect(starts[1]).toBeGreaterThan(starts[0] ?? 0);
    expect(proxy.requests[1]?.headers['if-range']).toBe(created.eTag);
    expect(readdirSync(tempDir).filter((name) => name.endsWith('.mch-partial'))).toEqual([]);
  });

  it('keeps the partial file of a cancelled download and continues it with the same eTag', async ({
    device,
    tempDir,
  }) => {
    const { device: api } = clientFor(device);
    const created = await api.upload({ name: 'later.bin', content: BIG });
    const target = join(tempDir, 'later.bin');
    const controller = new AbortController();
    await expect(
      api.download(created.id, target, {
        eTag: created.eTag,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.bytesDone > 5 * MIB) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(existsSync(partialPath(target))).toBe(true);
    expect(existsSync(target)).toBe(false);
    const progress: number[] = [];
    await api.download(created.id, target, {
      eTag: created.eTag,
      onProgress: (p) => progress.push(p.bytesDone),
    });
    expect(Math.min(...progress)).toBeGreaterThan(5 * MIB);
    expect(readFileSync(target).equals(BIG)).toBe(true);
    expect(existsSync(partialPath(target))).toBe(false);
  });

  it('refuses a version that changed since the listing with PRECONDITION_FAILED and leaves no file', async ({
    device,
    tempDir,
  }) => {
    const { device: api } = clientFor(device);
    const created = await api.create({ name: 'moving.txt', content: Buffer.from('one') });
    await api.putContent(created.id, Buffer.from('two'));
    const target = join(tempDir, 'moving.txt');
    await expect(api.download(created.id, target, { eTag: created.eTag })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
    expect(existsSync(target)).toBe(false);
    expect(existsSync(partialPath(target))).toBe(false);
  });
});
