// The shapes of device API answers (device-api.md §3) and the client's view of a file, checked leniently.
import { z } from 'zod';
import { BadResponseError, InvalidNameError, type ApiError } from '../../common/errors.ts';
import {
  DIR_MIME_TYPE,
  HIDDEN_VALUES,
  type HiddenValue,
  type ImageInfo,
} from '../../common/wire/device-api.ts';
import { checkShape, wireTimeSchema, wireTimeToMs } from './answers.ts';
import { isUsableId, nameProblem } from './names.ts';

const idSchema = z.string().refine(isUsableId, { message: 'not a usable id' });

// A malformed image block drops the block, not the file: it is decoration.
const imageSchema = z
  .object({
    date: z.string().optional().catch(undefined),
    width: z.number().optional().catch(undefined),
    height: z.number().optional().catch(undefined),
    cameraMake: z.string().optional().catch(undefined),
    cameraModel: z.string().optional().catch(undefined),
    aperture: z.number().optional().catch(undefined),
    exposureTime: z.number().optional().catch(undefined),
    isoSpeed: z.number().optional().catch(undefined),
    focalLength: z.number().optional().catch(undefined),
    flashFired: z.boolean().optional().catch(undefined),
    orientation: z.number().optional().catch(undefined),
    previewAvailable: z.boolean().optional().catch(undefined),
    previewSourceWidth: z.number().optional().catch(undefined),
    previewSourceHeight: z.number().optional().catch(undefined),
  })
  .optional()
  .catch(undefined);

/**
 * A File object. What the sync engine relies on (id, name, eTag, mimeType, size, times) must be
 * right; decorative fields fall back to defaults. Unknown fields are dropped.
 */
export const fileSchema = z.object({
  id: idSchema,
  parentID: idSchema.optional(),
  name: z.string(),
  eTag: z.string().min(1),
  mimeType: z.string().min(1),
  size: z.number().int().nonnegative().optional(),
  mTime: wireTimeSchema.optional(),
  cTime: wireTimeSchema.optional(),
  extension: z.string().optional().catch(undefined),
  hidden: z.enum(HIDDEN_VALUES).optional().catch(undefined),
  trashed: z.boolean().optional().catch(undefined),
  image: imageSchema,
});

/** A file or folder on the device, as the client uses it. */
export interface RemoteFile {
  id: string;
  /** Undefined only for the root. */
  parentID: string | undefined;
  /** "" only for the root; otherwise a checked name (names.ts). */
  name: string;
  eTag: string;
  isFolder: boolean;
  mimeType: string;
  /** 0 for folders. */
  size: number;
  mTime: string | undefined;
  mTimeMs: number | undefined;
  cTime: string | undefined;
  cTimeMs: number | undefined;
  extension: string | undefined;
  hidden: HiddenValue;
  trashed: boolean;
  image: ImageInfo | undefined;
}

/** An item of a listing or search that was left out, and why (a bad name or a malformed entry). */
export interface RejectedItem {
  id: string | undefined;
  name: string | undefined;
  error: ApiError;
}

/** Builds a RemoteFile from a checked File object; a name that could escape a folder is an error. */
export function toRemoteFile(
  file: z.output<typeof fileSchema>,
  details: { correlationId?: string } = {},
): RemoteFile {
  const isRoot = file.parentID === undefined;
  // The root is the only item without a parent, and its name is "" (docs/device.md).
  if (!(isRoot && file.name === '')) {
    const problem = nameProblem(file.name);
    if (problem !== undefined)
      throw new InvalidNameError(file.name, `(item ${file.id} on the device) ${problem}`, details);
  }
  return {
    id: file.id,
    parentID: file.parentID,
    name: file.name,
    eTag: file.eTag,
    isFolder: file.mimeType === DIR_MIME_TYPE,
    mimeType: file.mimeType,
    size: file.size ?? 0,
    mTime: file.mTime,
    mTimeMs: file.mTime === undefined ? undefined : wireTimeToMs(file.mTime),
    cTime: file.cTime,
    cTimeMs: file.cTime === undefined ? undefined : wireTimeToMs(file.cTime),
    extension: file.extension,
    hidden: file.hidden ?? 'none',
    trashed: file.trashed ?? false,
    image: file.image,
  };
}

const HIDDEN_SET: ReadonlySet<unknown> = new Set(HIDDEN_VALUES);

function optionalUsableId(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && isUsableId(value));
}

function optionalWireTime(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && wireTimeToMs(value) !== undefined);
}

/**
 * The common case of `fileSchema` checked by hand: a listing of 100,000 items spends most of its parse
 * time in the schema otherwise. Anything unusual (an image block, a field of another type) answers
 * undefined and takes the schema's path, so both accept and default exactly the same items.
 */
function plainFile(raw: unknown): z.output<typeof fileSchema> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const file = raw as Record<string, unknown>;
  const { id, name, eTag, mimeType, size } = file;
  if (typeof id !== 'string' || !isUsableId(id) || !optionalUsableId(file['parentID'])) return undefined;
  if (typeof name !== 'string' || typeof eTag !== 'string' || eTag === '') return undefined;
  if (typeof mimeType !== 'string' || mimeType === '') return undefined;
  if (size !== undefined && !(typeof size === 'number' && Number.isInteger(size) && size >= 0)) {
    return undefined;
  }
  if (!optionalWireTime(file['mTime']) || !optionalWireTime(file['cTime'])) return undefined;
  const { extension, hidden, trashed, image } = file;
  if (image !== undefined || (extension !== undefined && typeof extension !== 'string')) return undefined;
  if (hidden !== undefined && !HIDDEN_SET.has(hidden)) return undefined;
  if (trashed !== undefined && typeof trashed !== 'boolean') return undefined;
  return file as z.output<typeof fileSchema>;
}

/** Checks one raw item; returns the file, or what to report about it. */
export function checkItem(
  raw: unknown,
  what: string,
  details: { correlationId?: string } = {},
): { file: RemoteFile } | { rejected: RejectedItem } {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const id = typeof record['id'] === 'string' ? record['id'] : undefined;
  const name = typeof record['name'] === 'string' ? record['name'] : undefined;
  try {
    const checked = plainFile(raw) ?? checkShape(raw, fileSchema, what, details);
    return { file: toRemoteFile(checked, details) };
  } catch (error) {
    if (error instanceof InvalidNameError || error instanceof BadResponseError) {
      return { rejected: { id, name, error } };
    }
    throw error;
  }
}

/** A page of items: the good ones, and the ones left out with the reason. */
export interface CheckedItems {
  files: RemoteFile[];
  rejected: RejectedItem[];
}

export function checkItems(
  raws: readonly unknown[],
  what: string,
  details: { correlationId?: string } = {},
): CheckedItems {
  const result: CheckedItems = { files: [], rejected: [] };
  for (const raw of raws) {
    const checked = checkItem(raw, what, details);
    if ('file' in checked) result.files.push(checked.file);
    else result.rejected.push(checked.rejected);
  }
  return result;
}

export const pageSchema = z.object({
  pageToken: z.string().optional().catch(undefined),
  files: z.array(z.unknown()),
});

export const textSearchSchema = z.object({
  pageToken: z.string().optional().catch(undefined),
  matches: z.array(
    z.object({
      file: z.unknown(),
      fragments: z
        .array(
          z.object({
            text: z.string(),
            locations: z.array(z.object({ index: z.number().int(), length: z.number().int() })).catch([]),
          }),
        )
        .catch([]),
    }),
  ),
});

export const resumableStatusSchema = z.object({
  id: z.string().optional(),
  size: z.number().int().nonnegative(),
});
