// Checks what the services answer: JSON against a zod schema, ETag headers, Location paths, wire times.
import { z } from 'zod';
import { BadResponseError } from '../../common/errors.ts';
import type { ApiResponse } from './http/transport.ts';
import { headerText } from './http/transport.ts';
import { isUsableId } from './names.ts';

/** Times are ISO 8601 UTC, "read with or without fractions" (device-api.md §3). */
const WIRE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds since the epoch of a wire time, or undefined when it is not one. */
export function wireTimeToMs(text: string): number | undefined {
  if (!WIRE_TIME.test(text)) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** The form this client writes: milliseconds, UTC (device-api.md §3). */
export function msToWireTime(ms: number): string {
  return new Date(ms).toISOString();
}

export const wireTimeSchema = z
  .string()
  .refine((text) => wireTimeToMs(text) !== undefined, { message: 'not an ISO 8601 time with a zone' });

/** The envelope of the configuration, lookup and sharing services; extra fields are ignored. */
export function wrapped<T extends z.ZodType>(data: T): z.ZodObject<{ data: T }> {
  return z.object({ data });
}

function issueText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

function contentTypeOf(response: ApiResponse): string {
  return headerText(response.headers['content-type']) ?? 'no content type';
}

/** Parses the answer as JSON and checks it against `schema`; anything else becomes a BadResponseError. */
export function parseJson<T extends z.ZodType>(response: ApiResponse, schema: T, what: string): z.output<T> {
  const details = {
    correlationId: response.correlationId,
    request: `${response.url.origin}${response.url.pathname}`,
  };
  let value: unknown;
  try {
    value = JSON.parse(response.body.toString('utf8'));
  } catch (cause) {
    const start = response.body.subarray(0, 40).toString('utf8').replace(/\s+/g, ' ');
    throw new BadResponseError(
      `The answer to "${what}" is not JSON (${contentTypeOf(response)}, starting ${JSON.stringify(start)}).`,
      { ...details, cause },
    );
  }
  return checkShape(value, schema, what, details);
}

/** Checks an already parsed value (such as one item of a listing) against `schema`. */
export function checkShape<T extends z.ZodType>(
  value: unknown,
  schema: T,
  what: string,
  details: { correlationId?: string; request?: string } = {},
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new BadResponseError(
      `The answer to "${what}" has an unexpected shape: ${issueText(result.error)}.`,
      {
        ...details,
        cause: result.error,
      },
    );
  }
  return result.data;
}

/** The `ETag` header as sent (a quoted opaque token), if any. */
export function etagOf(response: { headers: ApiResponse['headers'] }): string | undefined {
  const value = headerText(response.headers['etag'])?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The id at the end of a `Location` such as `/sdk/v2/files/{id}`. The path is relative to the device
 * base the client used (device-api.md §3), so only its last segment is trusted, never its host.
 */
export function idFromLocation(response: ApiResponse, what: string): string {
  const location = headerText(response.headers['location']);
  const details = { correlationId: response.correlationId };
  if (location === undefined || location.trim() === '') {
    throw new BadResponseError(`The answer to "${what}" has no Location header.`, details);
  }
  // Read as text: URL parsing would resolve `..` segments and hand back another segment as the id.
  const path = location.trim().split(/[?#]/, 1)[0] ?? '';
  const last = path.replace(/\/+$/, '').split('/').at(-1) ?? '';
  let id: string;
  try {
    id = decodeURIComponent(last);
  } catch {
    id = '';
  }
  if (!isUsableId(id)) {
    throw new BadResponseError(
      `The answer to "${what}" has a Location without an id: ${JSON.stringify(location)}.`,
      details,
    );
  }
  return id;
}
