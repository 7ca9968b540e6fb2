// SHA-256 of a local file's content, streamed.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** Hex SHA-256 of the file at `path`. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash, signal === undefined ? {} : { signal });
  return hash.digest('hex');
}
