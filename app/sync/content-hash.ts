// SHA-256 of a local file's content (streamed, or from memory for small files read once for upload).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { ContentSource } from '../api/device-client.ts';

/** Files up to this size are read once into memory: hashed and sent from the same bytes. */
const READ_ONCE_BYTES = 1024 * 1024;

/** Hex SHA-256 of the file at `path`. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash, signal === undefined ? {} : { signal });
  return hash.digest('hex');
}

/**
 * What an upload sends and the hash the index records. A small file is read once (the bytes sent are
 * the bytes hashed); a large one is hashed as a stream and sent from the file. Undefined when the file
 * no longer has `size` bytes.
 */
export async function contentToSend(
  path: string,
  size: number,
  signal?: AbortSignal,
): Promise<{ content: ContentSource; contentHash: string } | undefined> {
  if (size > READ_ONCE_BYTES) return { content: { path, size }, contentHash: await hashFile(path, signal) };
  const bytes = await readFile(path, signal === undefined ? {} : { signal });
  if (bytes.byteLength !== size) return undefined;
  return { content: bytes, contentHash: createHash('sha256').update(bytes).digest('hex') };
}
