// What an upload sends and the hash the index keeps, both read from the one version of the file the plan saw.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { SourceChangedError } from '../../../common/errors.ts';
import {
  assertUnchanged,
  assertUnchangedNow,
  isSettled,
  readRange,
  settledVersion,
  versionOf,
  type FileVersion,
} from '../../api/file-source.ts';
import type { ContentSource } from '../../api/device-client.ts';
import type { LocalEntry } from '../../model/items.ts';
import { isPlaceholder } from '../local/placeholders.ts';

/** Files up to this size are read once into memory: hashed and sent from the same bytes. */
export const READ_ONCE_BYTES = 1024 * 1024;

/** Whether the open file is the item the plan was made from (the scan knows no ctime or device). */
function isPlanned(version: FileVersion, expected: LocalEntry): boolean {
  return (
    version.ino.toString() === expected.inode &&
    version.size === BigInt(expected.size) &&
    version.mtimeNs === expected.mtimeNs
  );
}

/**
 * The content to send and its SHA-256, or undefined when the file is no longer what the plan saw. A
 * small file is read into memory through one descriptor and checked unchanged after the read, so the
 * bytes hashed are the bytes sent and one version. A larger one is hashed now and sent from the file
 * later, each read of the upload checked against the version hashed (file-source.ts). A file that
 * changes while it is read is a SourceChangedError. `open` is how the file is opened (tests pass one
 * that writes to the file between two reads).
 */
export async function readOneVersion(
  absolute: string,
  expected: LocalEntry,
  options: { signal?: AbortSignal | undefined; open?: typeof open } = {},
): Promise<{ content: ContentSource; contentHash: string } | undefined> {
  if (options.open === undefined && expected.size <= READ_ONCE_BYTES) {
    const read = readSmallNow(absolute, expected);
    if (read !== 'unsettled') return read;
  }
  const signal = options.signal;
  const handle = await (options.open ?? open)(absolute, 'r');
  try {
    const version = await settledVersion(handle, absolute);
    if (!isPlanned(version, expected)) return undefined;
    // A placeholder's bytes are zeros standing for the device's content: never sent. The pass reads a
    // placeholder as unchanged, so only a file made one since the plan gets here.
    if (isPlaceholder(handle.fd)) return undefined;
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    const inMemory = expected.size <= READ_ONCE_BYTES;
    for await (const chunk of readRange(handle, absolute, 0, expected.size, { signal, version })) {
      hash.update(chunk);
      if (inMemory) chunks.push(chunk);
    }
    // For a large file this only fails early: the upload's own reads check the version again.
    await assertUnchanged(absolute, version, handle);
    const contentHash = hash.digest('hex');
    if (inMemory) return { content: Buffer.concat(chunks, expected.size), contentHash };
    return { content: { path: absolute, size: expected.size, version }, contentHash };
  } finally {
    await handle.close();
  }
}

/**
 * readOneVersion of a small file with synchronous calls (the scan's way: a few pages from the page cache
 * cost less than the thread pool's round trips, of which the awaited path makes seven): the same checks,
 * one descriptor, the version checked again after the read. `unsettled` when the file changed within a
 * tick of the clock: the awaited path waits that tick out.
 */
function readSmallNow(
  absolute: string,
  expected: LocalEntry,
): { content: ContentSource; contentHash: string } | undefined | 'unsettled' {
  const fd = openSync(absolute, 'r');
  try {
    const version = versionOf(fstatSync(fd, { bigint: true }));
    if (!isPlanned(version, expected)) return undefined;
    if (!isSettled(version)) return 'unsettled';
    if (isPlaceholder(fd)) return undefined;
    const content = Buffer.allocUnsafe(expected.size);
    for (let position = 0; position < expected.size;) {
      const bytesRead = readSync(fd, content, position, expected.size - position, position);
      if (bytesRead === 0) {
        throw new SourceChangedError(
          `${absolute} is shorter than when its upload started (${position} of ${expected.size} bytes).`,
        );
      }
      position += bytesRead;
    }
    assertUnchangedNow(absolute, version, fd);
    return { content, contentHash: createHash('sha256').update(content).digest('hex') };
  } finally {
    closeSync(fd);
  }
}
