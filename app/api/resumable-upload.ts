// Uploads a large file in chunks (device-api.md §3 "Resumable upload"), continuing after interruptions.
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError, ApiError } from '../../common/errors.ts';
import type { FileMetadataInput } from '../../common/wire/device-api.ts';
import { etagOf, idFromLocation, parseJson } from './answers.ts';
import type { DeviceEndpoint } from './device-endpoint.ts';
import { fileFromAnswer } from './file-requests.ts';
import { resumableStatusSchema } from './device-schemas.ts';
import { assertUnchanged, pinVersion } from './file-source.ts';
import { multipartBody, sourceSize, sourceStream, type ContentSource } from './multipart.ts';
import { idSegment } from './names.ts';
import type { Progress } from './http/transport.ts';

export interface UploadOptions {
  /** Continue this unfinished upload (an id given to `onUploadStarted` earlier) instead of starting anew. */
  resumeUploadId?: string;
  /** Receives the id of a new resumable upload, so that it can be continued after a restart. */
  onUploadStarted?: (uploadId: string) => void;
}

export interface UploadResult {
  id: string;
  eTag: string | undefined;
  size: number;
}

export interface ResumableInput extends UploadOptions {
  metadata: FileMetadataInput;
  content: ContentSource;
  resolveNameConflict?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** Failures after which the upload goes on from what the device has received. */
function isInterruption(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  // Another request of ours may still be finishing on the device (docs/device.md: 409 UPLOAD_BUSY).
  if (error.code === 'CONFLICT' && error.label === 'UPLOAD_BUSY') return true;
  return error.code === 'OUTCOME_UNKNOWN' || error.transient;
}

export async function uploadFile(client: DeviceEndpoint, input: ResumableInput): Promise<UploadResult> {
  const size = sourceSize(input.content);
  const name = input.metadata.name ?? '';
  // Every chunk is read from this one version of the file, and it is committed only while the file is
  // still that version: a file that changed meanwhile is never committed (its upload is dropped).
  const content = input.content instanceof Uint8Array ? input.content : await pinVersion(input.content);
  const id = input.resumeUploadId ?? (await startUpload(client, input));
  if (input.resumeUploadId === undefined) input.onUploadStarted?.(id);
  const base = `/sdk/v2/files/${idSegment(id)}/resumable`;
  // The retry budget covers one run of failures: a long upload that keeps moving never runs out.
  let failures = 0;
  let failingSince = 0;
  const moved = (): void => {
    failures = 0;
  };
  // Waits before continuing after an interruption, or gives up with it.
  const pause = async (error: ApiError): Promise<void> => {
    if (failures === 0) failingSince = Date.now();
    failures += 1;
    const delay = client.transport.retryDelay(failures, failingSince);
    if (delay === undefined) throw error;
    try {
      await sleep(delay, undefined, { signal: input.signal });
    } catch {
      throw new AbortedError({ correlationId: error.correlationId });
    }
  };
  const received = async (): Promise<number> => {
    const what = `check the upload of ${JSON.stringify(name)}`;
    const response = await client.send({ method: 'GET', url: client.url(base), what, signal: input.signal });
    return parseJson(response, resumableStatusSchema, what).size;
  };

  try {
    let offset = input.resumeUploadId === undefined ? 0 : await received();
    while (offset < size) {
      const start = offset;
      const length = Math.min(client.chunkBytes, size - start);
      try {
        await client.send({
          method: 'PUT',
          url: client.url(`${base}/content`, { offset: start }),
          what: `upload ${JSON.stringify(name)}`,
          body: () => sourceStream(content, start, length),
          contentType: 'application/octet-stream',
          contentLength: length,
          // Not repeated blindly: after a break the device says how much it kept, and we go on from there.
          idempotent: false,
          signal: input.signal,
          onUploadProgress: input.onProgress
            ? (progress) => input.onProgress?.({ bytesDone: start + progress.bytesDone, bytesTotal: size })
            : undefined,
        });
        offset = start + length;
        moved();
      } catch (error) {
        if (!isInterruption(error)) throw error;
        await pause(error);
        const kept = await received();
        if (kept > start) moved();
        offset = kept;
        // The device never holds more than was sent; more would mean another writer: start over then.
        if (offset > size) offset = 0;
      }
    }
    if (!(content instanceof Uint8Array)) await assertUnchanged(content.path, content.version);
    input.onProgress?.({ bytesDone: size, bytesTotal: size });
    return { id, size, eTag: await commit(client, id, base, name, size, input, pause) };
  } catch (error) {
    // A refusal (a name taken meanwhile, a permission) or a file that changed ends the upload; an
    // interruption keeps it to resume.
    if (error instanceof ApiError && error.code !== 'ABORTED' && !isInterruption(error)) {
      await dropUpload(client, base, name);
    }
    throw error;
  }
}

/**
 * Deletes an unfinished upload, best effort: one left behind stays invisible. A chunk this client just
 * cut short may still be ending on the device (409 UPLOAD_BUSY), so that answer is waited out a few times.
 */
async function dropUpload(client: DeviceEndpoint, base: string, name: string): Promise<void> {
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.send({
        method: 'DELETE',
        url: client.url(base),
        what: `drop the upload of ${JSON.stringify(name)}`,
      });
      return;
    } catch (error) {
      const busy = error instanceof ApiError && error.code === 'CONFLICT' && error.label === 'UPLOAD_BUSY';
      const delay = busy ? client.transport.retryDelay(attempt, startedAt) : undefined;
      if (delay === undefined) return;
      await sleep(delay);
    }
  }
}

async function startUpload(client: DeviceEndpoint, input: ResumableInput): Promise<string> {
  const what = `start uploading ${JSON.stringify(input.metadata.name ?? '')}`;
  const body = multipartBody(input.metadata);
  const response = await client.send({
    method: 'POST',
    url: client.url('/sdk/v2/files/resumable', {
      done: 'false',
      resolveNameConflict: input.resolveNameConflict ? 'true' : undefined,
    }),
    what,
    body: body.open,
    contentType: body.contentType,
    contentLength: body.contentLength,
    // An unfinished upload is invisible (device-api.md §3), so a second start after a lost answer
    // leaves only an orphan on the device, never a duplicate file.
    idempotent: true,
    signal: input.signal,
  });
  return idFromLocation(response, what);
}

/** `done=true`; after a lost answer, the file being there with the full size means it was committed. */
async function commit(
  client: DeviceEndpoint,
  id: string,
  base: string,
  name: string,
  size: number,
  input: ResumableInput,
  pause: (error: ApiError) => Promise<void>,
): Promise<string | undefined> {
  for (;;) {
    try {
      const response = await client.send({
        method: 'PUT',
        url: client.url(`${base}/content`, { done: 'true' }),
        what: `finish uploading ${JSON.stringify(name)}`,
        body: new Uint8Array(),
        contentType: 'application/octet-stream',
        signal: input.signal,
      });
      return etagOf(response);
    } catch (error) {
      if (!isInterruption(error)) throw error;
      await pause(error);
      try {
        const what = `check the upload of ${JSON.stringify(name)}`;
        const file = fileFromAnswer(
          await client.send({
            method: 'GET',
            url: client.url(`/sdk/v2/files/${idSegment(id)}`),
            what,
            signal: input.signal,
          }),
          what,
        );
        if (file.size === size) return file.eTag;
      } catch (lookupError) {
        // Not visible yet: the commit did not happen, so it is sent again.
        if (!(lookupError instanceof ApiError) || lookupError.code !== 'NOT_FOUND') throw lookupError;
      }
    }
  }
}
