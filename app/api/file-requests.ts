// What the file calls of the device client take, and how they become request bodies (device-api.md §3).
import { BadResponseError } from '../../common/errors.ts';
import type { FileMetadataInput, HiddenValue } from '../../common/wire/device-api.ts';
import { ROOT_ALIAS } from '../../common/wire/device-api.ts';
import { etagOf, msToWireTime, parseJson } from './answers.ts';
import { fileSchema, toRemoteFile, type RemoteFile } from './device-schemas.ts';
import { sourceSize, type ContentSource } from './multipart.ts';
import { checkName } from './names.ts';
import type { ApiResponse, Progress } from './http/transport.ts';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /** The eTag the change is based on; the device refuses it (PRECONDITION_FAILED) if the item changed. */
  ifMatch?: string;
}

export interface CreateInput extends CallOptions {
  parentId?: string;
  name: string;
  mimeType?: string;
  /** Milliseconds since the epoch; sent as ISO 8601 UTC with milliseconds. */
  mTimeMs?: number;
  cTimeMs?: number;
  hidden?: HiddenValue;
  /** Take `name (1).ext`... instead of failing with CONFLICT on a clash. */
  resolveNameConflict?: boolean;
  content?: ContentSource;
  onProgress?: (progress: Progress) => void;
}

export interface PatchInput {
  name?: string;
  parentId?: string;
  mimeType?: string;
  mTimeMs?: number;
  cTimeMs?: number;
  hidden?: HiddenValue;
}

export interface Created {
  id: string;
  /** From the ETag header; undefined when the device sent none. */
  eTag: string | undefined;
}

export function ifMatchHeader(eTag: string | undefined): Record<string, string> {
  return eTag === undefined ? {} : { 'if-match': eTag };
}

/** A File answer, with the JSON eTag, or the header's when the JSON has none. */
export function fileFromAnswer(response: ApiResponse, what: string): RemoteFile {
  const raw = parseJson(response, fileSchema.partial({ eTag: true }), what);
  const eTag = raw.eTag ?? etagOf(response);
  if (eTag === undefined) {
    throw new BadResponseError(`The answer to "${what}" has no eTag.`, {
      correlationId: response.correlationId,
    });
  }
  return toRemoteFile({ ...raw, eTag }, { correlationId: response.correlationId });
}

export function createMetadata(input: CreateInput): FileMetadataInput {
  const metadata: FileMetadataInput = { name: checkName(input.name), parentID: input.parentId ?? ROOT_ALIAS };
  if (input.mimeType !== undefined) metadata.mimeType = input.mimeType;
  if (input.mTimeMs !== undefined) metadata.mTime = msToWireTime(input.mTimeMs);
  if (input.cTimeMs !== undefined) metadata.cTime = msToWireTime(input.cTimeMs);
  if (input.hidden !== undefined) metadata.hidden = input.hidden;
  return metadata;
}

export function patchBody(changes: PatchInput): FileMetadataInput {
  const body: FileMetadataInput = {};
  if (changes.name !== undefined) body.name = checkName(changes.name);
  if (changes.parentId !== undefined) body.parentID = changes.parentId;
  if (changes.mimeType !== undefined) body.mimeType = changes.mimeType;
  if (changes.mTimeMs !== undefined) body.mTime = msToWireTime(changes.mTimeMs);
  if (changes.cTimeMs !== undefined) body.cTime = msToWireTime(changes.cTimeMs);
  if (changes.hidden !== undefined) body.hidden = changes.hidden;
  return body;
}

/** Progress of a multipart create in content bytes, not body bytes (the metadata part is noise). */
export function progressOfContent(
  input: CreateInput,
  contentStart: number,
): ((progress: Progress) => void) | undefined {
  const report = input.onProgress;
  if (!report) return undefined;
  const size = input.content === undefined ? 0 : sourceSize(input.content);
  return (progress) =>
    report({ bytesDone: Math.max(0, Math.min(size, progress.bytesDone - contentStart)), bytesTotal: size });
}
