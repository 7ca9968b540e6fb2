// The live service's control protocol: one request and one answer per connection, each a line of JSON.
import { z } from 'zod';
import { MchError } from '../../common/errors.ts';
import type { SyncStatus } from '../../common/sync-status.ts';
import { ISSUE_REMEDIES } from '../sync/pass-report.ts';
import { ControlError } from './control-errors.ts';
import type { VersionsAction, VersionsOutcome } from '../versions/versions-actions.ts';
import { versionsActionSchema, versionsOutcomeSchema } from './versions-control.ts';

export type ControlRequest =
  | { op: 'status' }
  /** Paused until `until` (wall-clock ms since the epoch; it resumes by itself), or until resumed. */
  | { op: 'pause'; until?: number }
  /** The pair's "sync on metered networks" changed (its record is written already): `sync` true syncs on them. */
  | { op: 'metered'; sync: boolean }
  | { op: 'resume' }
  | { op: 'sync-now' }
  /** The user confirmed the deletes the mass-delete guard held (or those of an emptied folder). */
  | { op: 'confirm-deletes' }
  /** The user asked for the items of an emptied folder back from the device. */
  | { op: 'restore' }
  /** Free up space (files on demand): the whole, synced files at or below each path of the cache folder. */
  | { op: 'free'; paths: string[] }
  /**
   * Versions (issue 31): a version or deleted files restored, a conflict settled, the versions cleared.
   * `keepsOpen`: the client keeps its side open until it reads the answer, so its end means it gave up
   * waiting, and a request whose turn has not come is dropped.
   */
  | { op: 'versions'; action: VersionsAction; keepsOpen?: boolean };
export type ControlOp = ControlRequest['op'];

export interface ControlErrorBody {
  code: string;
  message: string;
}

/** What a `free` did: files made placeholders and their bytes, and the paths left whole, by why. */
export interface FreeCounts {
  freed: number;
  bytesFreed: number;
  busy: string[];
  changed: string[];
  failed: string[];
}

/**
 * Every answer carries the status after the request took effect, so a front end needs no second call;
 * a `free` also what it freed, a `versions` request what it did.
 */
export type ControlAnswer =
  | { ok: true; status: SyncStatus; freed?: FreeCounts; versions?: VersionsOutcome }
  | { ok: false; error: ControlErrorBody };

/** A request is a few dozen bytes; anything near this is not from our client. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** A status holds at most a few hundred activity lines and issues: well under this. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

// Unknown fields are dropped, not refused, so an older service still understands a newer client's
// request; the `op` itself must be one this side knows.
const requestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('status') }),
  z.object({ op: z.literal('pause'), until: z.number().int().positive().optional() }),
  z.object({ op: z.literal('metered'), sync: z.boolean() }),
  z.object({ op: z.literal('resume') }),
  z.object({ op: z.literal('sync-now') }),
  z.object({ op: z.literal('confirm-deletes') }),
  z.object({ op: z.literal('restore') }),
  z.object({ op: z.literal('free'), paths: z.array(z.string()).min(1).max(1000) }),
  z.object({ op: z.literal('versions'), action: versionsActionSchema, keepsOpen: z.boolean().optional() }),
]);

const count = z.number().int().nonnegative();

const statusSchema: z.ZodType<SyncStatus> = z.object({
  state: z.enum(['idle', 'scanning', 'syncing', 'paused', 'offline', 'sign-in-needed', 'held', 'error']),
  detail: z.string().nullable(),
  localRoot: z.string(),
  remoteFolder: z.string(),
  progress: z
    .object({
      itemsDone: count,
      itemsTotal: count,
      bytesDone: count,
      bytesTotal: count,
      transfers: z.array(
        z.object({
          path: z.string(),
          direction: z.enum(['up', 'down']),
          bytesDone: count,
          bytesTotal: count,
        }),
      ),
    })
    .nullable(),
  lastSyncAtMs: z.number().nullable(),
  activity: z.array(z.object({ atMs: z.number(), action: z.string(), path: z.string() })),
  issues: z.array(
    z.object({
      kind: z.enum(['skipped', 'retry', 'failed', 'warning']),
      path: z.string(),
      code: z.string(),
      message: z.string(),
      // Kept, not dropped: `status --json` of a running service carries each item's class too.
      remedy: z.enum(ISSUE_REMEDIES).optional(),
      side: z.enum(['local', 'remote']).optional(),
    }),
  ),
  pid: z.number().int().positive().nullable(),
  mount: z
    .object({
      mounted: z.boolean(),
      opening: z.array(
        z.object({
          path: z.string(),
          process: z.string(),
          bytesDone: z.number().nonnegative(),
          bytesTotal: z.number().nonnegative(),
        }),
      ),
      lastFailure: z.object({ path: z.string(), message: z.string(), atMs: z.number() }).nullable(),
    })
    .optional(),
  connection: z.object({ via: z.enum(['home', 'relay', 'pinned']), reachable: z.boolean() }).optional(),
  // The device's space as the last pass read it (issue #33).
  device: z
    .object({
      freeBytes: z.number().nonnegative(),
      totalBytes: z.number().nonnegative(),
      checkedAtMs: z.number(),
    })
    .optional(),
  pause: z.object({ by: z.enum(['user', 'metered']), untilMs: z.number().nullable() }).optional(),
  onMetered: z.enum(['pause', 'sync']).optional(),
});

const freeCountsSchema = z.object({
  freed: count,
  bytesFreed: count,
  busy: z.array(z.string()),
  changed: z.array(z.string()),
  failed: z.array(z.string()),
});

const answerSchema = z.union([
  z.object({
    ok: z.literal(true),
    status: statusSchema,
    freed: freeCountsSchema.optional(),
    versions: versionsOutcomeSchema.optional(),
  }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** One message as it goes over the socket: JSON and a newline. */
export function encodeMessage(message: ControlRequest | ControlAnswer): string {
  return `${JSON.stringify(message)}\n`;
}

/** Reads a request line; throws `CONTROL_BAD_REQUEST` for anything that is not one. */
export function parseRequest(line: string): ControlRequest {
  const result = requestSchema.safeParse(parseJson(line, 'CONTROL_BAD_REQUEST', 'The request'));
  if (!result.success) {
    throw new ControlError(
      'CONTROL_BAD_REQUEST',
      'The request is not one of status, pause, metered, resume, sync-now, confirm-deletes, restore, free or versions (expected {"op": "status"}).',
    );
  }
  return result.data;
}

/** Reads an answer line; throws `CONTROL_BAD_ANSWER` for anything that is not one. */
export function parseAnswer(line: string): ControlAnswer {
  const result = answerSchema.safeParse(parseJson(line, 'CONTROL_BAD_ANSWER', 'The answer of the service'));
  if (!result.success) {
    throw new ControlError(
      'CONTROL_BAD_ANSWER',
      `The answer of the service has an unexpected shape (${firstIssue(result.error)}): is it another version of mch-sync?`,
    );
  }
  return result.data;
}

/** The answer for a failure: the code and message of a project error, `CONTROL_HANDLER_FAILED` for anything else. */
export function errorAnswer(error: unknown): ControlAnswer {
  if (error instanceof MchError) return { ok: false, error: { code: error.code, message: error.message } };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: { code: 'CONTROL_HANDLER_FAILED', message: `The service failed: ${message}` } };
}

function parseJson(line: string, code: 'CONTROL_BAD_REQUEST' | 'CONTROL_BAD_ANSWER', what: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new ControlError(code, `${what} is not JSON.`);
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'no detail';
  return `${issue.path.join('.') || '(top)'}: ${issue.message}`;
}

/**
 * Collects the bytes of one line from a stream: `push` returns the line (without its newline) once it
 * is complete and throws `tooLargeCode` as soon as more than `maxBytes` arrived without one, so a
 * client can never make the other side buffer without limit. Bytes are decoded only once the line is
 * complete, so a character split across chunks is read whole; bytes that are not UTF-8 are refused.
 */
export class LineCollector {
  readonly #maxBytes: number;
  readonly #tooLargeCode: 'CONTROL_REQUEST_TOO_LARGE' | 'CONTROL_BAD_ANSWER';
  readonly #badTextCode: 'CONTROL_BAD_REQUEST' | 'CONTROL_BAD_ANSWER';
  #chunks: Buffer[] = [];
  #length = 0;

  constructor(maxBytes: number, side: 'request' | 'answer') {
    this.#maxBytes = maxBytes;
    this.#tooLargeCode = side === 'request' ? 'CONTROL_REQUEST_TOO_LARGE' : 'CONTROL_BAD_ANSWER';
    this.#badTextCode = side === 'request' ? 'CONTROL_BAD_REQUEST' : 'CONTROL_BAD_ANSWER';
  }

  /** The complete line, or undefined while its newline has not arrived. */
  push(chunk: Buffer): string | undefined {
    const newline = chunk.indexOf(0x0a);
    const part = newline === -1 ? chunk : chunk.subarray(0, newline);
    if (this.#length + part.length > this.#maxBytes) {
      throw new ControlError(
        this.#tooLargeCode,
        `The ${this.#side()} is longer than ${this.#maxBytes} bytes; it was not read.`,
      );
    }
    this.#chunks.push(part);
    this.#length += part.length;
    return newline === -1 ? undefined : this.#text();
  }

  /** The stream ended: what arrived counts as the line, if anything did (a client may half-close instead of sending a newline). */
  end(): string | undefined {
    return this.#length === 0 ? undefined : this.#text();
  }

  #text(): string {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(this.#chunks, this.#length));
    } catch {
      throw new ControlError(this.#badTextCode, `The ${this.#side()} is not UTF-8 text.`);
    }
  }

  #side(): string {
    return this.#badTextCode === 'CONTROL_BAD_REQUEST' ? 'request' : 'answer';
  }
}
