// Builds the `multipart/related` body of a create: JSON metadata, then optional content (device-api.md §3).
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { SourceChangedError } from '../../common/errors.ts';
import type { FileMetadataInput } from '../../common/wire/device-api.ts';

/** Content to send: bytes in memory, or a byte range of a local file read when sent. */
export type ContentSource = Uint8Array | { path: string; size: number };

export function sourceSize(source: ContentSource): number {
  return source instanceof Uint8Array ? source.byteLength : source.size;
}

/** A fresh stream of `length` bytes of the source from `start`, for each attempt of a request. */
export function sourceStream(
  source: ContentSource,
  start = 0,
  length = sourceSize(source) - start,
): Readable {
  if (source instanceof Uint8Array)
    return Readable.from([Buffer.from(source.subarray(start, start + length))]);
  if (length === 0) return Readable.from([]);
  return Readable.from(exactly(source.path, start, length));
}

/**
 * The bytes `[start, start + length)` of a file, failing if it ends before: a file that shrank while
 * it was being sent would leave the device waiting for bytes that never come.
 */
async function* exactly(path: string, start: number, length: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of createReadStream(path, { start, end: start + length - 1 })) {
    seen += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  if (seen < length) {
    throw new SourceChangedError(
      `${path} is shorter than when its upload started (${start + seen} of ${start + length} bytes).`,
    );
  }
}

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /** Where the content starts in the body, for progress in content bytes. */
  contentStart: number;
  /** A fresh stream of the whole body for each attempt. */
  open: () => Readable;
  /**
   * The whole body at once, when the content is in memory (or absent): sent in one write, where a
   * stream of four parts costs both ends several writes and reads per small file.
   */
  bytes: Buffer | undefined;
}

/** CRLF line ends and a random boundary that cannot occur in the JSON part. */
export function multipartBody(metadata: FileMetadataInput, content?: ContentSource): MultipartBody {
  const boundary = `mch-${randomBytes(16).toString('hex')}`;
  const metadataPart = Buffer.from(
    `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(metadata)}\r\n`,
  );
  const contentHead =
    content === undefined
      ? Buffer.alloc(0)
      : Buffer.from(`--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`${content === undefined ? '' : '\r\n'}--${boundary}--\r\n`);
  const contentLength =
    metadataPart.length +
    contentHead.length +
    (content === undefined ? 0 : sourceSize(content)) +
    tail.length;
  const bytes =
    content === undefined || content instanceof Uint8Array
      ? Buffer.concat([metadataPart, contentHead, content ?? Buffer.alloc(0), tail])
      : undefined;
  return {
    contentType: `multipart/related; boundary=${boundary}`,
    contentLength,
    contentStart: metadataPart.length + contentHead.length,
    bytes,
    open: () => {
      async function* parts(): AsyncGenerator<Buffer> {
        yield metadataPart;
        if (content !== undefined) {
          yield contentHead;
          for await (const chunk of sourceStream(content)) yield chunk as Buffer;
        }
        yield tail;
      }
      return Readable.from(parts());
    },
  };
}
