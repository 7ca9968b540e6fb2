// The state socket's lines: requests checked with zod, messages encoded, lines cut from a stream with a size limit.
import { z } from 'zod';
import {
  FILE_STATE_ACTIONS,
  MAX_STATE_PATHS,
  MAX_STATE_REQUEST_BYTES,
  type FileStateMessage,
  type FileStateRequest,
} from '../../common/file-state.ts';
import { MchError } from '../../common/errors.ts';
import { StateError } from './state-errors.ts';

const id = z.union([z.number().int(), z.string().max(100)]);
const path = z
  .string()
  .min(1)
  .max(4096)
  .refine((text) => text.startsWith('/') && !text.includes('\0'), {
    message: 'an absolute path',
  });
const paths = z.array(path).max(MAX_STATE_PATHS);

const requestSchema = z.discriminatedUnion('op', [
  z.object({ id, op: z.literal('state'), paths }),
  z.object({ id, op: z.literal('children'), path }),
  z.object({ id, op: z.literal('subscribe') }),
  z.object({ id, op: z.literal('act'), action: z.enum(FILE_STATE_ACTIONS), paths: paths.min(1) }),
  z.object({ id, op: z.literal('shares-changed') }),
]);

/** A request line read, or the error to answer it with (and its id when the line had one). */
export function parseStateRequest(
  line: string,
): { request: FileStateRequest } | { error: StateError; id: number | string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { error: new StateError('STATE_BAD_REQUEST', 'The request is not JSON.'), id: null };
  }
  const given = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  const known = typeof given === 'number' || typeof given === 'string' ? given : null;
  if (Array.isArray((raw as { paths?: unknown } | null)?.paths)) {
    const count = (raw as { paths: unknown[] }).paths.length;
    if (count > MAX_STATE_PATHS) {
      return {
        error: new StateError(
          'STATE_TOO_LARGE',
          `At most ${MAX_STATE_PATHS} paths a request (${count} given).`,
        ),
        id: known,
      };
    }
  }
  const parsed = requestSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` (${first.path.join('.')})`;
    return {
      error: new StateError(
        'STATE_BAD_REQUEST',
        `Not a request the state service knows${where}: ${first?.message ?? 'invalid'}.`,
      ),
      id: known,
    };
  }
  return { request: parsed.data };
}

export function encodeStateMessage(message: FileStateMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** The error line for a failure (a typed one keeps its code; anything else is an action that failed). */
export function stateErrorMessage(error: unknown, requestId: number | string | null): FileStateMessage {
  const code = error instanceof MchError ? error.code : 'STATE_ACTION_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'error', id: requestId, code, message };
}

/**
 * Cuts a stream into lines of at most `maxBytes` (UTF-8). A longer line is reported once and skipped up
 * to its newline, so the connection stays usable; bytes that are not UTF-8 make a line of their own error.
 */
export class StateLineReader {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #length = 0;
  #skipping = false;

  constructor(maxBytes: number = MAX_STATE_REQUEST_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The complete lines in this chunk, in order; an Error in place of a line too long or not text. */
  push(chunk: Buffer): Array<string | StateError> {
    const lines: Array<string | StateError> = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const part = chunk.subarray(start, end);
      if (!this.#skipping) {
        if (this.#length + part.length > this.#maxBytes) {
          this.#skipping = true;
          this.#chunks = [];
          this.#length = 0;
          lines.push(
            new StateError(
              'STATE_TOO_LARGE',
              `A request is longer than ${this.#maxBytes} bytes; it was not read.`,
            ),
          );
        } else if (part.length > 0) {
          this.#chunks.push(part);
          this.#length += part.length;
        }
      }
      if (newline === -1) break;
      if (!this.#skipping && this.#length > 0) lines.push(this.#text());
      this.#skipping = false;
      this.#chunks = [];
      this.#length = 0;
      start = newline + 1;
    }
    return lines;
  }

  #text(): string | StateError {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(this.#chunks, this.#length));
    } catch {
      return new StateError('STATE_BAD_REQUEST', 'The request is not UTF-8 text.');
    }
  }
}
