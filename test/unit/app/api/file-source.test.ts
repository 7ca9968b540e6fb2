// The stream guard of uploads: bytes of one version of a file, or a failure before the last of them.
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceChangedError } from '../../../../common/errors.ts';
import { pinVersion, READ_BYTES, versionBytes, type FileSource } from '../../../../app/api/file-source.ts';
import { multipartBody, sourceStream } from '../../../../app/api/multipart.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'mch-file-source-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const SIZE = 8 * READ_BYTES + 123;

function file(bytes = randomBytes(SIZE)): { path: string; bytes: Buffer } {
  const path = join(folder, 'f.bin');
  writeFileSync(path, bytes);
  // Older than one tick of the file system's clock: no wait for the file to settle.
  utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  return { path, bytes };
}

const CHANGES = {
  appended: (path: string) => appendFileSync(path, 'x'),
  'rewritten in place': (path: string) => writeFileSync(path, randomBytes(statSync(path).size)),
  truncated: (path: string) => truncateSync(path, 10),
  'replaced by rename': (path: string) => {
    writeFileSync(`${path}.new`, randomBytes(statSync(path).size));
    renameSync(`${path}.new`, path);
  },
  removed: (path: string) => unlinkSync(path),
} as const;

/** Reads chunks until the first one, changes the file, then reads on: what got through, and how it ended. */
async function readChangingAfterFirst(
  chunks: AsyncIterable<Buffer | string>,
  change: () => void,
): Promise<{ sent: Buffer; error: unknown }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const sent: Buffer[] = [];
  let error: unknown;
  try {
    const first = await iterator.next();
    if (first.done !== true) sent.push(Buffer.from(first.value));
    change();
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      sent.push(Buffer.from(next.value));
    }
  } catch (caught) {
    error = caught;
  }
  return { sent: Buffer.concat(sent), error };
}

describe('versionBytes', () => {
  it('gives every byte of a file that stays the same', async () => {
    const { path, bytes } = file();
    const source = await pinVersion({ path, size: SIZE });
    const { sent, error } = await readChangingAfterFirst(versionBytes(source), () => undefined);
    expect(error).toBeUndefined();
    expect(sent.equals(bytes)).toBe(true);
  });

  it.for(Object.keys(CHANGES) as (keyof typeof CHANGES)[])(
    'fails before its last bytes when the file is %s mid-read',
    async (change) => {
      const { path, bytes } = file();
      const source = await pinVersion({ path, size: SIZE });
      const { sent, error } = await readChangingAfterFirst(versionBytes(source), () => CHANGES[change](path));
      expect(error).toBeInstanceOf(SourceChangedError);
      expect((error as SourceChangedError).code).toBe('SOURCE_CHANGED');
      // Never the whole length: the reader of the body sees it cut short.
      expect(sent.length).toBeLessThan(SIZE);
      // And what got through was read from the file before it was checked: a prefix of some version.
      if (change === 'replaced by rename' || change === 'removed') {
        expect(sent.equals(bytes.subarray(0, sent.length))).toBe(true);
      }
    },
  );

  it('fails before its first byte when the file is not the pinned version any more', async () => {
    const { path } = file();
    const source = await pinVersion({ path, size: SIZE });
    CHANGES['rewritten in place'](path);
    const { sent, error } = await readChangingAfterFirst(versionBytes(source), () => undefined);
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.length).toBe(0);
  });

  it('fails before its first byte when the file does not have the size the request announces', async () => {
    const { path } = file();
    const { sent, error } = await readChangingAfterFirst(
      versionBytes({ path, size: SIZE + 1 }),
      () => undefined,
    );
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.length).toBe(0);
  });

  it('reads a range, holding its last chunk back until the check, for one chunk of a resumable upload', async () => {
    const { path, bytes } = file();
    const source = await pinVersion({ path, size: SIZE });
    const start = 2 * READ_BYTES + 7;
    const length = 3 * READ_BYTES;
    const { sent, error } = await readChangingAfterFirst(versionBytes(source, start, length), () =>
      CHANGES.appended(path),
    );
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.equals(bytes.subarray(start, start + sent.length))).toBe(true);
    expect(sent.length).toBeLessThan(length);
  });

  it('stops a long read within a few MiB of a change, not at its end', async () => {
    const { path } = file(randomBytes(16 * 1024 * 1024));
    const source = await pinVersion({ path, size: 16 * 1024 * 1024 });
    const { sent, error } = await readChangingAfterFirst(versionBytes(source), () => CHANGES.appended(path));
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.length).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('waits for a file written this very moment to settle, then reads it', async () => {
    const path = join(folder, 'fresh.bin');
    const bytes = randomBytes(1000);
    writeFileSync(path, bytes);
    const { sent, error } = await readChangingAfterFirst(versionBytes({ path, size: 1000 }), () => undefined);
    expect(error).toBeUndefined();
    expect(sent.equals(bytes)).toBe(true);
  });
});

describe('the bodies built on it', () => {
  it('a content stream (PUT, resumable chunk) errors instead of ending short', async () => {
    const { path } = file();
    const source: FileSource = await pinVersion({ path, size: SIZE });
    const { sent, error } = await readChangingAfterFirst(sourceStream(source), () =>
      CHANGES['rewritten in place'](path),
    );
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.length).toBeLessThan(SIZE);
  });

  it('a multipart create never sends its closing boundary after a change', async () => {
    const { path } = file();
    const source = await pinVersion({ path, size: SIZE });
    const body = multipartBody({ name: 'f.bin' }, source);
    const boundary = body.contentType.split('boundary=')[1] ?? '';
    const { sent, error } = await readChangingAfterFirst(body.open(), () => CHANGES.appended(path));
    expect(error).toBeInstanceOf(SourceChangedError);
    expect(sent.length).toBeLessThan(body.contentLength);
    expect(sent.includes(`--${boundary}--`)).toBe(false);
  });

  it('a multipart create of a file that stays the same ends with its closing boundary', async () => {
    const { path, bytes } = file();
    const body = multipartBody({ name: 'f.bin' }, await pinVersion({ path, size: SIZE }));
    const { sent, error } = await readChangingAfterFirst(body.open(), () => undefined);
    expect(error).toBeUndefined();
    expect(sent.length).toBe(body.contentLength);
    expect(sent.subarray(body.contentStart, body.contentStart + SIZE).equals(bytes)).toBe(true);
  });
});
