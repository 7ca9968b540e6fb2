// Streams a `multipart/related` file-create body (device-api.md §3): JSON metadata first, then the content.
import type { WriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { MchError } from '../../common/errors.ts';
import { classifyLine, delimiterAtLineStart, findDelimiter } from './multipart-lines.ts';

/** The body or its Content-Type is not a multipart message this device understands; answer 400. */
export class MultipartError extends MchError {
  readonly label = 'BAD_MULTIPART';

  constructor(message: string, options?: { cause?: unknown }) {
    super('BAD_MULTIPART', 'Bad upload body', message, options);
  }
}

export type ContentSink = NodeJS.WritableStream | WriteStream;

export interface MultipartResult {
  /** Part 1, parsed as JSON; the route validates its shape. */
  metadata: unknown;
  /** True when a second part was present, even an empty one. */
  hasContent: boolean;
  contentBytes: number;
}

export interface MultipartOptions {
  /** Default 64 KiB. */
  maxMetadataBytes?: number;
}

const DEFAULT_MAX_METADATA_BYTES = 64 * 1024;
// Bounds on what has to be buffered before a decision can be made, so a hostile body cannot grow memory.
const MAX_HEADER_BYTES = 16 * 1024;

/** Reads the boundary parameter of a `multipart/*` Content-Type, quoted or not. */
export function boundaryFromContentType(contentType: string | undefined): string {
  const media = /^\s*([^\s/;]+)\s*\/\s*([^\s;]+)\s*(.*)$/s.exec(contentType ?? '');
  if (media?.[1]?.toLowerCase() !== 'multipart') {
    throw new MultipartError(
      `Content-Type must be multipart/related, got ${JSON.stringify(contentType ?? '')}`,
    );
  }
  // Each match starts at a `;`, and a quoted value is consumed whole, so `;boundary=` inside another
  // parameter's quoted value is never mistaken for the boundary parameter.
  const parameter = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/gs;
  for (const match of (media[3] ?? '').matchAll(parameter)) {
    if (match[1]?.toLowerCase() !== 'boundary') continue;
    const boundary = match[2] !== undefined ? match[2].replace(/\\(.)/gs, '$1') : (match[3] ?? '').trim();
    checkBoundary(boundary);
    return boundary;
  }
  throw new MultipartError('Content-Type has no boundary parameter');
}

function checkBoundary(boundary: string): void {
  if (boundary.length === 0 || /[\r\n]/.test(boundary)) {
    throw new MultipartError('the multipart boundary must be non-empty and on one line');
  }
}

/**
 * Parses a file-create body while it arrives. Part 1 (JSON metadata) is buffered up to
 * `maxMetadataBytes`; part 2, if present, is streamed into the sink from `openContentSink`, which is
 * called only then, with the parsed metadata, so the caller can refuse bad metadata before any content. On success the sink is ended and closed and the whole body (epilogue too) is read.
 * On failure the sink is destroyed and closed (so the caller can delete its file) and the promise
 * rejects: with a MultipartError for a malformed body, otherwise with the body's or the sink's own error.
 * A failed parse leaves the rest of the body unread and, for a Readable, not destroyed, so the caller
 * can still answer 400 (and should close the connection).
 *
 * Grammar accepted (RFC 2046, leniently): any preamble; delimiter lines `--boundary` followed by
 * optional spaces or tabs and CRLF or LF; `--boundary--` closes, with or without a line ending or
 * epilogue. Inside the body the line break before `--boundary` (CRLF or LF) belongs to the delimiter,
 * so a part's content never ends with that line break (and a CR before an LF delimiter is taken as
 * CRLF, so content in an LF body cannot end in CR). `--boundary` followed by anything else is content. A part may have headers (ended by a blank line)
 * or none: a blank line right after the delimiter line means "no headers", and so does a first line
 * that does not start like a header (`Name:`), in which case that line is already the part's body. The
 * one ambiguity is a header-less part whose content starts with `Name:`; it must send the blank line.
 */
export async function parseMultipartRelated(
  body: AsyncIterable<Buffer>,
  boundary: string,
  openContentSink: (metadata: unknown) => Promise<ContentSink>,
  options: MultipartOptions = {},
): Promise<MultipartResult> {
  checkBoundary(boundary);
  const maxMetadataBytes = options.maxMetadataBytes ?? DEFAULT_MAX_METADATA_BYTES;
  const reader = new PartReader(body, boundary);
  let sink: SinkWriter | undefined;
  try {
    const preambleClosed = await reader.readBody(ignore, `no "--${boundary}" line found in the body`);
    if (preambleClosed) throw new MultipartError('the body has no metadata part');

    await reader.readHeaders();
    const metadataChunks: Buffer[] = [];
    let metadataBytes = 0;
    const metadataClosed = await reader.readBody((chunk) => {
      metadataBytes += chunk.length;
      if (metadataBytes > maxMetadataBytes) {
        throw new MultipartError(`the metadata part is larger than ${maxMetadataBytes} bytes`);
      }
      metadataChunks.push(chunk);
    }, 'the body ended inside the metadata part');
    const metadata = parseMetadata(Buffer.concat(metadataChunks, metadataBytes));
    if (metadataClosed) {
      await reader.drain();
      return { metadata, hasContent: false, contentBytes: 0 };
    }

    await reader.readHeaders();
    sink = new SinkWriter(await openContentSink(metadata));
    let contentBytes = 0;
    const writer = sink;
    const contentClosed = await reader.readBody((chunk) => {
      contentBytes += chunk.length;
      return writer.write(chunk);
    }, 'the body ended before the closing boundary');
    if (!contentClosed) throw new MultipartError('the body has more than two parts');
    await sink.end();
    await reader.drain();
    return { metadata, hasContent: true, contentBytes };
  } catch (error) {
    await Promise.all([sink?.destroy(), reader.release()]);
    throw error;
  }
}

function ignore(): void {}

function parseMetadata(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new MultipartError(`the metadata part is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Pulls chunks on demand and keeps only the few bytes that cannot be classified yet. */
class PartReader {
  readonly #iterator: AsyncIterator<Buffer>;
  readonly #dashBoundary: Buffer;
  // `\n--boundary`; a CR before it is recognised separately so one search covers CRLF and LF bodies.
  readonly #needle: Buffer;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(body: AsyncIterable<Buffer>, boundary: string) {
    // A Readable's default iterator destroys the stream when abandoned, which would also kill the
    // socket the caller needs for its 400 answer.
    this.#iterator =
      body instanceof Readable
        ? (body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>)
        : body[Symbol.asyncIterator]();
    this.#dashBoundary = Buffer.from(`--${boundary}`, 'utf8');
    this.#needle = Buffer.from(`\n--${boundary}`, 'utf8');
  }

  /**
   * Passes a part's bytes to `onContent` up to the next delimiter, which it consumes; resolves to
   * true when that delimiter closes the message. Starts at a line start, where `--boundary` needs no
   * line break before it (the line break that ended the previous line stands in for it).
   */
  async readBody(onContent: (chunk: Buffer) => void | Promise<void>, truncated: string): Promise<boolean> {
    let atLineStart = true;
    for (;;) {
      const buffer = this.#buffer;
      if (atLineStart) {
        const tail = delimiterAtLineStart(buffer, this.#dashBoundary);
        if (tail.kind === 'delimiter') {
          this.#buffer = buffer.subarray(tail.after);
          return tail.close;
        }
        if (tail.kind === 'more') {
          await this.#pullOrFail(truncated);
          continue;
        }
        atLineStart = false;
      }
      const found = findDelimiter(buffer, this.#needle);
      const contentEnd = found.kind === 'delimiter' ? found.contentEnd : found.safeEnd;
      if (contentEnd > 0) await onContent(buffer.subarray(0, contentEnd));
      if (found.kind === 'delimiter') {
        this.#buffer = buffer.subarray(found.after);
        return found.close;
      }
      this.#buffer = buffer.subarray(contentEnd);
      await this.#pullOrFail(truncated);
    }
  }

  /** Skips a part's headers (their values are not needed) and stops where its body starts. */
  async readHeaders(): Promise<void> {
    let headerBytes = 0;
    let firstLine = true;
    for (;;) {
      const buffer = this.#buffer;
      const line = classifyLine(buffer, this.#dashBoundary, firstLine);
      if (line.kind === 'body') return;
      if (line.kind === 'blank') {
        this.#buffer = buffer.subarray(line.length);
        return;
      }
      if (line.kind === 'header') {
        headerBytes += line.length;
        this.#buffer = buffer.subarray(line.length);
        firstLine = false;
      }
      // An unfinished line counts too, so one endless header line cannot grow the buffer.
      const unfinished = line.kind === 'more' ? buffer.length : 0;
      if (headerBytes + unfinished > MAX_HEADER_BYTES) {
        throw new MultipartError(`a part's headers are longer than ${MAX_HEADER_BYTES} bytes`);
      }
      if (line.kind === 'more') await this.#pullOrFail('the body ended inside part headers');
    }
  }

  /** Reads and discards the epilogue so the request is fully consumed. */
  async drain(): Promise<void> {
    this.#buffer = Buffer.alloc(0);
    while (!(await this.#iterator.next()).done) {
      // The epilogue carries nothing this device uses.
    }
  }

  async release(): Promise<void> {
    try {
      await this.#iterator.return?.();
    } catch {
      // The parse failure is what the caller needs to see; releasing the body is best effort.
    }
  }

  async #pullOrFail(truncated: string): Promise<void> {
    const next = await this.#iterator.next();
    if (next.done === true) throw new MultipartError(truncated);
    const chunk = next.value;
    // The kept remainder is small (a partial delimiter at most), so this copy is cheap and rare.
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
  }
}

/** Writes to the content sink with backpressure and turns its 'error' events into rejections. */
class SinkWriter {
  // Held as the common interface: `on` and `off` are not callable on the ContentSink union.
  readonly #sink: NodeJS.WritableStream;
  #failure: Error | undefined;
  readonly #onError = (error: Error): void => {
    this.#failure ??= error;
  };

  constructor(sink: ContentSink) {
    this.#sink = sink;
    // Removed only after a clean close: an 'error' with no listener would crash the process.
    this.#sink.on('error', this.#onError);
  }

  async write(chunk: Buffer): Promise<void> {
    this.#throwIfFailed();
    if (this.#sink.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        this.#sink.off('drain', onDrain);
        this.#sink.off('error', onFailure);
        this.#sink.off('close', onClose);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => settle();
      const onFailure = (error: Error): void => settle(error);
      const onClose = (): void => settle(this.#failure ?? new Error('the content sink closed early'));
      this.#sink.on('drain', onDrain);
      this.#sink.on('error', onFailure);
      this.#sink.on('close', onClose);
      // A sink closed by someone else will never emit 'drain' or 'close' again.
      if (this.#sink instanceof Writable && this.#sink.closed) onClose();
    });
  }

  async end(): Promise<void> {
    this.#throwIfFailed();
    this.#sink.end();
    // finished() waits for 'close' on streams that emit it, so the file descriptor is closed too.
    await finished(this.#sink);
    this.#sink.off('error', this.#onError);
  }

  async destroy(): Promise<void> {
    const sink = this.#sink;
    if (sink instanceof Writable) {
      sink.destroy();
      // An fs.WriteStream may still be opening its file; once closed, the caller's unlink cannot race it.
      await finished(sink).catch(ignore);
    } else if ('destroy' in sink && typeof sink.destroy === 'function') {
      (sink.destroy as () => void)();
    }
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}
