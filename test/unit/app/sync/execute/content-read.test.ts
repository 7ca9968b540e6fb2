// What an upload sends and the hash the index keeps: one version of the file the plan saw, or nothing.
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  lstatSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceChangedError } from '../../../../../common/errors.ts';
import { versionBytes } from '../../../../../app/api/file-source.ts';
import { READ_ONCE_BYTES, readOneVersion } from '../../../../../app/sync/execute/content-read.ts';
import { entryFromStats } from '../../../../../app/sync/local/local-paths.ts';
import type { LocalEntry } from '../../../../../app/model/items.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'mch-content-read-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A file and the scan's entry for it, written a minute ago (settled). */
function planned(size: number): { path: string; bytes: Buffer; entry: LocalEntry } {
  const path = join(folder, 'f.bin');
  const bytes = randomBytes(size);
  writeFileSync(path, bytes);
  utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const entry = entryFromStats('f.bin', lstatSync(path, { bigint: true }));
  if (entry === undefined) throw new Error('no entry');
  return { path, bytes, entry };
}

/** Opens files whose first read is followed by `change` (another program writing while we read). */
function openChangingAfterFirstRead(change: () => void): typeof open {
  return async (...args: Parameters<typeof open>) => {
    const handle: FileHandle = await open(...args);
    const read = handle.read.bind(handle) as (...a: unknown[]) => Promise<unknown>;
    let reads = 0;
    (handle as { read: unknown }).read = async (...readArgs: unknown[]) => {
      const result = await read(...readArgs);
      if ((reads += 1) === 1) change();
      return result;
    };
    return handle;
  };
}

const CHANGES = {
  appended: (path: string) => appendFileSync(path, 'x'),
  'rewritten in place': (path: string) => writeFileSync(path, randomBytes(statSync(path).size)),
  'replaced by rename': (path: string) => {
    writeFileSync(`${path}.new`, randomBytes(statSync(path).size));
    renameSync(`${path}.new`, path);
  },
} as const;

describe('readOneVersion', () => {
  it('reads a small file into memory and hashes exactly the bytes it will send', async () => {
    const { path, bytes, entry } = planned(READ_ONCE_BYTES);
    const read = await readOneVersion(path, entry);
    expect(read?.content).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(read?.content as Uint8Array).equals(bytes)).toBe(true);
    expect(read?.contentHash).toBe(sha256(bytes));
  });

  it('hashes a large file and hands it on pinned to the version hashed', async () => {
    const { path, bytes, entry } = planned(READ_ONCE_BYTES + 1);
    const read = await readOneVersion(path, entry);
    expect(read?.contentHash).toBe(sha256(bytes));
    const content = read?.content;
    if (content === undefined || content instanceof Uint8Array) throw new Error('expected a file source');
    expect(content.version?.ino.toString()).toBe(entry.inode);
    // Sent later from that version only: a change since the hash stops the upload.
    CHANGES['rewritten in place'](path);
    const chunks = versionBytes(content)[Symbol.asyncIterator]();
    await expect(chunks.next()).rejects.toBeInstanceOf(SourceChangedError);
  });

  it('answers undefined for a file that is not the one the plan saw (the round is planned again)', async () => {
    const { path, entry } = planned(1000);
    appendFileSync(path, 'more');
    expect(await readOneVersion(path, entry)).toBeUndefined();
  });

  it.for(Object.keys(CHANGES) as (keyof typeof CHANGES)[])(
    'refuses a small file %s while it is read into memory',
    async (change) => {
      const { path, entry } = planned(READ_ONCE_BYTES);
      await expect(
        readOneVersion(path, entry, { open: openChangingAfterFirstRead(() => CHANGES[change](path)) }),
      ).rejects.toBeInstanceOf(SourceChangedError);
    },
  );

  it('reads a settled small file at once, and answers undefined once it was replaced', async () => {
    const { path, bytes, entry } = planned(4000);
    // Past a tick of the file system's clock since its last change: the synchronous read takes it.
    await new Promise((resolve) => setTimeout(resolve, 40));
    const read = await readOneVersion(path, entry);
    expect(Buffer.from(read?.content as Uint8Array).equals(bytes)).toBe(true);
    expect(read?.contentHash).toBe(sha256(bytes));
    CHANGES['replaced by rename'](path);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await readOneVersion(path, entry)).toBeUndefined();
  });

  it('refuses a large file changed while it is hashed', async () => {
    const { path, entry } = planned(READ_ONCE_BYTES + 1);
    await expect(
      readOneVersion(path, entry, { open: openChangingAfterFirstRead(() => CHANGES.appended(path)) }),
    ).rejects.toBeInstanceOf(SourceChangedError);
  });
});
