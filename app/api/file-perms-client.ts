// File permissions on the device (device-api.md §3): grant, find the granting ones, revoke.
import { z } from 'zod';
import { ApiError } from '../../common/errors.ts';
import {
  ENTITY_TYPES,
  FILE_PERM_VALUES,
  type EntityType,
  type FilePermInput,
  type FilePermRecord,
} from '../../common/wire/sharing.ts';
import { parseJson } from './answers.ts';
import type { DeviceClient } from './device-client.ts';
import { idSegment, isUsableId } from './names.ts';

export type { FilePermInput, FilePermRecord } from '../../common/wire/sharing.ts';

const recordSchema = z.object({
  id: z.string().refine(isUsableId, { message: 'not a usable id' }),
  fileID: z.string().min(1),
  entity: z.object({ id: z.string().min(1), type: z.enum(ENTITY_TYPES) }),
  value: z.enum(FILE_PERM_VALUES),
});

// A record of a kind this client does not know (a new entity type or value) is skipped, not fatal.
const searchSchema = z.object({
  filePerms: z.array(z.unknown()),
  pageToken: z.string().optional(),
});

export interface GrantingQuery {
  fileId: string;
  entity?: { id: string; type: EntityType };
  limit?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export class FilePermsClient {
  readonly #device: DeviceClient;

  constructor(device: DeviceClient) {
    this.#device = device;
  }

  /**
   * Grants a permission. Granting is sent again after a lost answer: a second grant of the same
   * permission is refused (409), and then the existing record is returned instead.
   */
  async grant(input: FilePermInput, options: { signal?: AbortSignal } = {}): Promise<FilePermRecord> {
    const what = `grant ${input.value} on ${input.fileID}`;
    try {
      const response = await this.#device.send({
        method: 'POST',
        url: this.#device.url('/sdk/v1/filePerms'),
        what,
        json: { fileID: input.fileID, entity: input.entity, value: input.value },
        idempotent: true,
        signal: options.signal,
      });
      return parseJson(response, recordSchema, what);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'CONFLICT') throw error;
      const existing = await this.findExact(input, options.signal);
      if (existing === undefined) throw error;
      return existing;
    }
  }

  /** One page of the permissions on the file or its ancestors that grant access to it. */
  async granting(query: GrantingQuery): Promise<{ filePerms: FilePermRecord[]; pageToken: string }> {
    const what = `read the permissions of ${query.fileId}`;
    const response = await this.#device.send({
      method: 'GET',
      url: this.#device.url('/sdk/v1/filePermsSearch/granting', {
        fileID: query.fileId,
        entityID: query.entity?.id,
        entityType: query.entity?.type,
        limit: query.limit,
        pageToken: query.pageToken === '' ? undefined : query.pageToken,
      }),
      what,
      signal: query.signal,
    });
    const page = parseJson(response, searchSchema, what);
    const filePerms = page.filePerms.flatMap((raw) => {
      const parsed = recordSchema.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    });
    return { filePerms, pageToken: page.pageToken ?? '' };
  }

  /** Revokes a permission; `existed` is false when it was already gone (so sending it again is harmless). */
  async revoke(permId: string, options: { signal?: AbortSignal } = {}): Promise<{ existed: boolean }> {
    try {
      await this.#device.send({
        method: 'DELETE',
        url: this.#device.url(`/sdk/v1/filePerms/${idSegment(permId)}`),
        what: `revoke permission ${permId}`,
        idempotent: true,
        signal: options.signal,
      });
      return { existed: true };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') return { existed: false };
      throw error;
    }
  }

  /** The record granting exactly `input` on the file itself, if there is one. */
  async findExact(input: FilePermInput, signal?: AbortSignal): Promise<FilePermRecord | undefined> {
    let pageToken = '';
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await this.granting({ fileId: input.fileID, entity: input.entity, pageToken, signal });
      const match = page.filePerms.find(
        (record) =>
          record.value === input.value &&
          record.entity.id === input.entity.id &&
          record.entity.type === input.entity.type &&
          record.fileID === input.fileID,
      );
      if (match) return match;
      if (page.pageToken === '') return undefined;
      pageToken = page.pageToken;
    }
    return undefined;
  }
}
