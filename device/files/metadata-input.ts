// Validates the metadata a client sends on create and patch (device-api.md §3): wrong types are a 400.
import { HIDDEN_VALUES, type HiddenValue } from '../../common/wire/device-api.ts';
import { badRequest } from '../http/errors.ts';
import { isMediaType } from './mime.ts';
import { checkName } from './names.ts';
import { parseTime } from './times.ts';

export interface MetadataInput {
  name?: string;
  parentID?: string;
  mimeType?: string;
  mTime?: number;
  cTime?: number;
  hidden?: HiddenValue;
}

/** The known fields of a metadata object, checked; unknown fields are ignored. */
export function parseMetadata(body: unknown): MetadataInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('INVALID_BODY', 'The body must be a JSON object.');
  }
  const input = body as Record<string, unknown>;
  const result: MetadataInput = {};
  if (input['name'] !== undefined) result.name = checkName(input['name']);
  if (input['parentID'] !== undefined) {
    const parentId = input['parentID'];
    if (typeof parentId !== 'string' || parentId === '') {
      throw badRequest('INVALID_PARENT', 'parentID must be a folder id or "root".');
    }
    result.parentID = parentId;
  }
  if (input['mimeType'] !== undefined) {
    const mimeType = input['mimeType'];
    if (typeof mimeType !== 'string' || !isMediaType(mimeType)) {
      throw badRequest('INVALID_MIME_TYPE', 'mimeType must be a media type such as text/plain.');
    }
    result.mimeType = mimeType;
  }
  if (input['mTime'] !== undefined) result.mTime = parseTime(input['mTime'], 'mTime');
  if (input['cTime'] !== undefined) result.cTime = parseTime(input['cTime'], 'cTime');
  if (input['hidden'] !== undefined) {
    const hidden = input['hidden'];
    if (typeof hidden !== 'string' || !(HIDDEN_VALUES as readonly string[]).includes(hidden)) {
      throw badRequest('INVALID_HIDDEN', `hidden must be one of ${HIDDEN_VALUES.join(', ')}.`);
    }
    result.hidden = hidden as HiddenValue;
  }
  return result;
}
