// The sharing service (device-api.md §4): create, read, list and delete link shares.
import { z } from 'zod';
import { ApiError } from '../../../common/errors.ts';
import type { Share } from '../../../common/wire/sharing.ts';
import { checkShape, parseJson, wrapped } from '../answers.ts';
import type { Transport } from '../http/transport.ts';
import { idSegment, isUsableId } from '../names.ts';
import { joinUrl } from '../http/url-safety.ts';

export type { Share } from '../../../common/wire/sharing.ts';

const shareSchema = z.object({
  shareId: z.string().refine(isUsableId, { message: 'not a usable id' }),
  deviceId: z.string(),
  ownerId: z.string(),
  authId: z.string().min(1),
  fileIds: z.array(z.string()),
  dateCreated: z.number(),
  lastModified: z.number().catch(0),
  metadata: z.record(z.string(), z.unknown()).nullable().catch(null),
  url: z.url({ protocol: /^https?$/ }),
});

const listSchema = z.object({
  data: z.array(z.unknown()),
  pageToken: z.string().optional().catch(undefined),
});

export interface SharesClientOptions {
  /** `service.share.url` from the configuration. */
  shareUrl: string;
  /** With the signed-in user's token provider. */
  transport: Transport;
}

export class SharesClient {
  readonly #base: URL;
  readonly #transport: Transport;

  constructor(options: SharesClientOptions) {
    this.#base = new URL(options.shareUrl);
    this.#transport = options.transport;
  }

  /**
   * Creates a share of the given items. Not sent twice: after a lost answer the error is
   * OUTCOME_UNKNOWN, and `list({ fileId })` tells whether the share exists.
   */
  async create(
    input: { ownerId: string; deviceId: string; fileIds: string[] },
    signal?: AbortSignal,
  ): Promise<Share> {
    const what = `share ${input.fileIds.length} item(s)`;
    const response = await this.#transport.request({
      method: 'POST',
      url: joinUrl(this.#base, '/v1/shares'),
      what,
      json: { ownerId: input.ownerId, deviceId: input.deviceId, fileIds: input.fileIds },
      signal,
    });
    return parseJson(response, wrapped(shareSchema), what).data;
  }

  async get(shareId: string, signal?: AbortSignal): Promise<Share> {
    const what = `read share ${shareId}`;
    const response = await this.#transport.request({
      method: 'GET',
      url: joinUrl(this.#base, `/v1/shares/${idSegment(shareId)}`),
      what,
      signal,
    });
    return parseJson(response, wrapped(shareSchema), what).data;
  }

  /** One page of the caller's shares, optionally only those holding `fileId`. Malformed entries are skipped. */
  async list(
    options: { fileId?: string; limit?: number; pageToken?: string; signal?: AbortSignal } = {},
  ): Promise<{ shares: Share[]; pageToken: string }> {
    const what = 'list your shares';
    const url = joinUrl(this.#base, '/v1/shares');
    if (options.fileId !== undefined) url.searchParams.set('fileId', options.fileId);
    if (options.limit !== undefined) url.searchParams.set('limit', String(options.limit));
    if (options.pageToken !== undefined && options.pageToken !== '')
      url.searchParams.set('pageToken', options.pageToken);
    const response = await this.#transport.request({ method: 'GET', url, what, signal: options.signal });
    const page = parseJson(response, listSchema, what);
    const shares = page.data.flatMap((raw) => {
      try {
        return [checkShape(raw, shareSchema, what)];
      } catch {
        return [];
      }
    });
    return { shares, pageToken: page.pageToken ?? '' };
  }

  /** Deletes a share (the link stops working); `existed` is false when it was already gone. */
  async delete(shareId: string, signal?: AbortSignal): Promise<{ existed: boolean }> {
    try {
      await this.#transport.request({
        method: 'DELETE',
        url: joinUrl(this.#base, `/v1/shares/${idSegment(shareId)}`),
        what: `delete share ${shareId}`,
        // Deleting twice ends in the same state; the second answer is a 404, reported as existed: false.
        idempotent: true,
        signal,
      });
      return { existed: true };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') return { existed: false };
      throw error;
    }
  }
}
