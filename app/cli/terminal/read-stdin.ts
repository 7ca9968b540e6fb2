// Reads a secret piped on stdin (`--password-stdin`), so it never appears in the process list or shell history.
import type { Readable } from 'node:stream';

/** Stdin above this is not a password; stop reading rather than fill memory. */
const MAX_SECRET_BYTES = 64 * 1024;

/** All of stdin as text, without the one line ending that `echo` adds. */
export async function readSecretFromStdin(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_SECRET_BYTES) throw new Error(`stdin holds more than ${MAX_SECRET_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
