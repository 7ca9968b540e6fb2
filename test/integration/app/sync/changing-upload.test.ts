// Files rewritten while a pass sends them (issue 26): nothing torn reaches the device or another computer.
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import type { RequestSpec } from '../../../../app/api/http/transport.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import type { SyncPair } from '../../../helpers/sync-pair.ts';
import { tapUploads } from '../../../helpers/upload-tap.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
const CODE = 'LOCAL_CHANGED_DURING_UPLOAD';

/** The computer that uploads and a second one on the same device folder, which only downloads. */
function computers(newPair: NewPair): [SyncPair, SyncPair] {
  const first = newPair();
  const second = newPair({ remoteFolder: first.remoteFolder });
  return [first, second];
}

/** Every content the local file ever had: whatever the device or the second computer holds must be one. */
class Versions {
  readonly #hashes = new Set<string>();

  add(bytes: Buffer): void {
    this.#hashes.add(sha256(bytes));
  }

  has(bytes: Buffer): boolean {
    return this.#hashes.has(sha256(bytes));
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Each change leaves the file a new version of about the same size, so every try takes the same path. */
const CHANGES = {
  appended: (path: string) => appendFileSync(path, randomBytes(16)),
  rewritten: (path: string) => writeFileSync(path, randomBytes(statSync(path).size)),
  truncated: (path: string) => truncateSync(path, statSync(path).size - 100 * KIB),
  'replaced by rename': (path: string) => {
    writeFileSync(`${path}.new`, randomBytes(statSync(path).size));
    renameSync(`${path}.new`, path);
  },
} as const;
type Change = keyof typeof CHANGES;

/**
 * The three ways content goes up, the size that takes each, the request whose body the change lands in,
 * and (as `METHOD /path`) every request of that kind.
 */
const UPLOADS = {
  'a new file (multipart create)': {
    size: 3 * MIB,
    edit: false,
    carries: (spec: RequestSpec) => spec.method === 'POST' && spec.url.pathname === '/sdk/v2/files',
    kind: /^POST \/sdk\/v2\/files$/,
  },
  'an edit (content PUT)': {
    size: 3 * MIB,
    edit: true,
    carries: (spec: RequestSpec) => spec.method === 'PUT' && spec.url.pathname.endsWith('/content'),
    kind: /^PUT \/sdk\/v2\/files\/[^/]+\/content$/,
  },
  'a new file above the threshold (resumable upload)': {
    size: 9 * MIB,
    edit: false,
    carries: (spec: RequestSpec) =>
      spec.url.pathname.endsWith('/resumable/content') && spec.url.searchParams.get('offset') === '0',
    kind: /^PUT \/sdk\/v2\/files\/[^/]+\/resumable\/content$/,
  },
} as const;
type Upload = keyof typeof UPLOADS;

const CASES = (Object.keys(UPLOADS) as Upload[]).flatMap((upload) =>
  (Object.keys(CHANGES) as Change[]).map((change) => [upload, change] as const),
);

/** Polls `check` every 20 ms for up to 5 s. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if (check()) return true;
    await sleep(20);
  }
  return false;
}

/**
 * Changes the file once the device is storing the body (a create's or a PUT's temporary file), so the
 * cut lands in a request the device is handling; a resumable chunk goes straight to its upload.
 */
async function changeMidRequest(device: TestDevice, upload: Upload, change: () => void): Promise<void> {
  if (upload !== 'a new file above the threshold (resumable upload)') {
    expect(await eventually(() => readdirSync(join(device.dataDir, 'tmp')).length > 0)).toBe(true);
  }
  change();
}

/** The bytes of `path` on the device, or undefined when it holds no such file. */
async function remoteBytes(device: TestDevice, pair: SyncPair, path: string): Promise<Buffer | undefined> {
  const found = await pair.remoteAt(path);
  if (found === undefined) return undefined;
  const answer = await device.fetchAs('alice', `/sdk/v2/files/${found.id}/content`);
  return Buffer.from(await answer.arrayBuffer());
}

function localBytes(pair: SyncPair, path: string): Buffer | undefined {
  return existsSync(pair.local(path)) ? readFileSync(pair.local(path)) : undefined;
}

/** Writes a local file and records it as a version. */
function write(pair: SyncPair, versions: Versions, path: string, size: number): void {
  const bytes = randomBytes(size);
  writeFileSync(pair.local(path), bytes);
  versions.add(bytes);
}

describe('a file that keeps changing while every try of a pass sends it', () => {
  it.for(CASES)(
    '%s %s: never committed, reported retry, and sent once quiet',
    async ([upload, change], { device, newPair }) => {
      const { size, edit, carries } = UPLOADS[upload];
      const [first, second] = computers(newPair);
      const versions = new Versions();
      if (edit) {
        write(first, versions, 'data.bin', size);
        await first.sync();
        await second.sync();
      }
      const before = await remoteBytes(device, first, 'data.bin');
      write(first, versions, 'data.bin', size);

      let writing = true;
      const tap = tapUploads(first.client.transport, (spec) =>
        writing && carries(spec)
          ? {
              afterBytes: 512 * KIB,
              then: () =>
                changeMidRequest(device, upload, () => {
                  CHANGES[change](first.local('data.bin'));
                  versions.add(readFileSync(first.local('data.bin')));
                }),
            }
          : undefined,
      );
      const changing = await first.sync();
      expect(tap.paused).toBeGreaterThan(0);
      // The pass does not call the sides matched while the file waits to be sent again.
      expect(changing.status).toBe('errors');
      expect(changing.issues).toContainEqual(
        expect.objectContaining({ kind: 'retry', path: 'data.bin', code: CODE }),
      );
      // Nothing was committed: the device holds what it held before, and no resumable upload was finished.
      expect(tap.requests.filter((request) => request.includes('done=true'))).toEqual([]);
      expect(await remoteBytes(device, first, 'data.bin')).toEqual(before);
      // No row claims what the device does not hold (a create's id, an edit's hash).
      const row = first.index.byPath('data.bin');
      if (edit) expect(row?.contentHash).toBe(before === undefined ? undefined : sha256(before));
      else expect(row).toBeUndefined();
      await second.sync();
      const seen = localBytes(second, 'data.bin');
      if (seen !== undefined) expect(versions.has(seen)).toBe(true);

      writing = false;
      const quiet = await first.sync();
      expectSynced(quiet);
      expect(quiet.issues).toEqual([]);
      const final = readFileSync(first.local('data.bin'));
      expect((await remoteBytes(device, first, 'data.bin'))?.equals(final)).toBe(true);
      await second.sync();
      expect(localBytes(second, 'data.bin')?.equals(final)).toBe(true);
    },
  );
});

describe('a file changed once while it is sent', () => {
  it.for(Object.keys(UPLOADS) as Upload[])(
    '%s: the cut-off try is reported, and the same pass sends the quiet file',
    async (upload, { device, newPair }) => {
      const { size, edit, carries, kind } = UPLOADS[upload];
      const [first, second] = computers(newPair);
      const versions = new Versions();
      if (edit) {
        write(first, versions, 'data.bin', size);
        await first.sync();
        await second.sync();
      }
      write(first, versions, 'data.bin', size);
      let changes = 0;
      const tap = tapUploads(first.client.transport, (spec) =>
        changes === 0 && carries(spec)
          ? {
              afterBytes: 512 * KIB,
              then: () =>
                changeMidRequest(device, upload, () => {
                  changes += 1;
                  write(first, versions, 'data.bin', size);
                }),
            }
          : undefined,
      );
      const { report, writes } = await first.syncCounting();
      expect(changes).toBe(1);
      const reported = first.logLines.filter((line) => line.path === 'data.bin' && line.level === 'warn');
      expect(reported.map((line) => line.message.split(':')[0])).toEqual([CODE]);
      const final = readFileSync(first.local('data.bin'));
      expect((await remoteBytes(device, first, 'data.bin'))?.equals(final)).toBe(true);
      expect(report.issues).toEqual([]);
      // The cut-off request got no answer (all the others did), and no done=true followed it.
      const made = tap.requests.map((request) => request.split('?')[0] ?? '');
      expect(made.filter((request) => kind.test(request)).length).toBe(
        writes.filter((request) => kind.test(request)).length + 1,
      );
      expect(tap.requests.filter((request) => request.includes('done=true'))).toHaveLength(
        upload === 'a new file above the threshold (resumable upload)' ? 1 : 0,
      );
      expect(Object.keys(await first.remoteTree())).toEqual(['data.bin']);
      await second.sync();
      expect(localBytes(second, 'data.bin')?.equals(final)).toBe(true);
    },
  );
});

describe('a small file (read into memory) changed after it was read', () => {
  it('goes up as the version read, and the new version with the next pass', async ({ device, newPair }) => {
    const [first, second] = computers(newPair);
    const versions = new Versions();
    write(first, versions, 'small.bin', 1000);
    let changed = false;
    tapUploads(first.client.transport, (spec) => {
      // The body is in memory already: the change lands between the read and the request.
      if (!changed && spec.method === 'POST' && spec.url.pathname === '/sdk/v2/files') {
        changed = true;
        write(first, versions, 'small.bin', 1200);
      }
      return undefined;
    });
    const sent = await first.sync();
    expect(changed).toBe(true);
    const held = await remoteBytes(device, first, 'small.bin');
    expect(held !== undefined && versions.has(held)).toBe(true);
    await second.sync();
    const seen = localBytes(second, 'small.bin');
    expect(seen !== undefined && versions.has(seen)).toBe(true);
    // The index recorded the version that went up; the new one differs from it and goes next.
    expect(sent.counts.uploaded).toBe(1);
    await first.sync();
    const final = readFileSync(first.local('small.bin'));
    expect((await remoteBytes(device, first, 'small.bin'))?.equals(final)).toBe(true);
    await second.sync();
    expect(localBytes(second, 'small.bin')?.equals(final)).toBe(true);
  });
});
