// One buffered HTTP attempt straight on node:http(s), for requests whose body is already in memory.
//
// got costs about 0.2 ms of CPU per request before any byte moves, against about 0.05 ms for the
// request itself on a keep-alive socket (docs/benchmarks.md, "Live sync / Idle cost"). A poll sends
// one conditional listing per remote folder, and a first upload one create per file, so for these
// small requests that overhead was most of the client's CPU. Streams (downloads, uploads read from
// a file) stay on got; this path keeps got's behaviour for everything the Transport relies
// on: the same timeouts, the same error codes and names (read by http-errors.ts), decompression,
// no redirects followed, and bounded reading.
import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BadResponseError } from '../../../common/errors.ts';
import type { Progress, Timeouts } from './http-limits.ts';

export interface DirectRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /** Answer bodies are passed through undecoded. */
  raw: boolean;
  signal: AbortSignal | undefined;
  timeouts: Timeouts;
  maxBodyBytes: number;
  /** Told once, when the whole body is written: it is in memory, so at most about a mebibyte. */
  onUploadProgress: ((progress: Progress) => void) | undefined;
  /** For the message of a body that is too large. */
  what: string;
  details: { correlationId: string; request: string };
  /** The proxy's agent (proxy-agents.ts) when the request goes through one; Node's global agent else. */
  agent?: Agent | undefined;
}

export interface DirectAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A timeout with got's shape: `code` ETIMEDOUT, name `TimeoutError`, `event` the phase that ran out. */
export class DirectTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  readonly event: 'connect' | 'secureConnect' | 'response' | 'socket' | 'request';
  constructor(event: DirectTimeoutError['event'], limitMs: number) {
    super(`Timeout awaiting '${event}' for ${limitMs}ms`);
    this.event = event;
  }
}

/** The error an aborted signal gives, as node:http gives it for a request not yet answered. */
function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

export function sendDirect(spec: DirectRequest): Promise<DirectAnswer> {
  return new Promise<DirectAnswer>((resolve, reject) => {
    const { timeouts: t } = spec;
    const headers: Record<string, string> = { ...spec.headers };
    // got asks for compressed answers unless the bytes must stay exact; so does this path.
    if (headers['accept-encoding'] === undefined && !spec.raw) {
      headers['accept-encoding'] = 'gzip, deflate, br';
    }
    if (spec.body !== undefined) headers['content-length'] = String(spec.body.byteLength);
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    // What a failure must close: the request (and its socket), and the answer once it came.
    const open: { req?: ClientRequest; answer?: Readable } = {};
    const finish = (error: Error | undefined, result?: DirectAnswer): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      if (error === undefined) {
        resolve(result as DirectAnswer);
        return;
      }
      // A request cut short leaves its socket in an unknown state: it is not handed back for reuse.
      open.answer?.destroy();
      open.req?.destroy();
      reject(error);
    };
    const onAbort = (): void => finish(abortError());
    const limit = (event: DirectTimeoutError['event'], ms: number): NodeJS.Timeout => {
      const timer = setTimeout(() => finish(new DirectTimeoutError(event, ms)), ms);
      timers.push(timer);
      return timer;
    };
    if (spec.signal?.aborted) {
      finish(abortError());
      return;
    }
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    limit('request', t.totalMs);
    const opened = openRequest(spec, headers);
    if (opened instanceof Error) {
      finish(opened);
      return;
    }
    const req = opened;
    open.req = req;
    req.on('error', (error) => finish(error));
    req.on('socket', (socket: Socket) => {
      if (!socket.connecting) return;
      const secure = spec.url.protocol === 'https:';
      const connect = limit(secure ? 'secureConnect' : 'connect', t.connectMs);
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connect));
    });
    // The longest silence of the connection; node:http reports it as a 'timeout' event.
    req.setTimeout(t.idleMs, () => finish(new DirectTimeoutError('socket', t.idleMs)));
    let awaitingAnswer: NodeJS.Timeout | undefined;
    req.on('finish', () => {
      if (settled || open.answer !== undefined) return;
      awaitingAnswer = limit('response', t.responseMs);
      const length = spec.body?.byteLength ?? 0;
      if (length > 0) spec.onUploadProgress?.({ bytesDone: length, bytesTotal: length });
    });
    req.on('response', (response: IncomingMessage) => {
      if (settled) {
        response.destroy();
        return;
      }
      clearTimeout(awaitingAnswer);
      const body = decoded(response, spec.raw);
      open.answer = body;
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > spec.maxBodyBytes) {
          response.destroy();
          finish(
            new BadResponseError(
              `The answer to "${spec.what}" is larger than ${spec.maxBodyBytes} bytes; it was not read.`,
              spec.details,
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
      body.on('error', (error) => finish(error));
      response.on('error', (error) => finish(error));
      // A connection closed before the whole answer came: no error event is promised, so check here.
      response.on('close', () => {
        if (!response.complete) {
          finish(
            Object.assign(new Error('The connection closed before the answer ended.'), {
              code: 'ECONNRESET',
            }),
          );
        }
      });
      body.on('end', () =>
        finish(undefined, {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
        }),
      );
    });
    req.end(spec.body);
  });
}

/** The request, or the error of a header node:http refuses (a control character, say): nothing was sent. */
function openRequest(spec: DirectRequest, headers: Record<string, string>): ClientRequest | Error {
  const send = spec.url.protocol === 'https:' ? httpsRequest : httpRequest;
  try {
    return send(spec.url, {
      method: spec.method,
      headers,
      ...(spec.agent === undefined ? {} : { agent: spec.agent }),
    });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The answer's bytes as sent before compression (gzip, deflate or br), or as they came when `raw`. */
function decoded(response: IncomingMessage, raw: boolean): Readable {
  if (raw) return response;
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}
