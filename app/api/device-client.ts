// The device's file API (device-api.md §3): read, create, replace content, patch, delete, look up by name.
import type { FileHandle } from 'node:fs/promises';
import { ApiError } from '../../common/errors.ts';
import { DIR_MIME_TYPE } from '../../common/wire/device-api.ts';
import { etagOf, idFromLocation } from './answers.ts';
import type { RemoteFile } from './device-schemas.ts';
import {
  listAll,
  listPage,
  searchMediaTime,
  searchText,
  type ListingAnswer,
  type ListOptions,
  type MediaTimePage,
  type MediaTimeQuery,
  type TextSearchOptions,
  type TextSearchPage,
} from './device-listing.ts';
import {
  createMetadata,
  fileFromAnswer,
  ifMatchHeader,
  patchBody,
  progressOfContent,
  type CallOptions,
  type Created,
  type CreateInput,
  type PatchInput,
  type WriteOptions,
} from './file-requests.ts';
import {
  downloadFile,
  downloadInto,
  readContent,
  type ContentInMemory,
  type DownloadOptions,
  type DownloadResult,
} from './download.ts';
import { multipartBody, sourceSize, sourceStream, type ContentSource } from './multipart.ts';
import { checkName, idSegment } from './names.ts';
import type { DeviceEndpoint } from './device-endpoint.ts';
import { uploadFile, type UploadOptions, type UploadResult } from './resumable-upload.ts';
import type { ApiResponse, Progress, RequestRoute, RequestSpec, Transport } from './http/transport.ts';
import { joinUrl } from './http/url-safety.ts';

export type { RemoteFile, RejectedItem } from './device-schemas.ts';
export type { CallOptions, Created, CreateInput, PatchInput, WriteOptions } from './file-requests.ts';
export { fileFromAnswer, ifMatchHeader } from './file-requests.ts';
export type { ContentSource } from './multipart.ts';
export type {
  ListingAnswer,
  ListingPage,
  ListOptions,
  MediaTimePage,
  MediaTimeQuery,
  TextMatch,
  TextSearchPage,
} from './device-listing.ts';
export type { ContentInMemory, DownloadOptions, DownloadResult } from './download.ts';
export type { UploadOptions, UploadResult } from './resumable-upload.ts';

/** A device reachable at several addresses: the one in use now, and the route requests take (app/auth/device-route.ts). */
export interface DeviceAddresses extends RequestRoute {
  readonly url: URL;
}

export interface DeviceClientOptions {
  /**
   * The chosen device URL (device-lookup.ts), e.g. `https://relay.example/proxy/abc` or
   * `http://localhost:4780`, or the device's addresses, followed as they change.
   */
  deviceUrl: string | DeviceAddresses;
  /** With the signed-in user's token provider. */
  transport: Transport;
  /** Files larger than this go through the resumable upload (default 8 MiB). */
  resumableThresholdBytes?: number;
  /** Bytes per PUT of a resumable upload (default 8 MiB). */
  chunkBytes?: number;
}

export const DEFAULT_RESUMABLE_THRESHOLD_BYTES = 8 * 1024 * 1024;
export const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

export class DeviceClient implements DeviceEndpoint {
  readonly transport: Transport;
  readonly #fixedUrl: URL | undefined;
  readonly #addresses: DeviceAddresses | undefined;
  readonly resumableThresholdBytes: number;
  readonly chunkBytes: number;
  /** Set once PATCH turned out to be missing, so later patches go straight to POST .../patch. */
  #patchViaPost = false;
  /** Cleared once pipelined answers could not be followed (listing-revalidator.ts): one at a time from then on. */
  #pipelined = true;

  constructor(options: DeviceClientOptions) {
    if (typeof options.deviceUrl === 'string') {
      this.#fixedUrl = new URL(options.deviceUrl);
      this.transport = options.transport;
    } else {
      this.#addresses = options.deviceUrl;
      this.transport = options.transport.withRoute(options.deviceUrl);
    }
    this.resumableThresholdBytes = options.resumableThresholdBytes ?? DEFAULT_RESUMABLE_THRESHOLD_BYTES;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  }

  /** The base URL requests go to now: it changes when the device's addresses do (home, relay). */
  get deviceUrl(): URL {
    return this.#addresses?.url ?? (this.#fixedUrl as URL);
  }

  /** An absolute URL for a device path such as `/sdk/v2/files/x` (kept under a relay base's path). */
  url(path: string, query: Record<string, string | number | boolean | undefined> = {}): URL {
    const url = joinUrl(this.deviceUrl, path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** Whether listing revalidations may be pipelined to this device (listing-revalidator.ts). */
  get pipelinedRevalidation(): boolean {
    return this.#pipelined;
  }

  refusePipelinedRevalidation(): void {
    this.#pipelined = false;
  }

  /** Sends a request and returns the answer; for the other device modules. */
  async send(spec: RequestSpec): Promise<ApiResponse> {
    return this.transport.request(spec);
  }

  async getFile(id: string, options: CallOptions = {}): Promise<RemoteFile> {
    const what = `read item ${id}`;
    const response = await this.send({
      method: 'GET',
      url: this.url(`/sdk/v2/files/${idSegment(id)}`),
      what,
      signal: options.signal,
    });
    return fileFromAnswer(response, what);
  }

  /**
   * The child called `name` of a folder, or undefined when there is none. This is how the outcome
   * of a create that ended in OUTCOME_UNKNOWN is found out.
   */
  async findByName(
    parentId: string,
    name: string,
    options: CallOptions = {},
  ): Promise<RemoteFile | undefined> {
    const what = `look up ${JSON.stringify(name)}`;
    try {
      const response = await this.send({
        method: 'GET',
        url: this.url('/sdk/v2/filesSearch/parentAndName', { parentID: parentId, name: checkName(name) }),
        what,
        signal: options.signal,
      });
      return fileFromAnswer(response, what);
    } catch (error) {
      // device-api.md §3: no such child is a 404.
      if (error instanceof ApiError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  /**
   * Creates a file (or, with the folder media type and no content, a folder) in one multipart POST.
   * Never retried once sent: if the answer is lost the error is OUTCOME_UNKNOWN, and the caller looks
   * the name up with findByName before trying again.
   */
  async create(input: CreateInput): Promise<Created> {
    const metadata = createMetadata(input);
    const what = `create ${JSON.stringify(input.name)}`;
    const body = multipartBody(metadata, input.content);
    const response = await this.send({
      method: 'POST',
      url: this.url('/sdk/v2/files', { resolveNameConflict: input.resolveNameConflict ? 'true' : undefined }),
      what,
      body: body.bytes ?? body.open,
      contentType: body.contentType,
      contentLength: body.contentLength,
      signal: input.signal,
      onUploadProgress: progressOfContent(input, body.contentStart),
    });
    return { id: idFromLocation(response, what), eTag: etagOf(response) };
  }

  async createFolder(input: Omit<CreateInput, 'content' | 'mimeType' | 'onProgress'>): Promise<Created> {
    return this.create({ ...input, mimeType: DIR_MIME_TYPE });
  }

  /** Creates a file with its content: one multipart POST, or a resumable upload above the threshold. */
  async upload(input: CreateInput & UploadOptions): Promise<UploadResult> {
    const size = input.content === undefined ? 0 : sourceSize(input.content);
    if (size <= this.resumableThresholdBytes && input.resumeUploadId === undefined) {
      const created = await this.create(input);
      return { ...created, size };
    }
    return uploadFile(this, {
      ...input,
      metadata: createMetadata(input),
      content: input.content ?? new Uint8Array(),
    });
  }

  /** Replaces a file's content; returns its new eTag. */
  async putContent(
    id: string,
    content: ContentSource,
    options: WriteOptions & { onProgress?: (progress: Progress) => void } = {},
  ): Promise<{ eTag: string | undefined }> {
    const size = sourceSize(content);
    const response = await this.send({
      method: 'PUT',
      url: this.url(`/sdk/v2/files/${idSegment(id)}/content`),
      what: `replace the content of ${id}`,
      headers: ifMatchHeader(options.ifMatch),
      body: () => sourceStream(content),
      contentType: 'application/octet-stream',
      contentLength: size,
      signal: options.signal,
      onUploadProgress: options.onProgress,
    });
    return { eTag: etagOf(response) };
  }

  /** Renames, moves or changes metadata; PATCH, falling back to POST .../patch (device-api.md §3). */
  async patch(
    id: string,
    changes: PatchInput,
    options: WriteOptions = {},
  ): Promise<{ eTag: string | undefined }> {
    const body = patchBody(changes);
    const what = `change ${id}`;
    const spec = (method: 'PATCH' | 'POST', path: string): RequestSpec => ({
      method,
      url: this.url(path),
      what,
      headers: ifMatchHeader(options.ifMatch),
      json: body,
      // The same change twice leaves the same state; with If-Match the second one fails cleanly.
      idempotent: options.ifMatch !== undefined,
      signal: options.signal,
    });
    const path = `/sdk/v2/files/${idSegment(id)}`;
    if (!this.#patchViaPost) {
      try {
        return { eTag: etagOf(await this.send(spec('PATCH', path))) };
      } catch (error) {
        if (!(error instanceof ApiError) || (error.code !== 'NOT_FOUND' && error.code !== 'NOT_SUPPORTED'))
          throw error;
      }
    }
    const response = await this.send(spec('POST', `${path}/patch`));
    // The fallback worked where PATCH did not: the device predates PATCH (device-api.md §3).
    this.#patchViaPost = true;
    return { eTag: etagOf(response) };
  }

  /** Deletes an item; `inBackground` is true for a non-empty folder (202), gone from view at once. */
  async delete(id: string, options: WriteOptions = {}): Promise<{ inBackground: boolean }> {
    const response = await this.send({
      method: 'DELETE',
      url: this.url(`/sdk/v2/files/${idSegment(id)}`),
      what: `delete ${id}`,
      headers: ifMatchHeader(options.ifMatch),
      signal: options.signal,
    });
    // device-api.md §3: 202 for a non-empty folder.
    return { inBackground: response.kind === 'accepted' };
  }

  /** One page of a folder; see device-listing.ts for how bad items are reported. */
  async list(folderId: string, options?: ListOptions): Promise<ListingAnswer> {
    return listPage(this, folderId, options);
  }

  /** Every page of a folder. */
  /** Every page; `firstPage` is an answer to the first page already received (a pipelined revalidation). */
  async listAll(
    folderId: string,
    options?: Omit<ListOptions, 'pageToken'> & { firstPage?: ApiResponse },
  ): Promise<ListingAnswer> {
    return listAll(this, folderId, options);
  }

  async searchText(query: string, options?: TextSearchOptions): Promise<TextSearchPage> {
    return searchText(this, query, options);
  }

  async searchMediaTime(query: MediaTimeQuery): Promise<MediaTimePage> {
    return searchMediaTime(this, query);
  }

  /** Downloads a file's content to `targetPath` through a temporary file, resuming after breaks. */
  async download(id: string, targetPath: string, options: DownloadOptions = {}): Promise<DownloadResult> {
    return downloadFile(this, id, targetPath, options);
  }

  /** A small file's whole content in memory (at most `maxBytes`), of version `eTag` when given. */
  async readContent(
    id: string,
    options: { eTag?: string; signal?: AbortSignal | undefined; maxBytes: number },
  ): Promise<ContentInMemory> {
    return readContent(this, id, options);
  }

  /** The content of version `eTag` written into an open file from byte 0 (a placeholder filled in place). */
  async downloadInto(
    id: string,
    file: FileHandle,
    options: DownloadOptions & { eTag: string },
  ): Promise<DownloadResult> {
    return downloadInto(this, id, file, options);
  }
}
