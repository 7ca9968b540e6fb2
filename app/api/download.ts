// Downloads file content to a path via a temporary file in the same folder, resuming with Range after breaks.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError, ApiError, BadResponseError } from '../../common/errors.ts';
import { etagOf } from './answers.ts';
import { BodyWriter } from './body-writer.ts';
import type { DeviceEndpoint } from './device-endpoint.ts';
import { errorFromFailure } from './http/http-errors.ts';
import { idSegment } from './names.ts';
import { headerText, type Progress, type StreamResponse } from './http/transport.ts';

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /**
   * The version to download: every request carries `If-Match` with it, so a file changed since the
   * listing fails with PRECONDITION_FAILED instead of mixing versions. Without it, a change between
   * attempts restarts the download from byte 0 (`If-Range`).
   */
  eTag?: string;
  /**
   * The mode of the finished file (the partial file stays 0600 while it fills): the sync gives the one
   * the user's own new files get. Default: left at 0600.
   */
  mode?: number;
}

export interface DownloadResult {
  size: number;
  /** The version that was written. */
  eTag: string | undefined;
}

/**
 * Writing to the local file failed (a full or read-only disk): the file system's error, which no retry
 * of the request can fix, so it is never taken for a broken connection.
 */
class LocalWriteFailed extends Error {
  readonly failure: unknown;

  constructor(failure: unknown) {
    super('writing the download failed');
    this.failure = failure;
  }
}

/** Partial downloads are named so that the scanner can recognise and skip them. */
export const PARTIAL_SUFFIX = '.mch-partial';

/** The temporary file of a download to `targetPath`: same folder, so the rename never crosses file systems. */
export function partialPath(targetPath: string): string {
  return join(dirname(targetPath), `.${basename(targetPath)}${PARTIAL_SUFFIX}`);
}

/**
 * Downloads to `partialPath(targetPath)`, checks the length, flushes and renames into place. A
 * download that breaks off for good (cancelled, or the network gone) keeps its partial file when the
 * version is known, and a later call with the same `eTag` continues from its end. One that cannot be
 * written (a full disk) throws the file system's error and removes its partial file, freeing the space.
 */
export async function downloadFile(
  client: DeviceEndpoint,
  id: string,
  targetPath: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const what = `download ${id}`;
  const partial = partialPath(targetPath);
  // Without a known version, what is there cannot be trusted to be a prefix of anything.
  const file = await openPartial(partial, options.eTag !== undefined);
  let keep = false;
  try {
    const result = await fetchInto(client, id, file, what, options).catch((error: unknown) => {
      throw error instanceof LocalWriteFailed ? error.failure : error;
    });
    await file.sync();
    if (options.mode !== undefined) await file.chmod(options.mode);
    await file.close();
    await rename(partial, targetPath);
    return result;
  } catch (error) {
    keep =
      options.eTag !== undefined &&
      error instanceof ApiError &&
      (error.code === 'ABORTED' || error.transient);
    throw error;
  } finally {
    await file.close().catch(() => undefined);
    if (!keep) await rm(partial, { force: true });
  }
}

/**
 * Writes the content into the open `file` from byte 0, resuming with Range after breaks: an on-demand
 * pair's placeholder filled in place (app/on-demand/hydrator.ts), which is already as long as the content.
 * `eTag` is required: the bytes must all be of the version the placeholder stands for.
 */
export async function downloadInto(
  client: DeviceEndpoint,
  id: string,
  file: FileHandle,
  options: DownloadOptions & { eTag: string },
): Promise<DownloadResult> {
  const placeholder = (await file.stat()).size;
  const result = await fetchInto(client, id, file, `download ${id}`, options, 0).catch((error: unknown) => {
    throw error instanceof LocalWriteFailed ? error.failure : error;
  });
  // Content of another length would leave the file at the wrong size, or zeros past the bytes sent.
  if (result.size !== placeholder) {
    throw new BadResponseError(
      `The device sent ${result.size} bytes of ${id}, whose placeholder has ${placeholder}.`,
    );
  }
  return result;
}

/** The content of a small file, whole in memory, and the version it is. */
export interface ContentInMemory {
  content: Buffer;
  eTag: string | undefined;
}

/**
 * A small file's content read whole into memory: one buffered request on the transport's direct path
 * (no stream, no partial file), retried whole after a break as any GET. For files the caller knows to
 * be small (the listing's size); a larger answer than `maxBytes` is refused, not read. With `eTag` the
 * request carries `If-Match`, so another version fails with PRECONDITION_FAILED.
 */
export async function readContent(
  client: DeviceEndpoint,
  id: string,
  options: { eTag?: string; signal?: AbortSignal | undefined; maxBytes: number },
): Promise<ContentInMemory> {
  const what = `download ${id}`;
  const response = await client.transport.request({
    method: 'GET',
    url: client.url(`/sdk/v2/files/${idSegment(id)}/content`),
    what,
    headers: options.eTag === undefined ? {} : { 'if-match': options.eTag },
    raw: true,
    maxBodyBytes: options.maxBytes,
    signal: options.signal,
  });
  // Only a Range asks for a part: one never asked for is not the content.
  const length = headerText(response.headers['content-length']);
  if (response.kind !== 'ok' || (length !== undefined && Number(length) !== response.body.length)) {
    throw new BadResponseError(`The answer to "${what}" is not the whole content.`, {
      correlationId: response.correlationId,
    });
  }
  return { content: response.body, eTag: etagOf(response) ?? options.eTag };
}

/** Opens the partial file for positional writes ('a' would make Linux ignore the positions). */
async function openPartial(path: string, resume: boolean): Promise<FileHandle> {
  if (!resume) return open(path, 'w+', 0o600);
  // Creates it if missing without truncating it, then reopens it for writing anywhere.
  await (await open(path, 'a', 0o600)).close();
  return open(path, 'r+');
}

async function fetchInto(
  client: DeviceEndpoint,
  id: string,
  file: FileHandle,
  what: string,
  options: DownloadOptions,
  from?: number,
): Promise<DownloadResult> {
  const url = client.url(`/sdk/v2/files/${idSegment(id)}/content`);
  // A partial file continues from its end; a placeholder is filled from `from`.
  let offset = from ?? (await file.stat()).size;
  let total: number | undefined;
  let tag = options.eTag;
  // The retry budget covers one run of failures: a long download that keeps moving never runs out.
  let failures = 0;
  let failingSince = 0;
  for (;;) {
    const headers: Record<string, string> = {};
    if (options.eTag !== undefined) headers['if-match'] = options.eTag;
    if (offset > 0 && tag !== undefined) {
      headers['range'] = `bytes=${offset}-`;
      // Only the same version may continue; another one comes whole (200) and replaces the bytes so far.
      headers['if-range'] = tag;
    }
    const response = await client.transport.stream({
      method: 'GET',
      url,
      what,
      headers,
      raw: true,
      accept: ['range-not-satisfiable'],
      signal: options.signal,
    });
    if (response.kind === 'range-not-satisfiable') {
      response.body.destroy();
      if (offset === 0) {
        throw new BadResponseError(`The device refused a range that was never asked for (${what}).`, {
          correlationId: response.correlationId,
        });
      }
      // What we hold is no prefix of the current content: start over.
      offset = 0;
      await file.truncate(0);
      continue;
    }
    const start = startOf(response, offset);
    if (start === 0 && offset > 0) await file.truncate(0);
    offset = start;
    total = totalOf(response, start) ?? total;
    tag = etagOf(response) ?? tag;
    const progress = { offset };
    try {
      await copyBody(response.body, file, progress, total, options.onProgress);
      offset = progress.offset;
      break;
    } catch (error) {
      // What was written before the break stays, and the next request asks for the rest.
      offset = progress.offset;
      if (error instanceof BadResponseError || error instanceof LocalWriteFailed) throw error;
      const mapped = errorFromFailure(error, {
        what,
        details: { correlationId: response.correlationId },
        idempotent: true,
      }).error;
      if (mapped.code === 'ABORTED' || tag === undefined) throw mapped;
      if (progress.offset > start) failures = 0;
      if (failures === 0) failingSince = Date.now();
      failures += 1;
      const delay = client.transport.retryDelay(failures, failingSince);
      if (delay === undefined) throw mapped;
      try {
        await sleep(delay, undefined, { signal: options.signal });
      } catch {
        throw new AbortedError({ correlationId: response.correlationId });
      }
    }
  }
  const size = (await file.stat()).size;
  // Where the bytes ended, not only the file's size: a placeholder filled in place is long from the start.
  if ((total !== undefined && size !== total) || offset !== size) {
    throw new BadResponseError(`The download of ${id} ended at ${offset} of ${total ?? size} bytes.`);
  }
  return { size, eTag: tag };
}

/** Where the answer's bytes start: the Content-Range start of a 206, else 0. */
function startOf(response: StreamResponse, requested: number): number {
  if (response.kind !== 'partial') return 0;
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(
    headerText(response.headers['content-range'])?.trim() ?? '',
  );
  const start = range ? Number(range[1]) : NaN;
  if (start !== requested) {
    response.body.destroy();
    throw new BadResponseError(
      `Asked for bytes from ${requested}, the device sent ${headerText(response.headers['content-range']) ?? 'no Content-Range'}.`,
      {
        correlationId: response.correlationId,
      },
    );
  }
  return start;
}

/** The size of the whole content, from Content-Range (206) or Content-Length (200). */
function totalOf(response: StreamResponse, start: number): number | undefined {
  if (response.kind === 'partial') {
    const total = /\/(\d+)$/.exec(headerText(response.headers['content-range']) ?? '')?.[1];
    return total === undefined ? undefined : Number(total);
  }
  const length = headerText(response.headers['content-length']);
  return length !== undefined && /^\d+$/.test(length) ? start + Number(length) : undefined;
}

/**
 * Appends the body at `progress.offset`, moving it along as bytes reach the file (BodyWriter: chunks
 * gathered while a write runs). What arrived before a break is written before the break is thrown, so
 * a resumed request asks for exactly the rest. A body longer than announced is an error.
 */
async function copyBody(
  body: Readable,
  file: FileHandle,
  progress: { offset: number },
  total: number | undefined,
  onProgress: ((progress: Progress) => void) | undefined,
): Promise<void> {
  const writer = new BodyWriter(file, progress.offset, (written) => {
    progress.offset = written;
    onProgress?.({ bytesDone: written, bytesTotal: total });
  });
  const written = async (): Promise<void> => {
    try {
      await writer.flush();
    } catch (error) {
      body.destroy();
      throw new LocalWriteFailed(error);
    }
  };
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      if (total !== undefined && writer.received + buffer.length > total) {
        body.destroy();
        await written();
        throw new BadResponseError(`The device sent more than the ${total} bytes it announced.`);
      }
      await writer.add(buffer).catch(() => written());
    }
  } catch (error) {
    if (error instanceof LocalWriteFailed) throw error;
    await written();
    throw error;
  }
  await written();
  const position = progress.offset;
  if (total !== undefined && position < total) {
    // Ended early without an error (a close-delimited body): resumable like a reset.
    throw Object.assign(new Error(`The download stopped at ${position} of ${total} bytes.`), {
      code: 'ECONNRESET',
    });
  }
}
