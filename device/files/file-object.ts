// Turns an item row into the File object of the wire (interface.md "File object"), honouring `fields=`.
import type { FileObject, HiddenValue, ImageInfo } from '../../common/wire/device-api.ts';
import { badRequest } from '../http/errors.ts';
import type { ItemRow } from '../store/items.ts';
import { extensionOf } from './names.ts';
import { formatTime } from './times.ts';

const FILE_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'parentID',
  'eTag',
  'size',
  'mimeType',
  'mimeTypes',
  'name',
  'mTime',
  'cTime',
  'extension',
  'hidden',
  'trashed',
  'family',
  'image',
]);

/** The File object of a live item. */
export function toFileObject(row: ItemRow): FileObject {
  const file: FileObject = {
    id: row.id,
    eTag: row.etag,
    size: row.size,
    mimeType: row.mime_type,
    mimeTypes: [row.mime_type],
    name: row.name,
    mTime: formatTime(row.m_time),
    cTime: formatTime(row.c_time),
    hidden: row.hidden as HiddenValue,
    trashed: false,
    family: false,
  };
  // device-api.md (decided): a user's root has no parent, so it carries no parentID.
  if (row.parent_id !== null) file.parentID = row.parent_id;
  const extension = row.is_dir ? undefined : extensionOf(row.name);
  if (extension !== undefined) file.extension = extension;
  if (row.image !== null) file.image = JSON.parse(row.image) as ImageInfo;
  return file;
}

/** The `fields=a,b` of a read request as a set, or undefined for all fields; unknown names are a 400. */
export function parseFields(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest('INVALID_FIELDS', 'fields must be given once, as a,b,c.');
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  const unknown = fields.filter((field) => !FILE_FIELDS.has(field));
  if (unknown.length > 0) throw badRequest('INVALID_FIELDS', `Unknown File fields: ${unknown.join(', ')}.`);
  return new Set(fields);
}

export function pickFields(file: FileObject, fields: ReadonlySet<string> | undefined): Partial<FileObject> {
  if (!fields) return file;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(file)) if (fields.has(key)) picked[key] = value;
  return picked;
}
