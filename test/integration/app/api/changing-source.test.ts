// A file that changes while the client sends it: every upload path is cut off and the device keeps none of it.
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, statSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { pinVersion } from '../../../../app/api/file-source.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { tapUploads } from '../../../helpers/upload-tap.ts';

const KIB = 1024;
const MIB = 1024 * KIB;

/** The ways a file changes under a reader; each leaves a version the reader did not start with. */
const CHANGES = {
  appended: (path: string) => appendFileSync(path, 'more'),
  rewritten: (path: string) => writeFileSync(path, randomBytes(statSync(path).size)),
  truncated: (path: string) => truncateSync(path, 1000),
  'replaced by rename': (path: string) => {
    writeFileSync(`${path}.new`, randomBytes(statSync(path).size));
    renameSync(`${path}.new`, path);
  },
} as const;
const CHANGE_NAMES = Object.keys(CHANGES) as (keyof typeof CHANGES)[];

let files = 0;
function localFile(tempDir: string, size: number): { path: string; bytes: Buffer } {
  const path = join(tempDir, `f${(files += 1)}.bin`);
  const bytes = randomBytes(size);
  writeFileSync(path, bytes);
  return { path, bytes };
}

async function stored(device: TestDevice, id: string): Promise<Buffer> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Polls `check` every 20 ms for up to 5 s. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if (check()) return true;
    await sleep(20);
  }
  return false;
}

/** Bodies the device is receiving right now: each is written to a temporary file until it ends. */
const temporaryFiles = (device: TestDevice): number => readdirSync(join(device.dataDir, 'tmp')).length;

/** Changes the file once the device is storing the body, so the cut lands in a request it is handling. */
async function changeMidRequest(device: TestDevice, change: () => void): Promise<void> {
  expect(await eventually(() => temporaryFiles(device) > 0)).toBe(true);
  change();
}

describe('a multipart create of a file that changes while it is sent', () => {
  it.for(CHANGE_NAMES)(
    '%s: fails with SOURCE_CHANGED and the device creates nothing',
    async (change, { device, tempDir }) => {
      const client = clientFor(device);
      const { path } = localFile(tempDir, 3 * MIB);
      const tap = tapUploads(client.transport, () => ({
        afterBytes: 512 * KIB,
        then: () => changeMidRequest(device, () => CHANGES[change](path)),
      }));
      const name = `create-${change}.bin`;
      await expect(client.device.create({ name, content: { path, size: 3 * MIB } })).rejects.toMatchObject({
        code: 'SOURCE_CHANGED',
      });
      expect(tap.paused).toBe(1);
      // Not retried: a create is sent once.
      expect(tap.requests).toEqual(['POST /sdk/v2/files']);
      // The device has ended the cut-off request, and kept nothing of it.
      expect(await eventually(() => temporaryFiles(device) === 0)).toBe(true);
      expect(await client.device.findByName('root', name)).toBeUndefined();
    },
  );

  it('goes through, byte for byte, when the file stays the same', async ({ device, tempDir }) => {
    const client = clientFor(device);
    const { path, bytes } = localFile(tempDir, 3 * MIB);
    const tap = tapUploads(client.transport, () => ({ afterBytes: 512 * KIB, then: () => undefined }));
    const created = await client.device.create({
      name: 'create-quiet.bin',
      content: { path, size: 3 * MIB },
    });
    expect(tap.paused).toBe(1);
    expect((await stored(device, created.id)).equals(bytes)).toBe(true);
  });
});

describe('a content PUT of a file that changes while it is sent', () => {
  it.for(CHANGE_NAMES)(
    '%s: fails with SOURCE_CHANGED and the device keeps its version',
    async (change, { device, tempDir }) => {
      const client = clientFor(device);
      const before = await client.device.create({ name: `put-${change}.bin`, content: Buffer.from('old') });
      const { path } = localFile(tempDir, 3 * MIB);
      let changes = 0;
      const tap = tapUploads(client.transport, () => ({
        afterBytes: 512 * KIB,
        then: () =>
          changeMidRequest(device, () => {
            changes += 1;
            CHANGES[change](path);
          }),
      }));
      // Pinned as the sync engine pins it, so that a second try cannot send the new version instead.
      const content = await pinVersion({ path, size: 3 * MIB });
      await expect(
        client.device.putContent(before.id, content, { ifMatch: before.eTag }),
      ).rejects.toMatchObject({ code: 'SOURCE_CHANGED' });
      // Not tried again, though a guarded PUT may be: a file that changed is not sent again at once.
      expect(changes).toBe(1);
      expect(tap.requests.filter((request) => request.startsWith('PUT '))).toHaveLength(1);
      expect(
        client.log.filter((entry) => entry.request.startsWith('PUT ')).map((entry) => entry.attempt),
      ).toEqual([1]);
      expect(await eventually(() => temporaryFiles(device) === 0)).toBe(true);
      expect((await stored(device, before.id)).toString()).toBe('old');
      expect((await client.device.getFile(before.id)).eTag).toBe(before.eTag);
    },
  );
});

describe('a resumable upload of a file that changes while it is sent', () => {
  const options = { resumableThresholdBytes: MIB, chunkBytes: MIB };
  const size = 3 * MIB + 5 * KIB;

  /** Every request of the upload to the device, with its query; no `done=true` among them. */
  function commits(requests: string[]): string[] {
    return requests.filter((request) => request.includes('done=true'));
  }

  it.for(CHANGE_NAMES)(
    '%s in the middle of a chunk: never committed, and the unfinished upload is dropped',
    async (change, { device, tempDir }) => {
      const client = clientFor(device, options);
      const { path } = localFile(tempDir, size);
      let uploadId: string | undefined;
      const tap = tapUploads(client.transport, (spec) =>
        spec.url.searchParams.get('offset') === String(MIB)
          ? { afterBytes: 512 * KIB, then: () => CHANGES[change](path) }
          : undefined,
      );
      await expect(
        client.device.upload({
          name: `resumable-${change}.bin`,
          content: { path, size },
          onUploadStarted: (id) => (uploadId = id),
        }),
      ).rejects.toMatchObject({ code: 'SOURCE_CHANGED' });
      expect(tap.paused).toBe(1);
      expect(commits(tap.requests)).toEqual([]);
      if (uploadId === undefined) throw new Error('no upload started');
      expect(tap.requests.at(-1)).toBe(`DELETE /sdk/v2/files/${uploadId}/resumable`);
      await expect(client.device.getFile(uploadId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await client.device.findByName('root', `resumable-${change}.bin`)).toBeUndefined();
    },
  );

  it('changed between two chunks: the next chunk fails before it sends a byte of the new version', async ({
    device,
    tempDir,
  }) => {
    const client = clientFor(device, options);
    const { path } = localFile(tempDir, size);
    const tap = tapUploads(client.transport, (spec) => {
      // The change lands once the first chunk is on the device and before the second is read.
      if (spec.url.searchParams.get('offset') === String(MIB)) CHANGES.rewritten(path);
      return undefined;
    });
    await expect(
      client.device.upload({ name: 'resumable-between.bin', content: { path, size } }),
    ).rejects.toMatchObject({ code: 'SOURCE_CHANGED' });
    expect(commits(tap.requests)).toEqual([]);
    expect(await client.device.findByName('root', 'resumable-between.bin')).toBeUndefined();
  });

  it('changed after its last chunk was read: no done=true, the upload is dropped', async ({
    device,
    tempDir,
  }) => {
    const client = clientFor(device, options);
    const { path } = localFile(tempDir, size);
    const lastOffset = String(3 * MIB);
    const tap = tapUploads(client.transport, (spec) =>
      spec.url.searchParams.get('offset') === lastOffset
        ? // One byte before the end, the reader has checked the file and let its last chunk go.
          { afterBytes: 5 * KIB - 1, then: () => CHANGES.appended(path) }
        : undefined,
    );
    await expect(
      client.device.upload({ name: 'resumable-at-commit.bin', content: { path, size } }),
    ).rejects.toMatchObject({ code: 'SOURCE_CHANGED' });
    expect(tap.paused).toBe(1);
    // Every chunk went up whole; only the commit was not sent.
    expect(tap.requests.filter((request) => request.includes('/resumable/content?offset='))).toHaveLength(4);
    expect(commits(tap.requests)).toEqual([]);
    expect(await client.device.findByName('root', 'resumable-at-commit.bin')).toBeUndefined();
  });

  it('commits every chunk of one version when the file stays the same', async ({ device, tempDir }) => {
    const client = clientFor(device, options);
    const { path, bytes } = localFile(tempDir, size);
    const tap = tapUploads(client.transport, () => ({ afterBytes: 512 * KIB, then: () => undefined }));
    const result = await client.device.upload({ name: 'resumable-quiet.bin', content: { path, size } });
    // The last chunk (5 KiB) ends before the pause point.
    expect(tap.paused).toBe(3);
    expect(commits(tap.requests)).toHaveLength(1);
    expect((await stored(device, result.id)).equals(bytes)).toBe(true);
  });
});
