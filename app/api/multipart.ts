// Builds the `multipart/related` body of a create: JSON metadata, then optional content (device-api.md §3).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileMetadataInput } from '../../common/wire/device-api.ts';
import { versionBytes, type FileSource } from './file-source.ts';

/** Content to send: bytes in memory, or a byte range of a local file read when sent (file-source.ts). */
export type ContentSource = Uint8Array | FileSource;

export function sourceSize(source: ContentSource): number {
  return source instanceof Uint8Array ? source.byteLength : source.size;
}

/**
 * A fresh stream of `length` bytes of the source from `start`, for each attempt of a request. A file's
 * bytes are of one version, or the stream fails before its last bytes (file-source.ts).
 */
export function sourceStream(
  source: ContentSource,
  start = 0,
  length = sourceSize(source) - start,
): Readable {
  if (source instanceof Uint8Array)
    return Readable.from([Buffer.from(source.subarray(start, start + length))]);
  // A byte stream buffers bytes, not chunks: what is read ahead of the socket stays small.
  return Readable.from(versionBytes(source, start, length), { objectMode: false });
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

/**
 * CRLF line ends and a random boundary that cannot occur in the JSON part: 122 random bits of a UUID,
 * which Node draws from a cached batch (a synchronous `randomBytes` per file cost a first upload more).
 */
export function multipartBody(metadata: FileMetadataInput, content?: ContentSource): MultipartBody {
  const boundary = `mch-${randomUUID()}`;
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
          // A file that changed while read fails here, before the closing boundary: the device
          // then sees a body cut short and stores nothing (device-api.md §3).
          if (content instanceof Uint8Array) yield Buffer.from(content);
          else yield* versionBytes(content);
        }
        yield tail;
      }
      return Readable.from(parts(), { objectMode: false });
    },
  };
}
