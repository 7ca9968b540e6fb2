// One HTTP attempt: headers, body, timeouts, upload progress; no retries or token logic here.
import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import type { Got } from 'got';
import { BadResponseError } from '../../../common/errors.ts';
import { sendDirect } from './direct-attempt.ts';
import { proxyRefusalOf, type ResponseKind } from './http-errors.ts';
import type { ProxyResolver } from './proxy-resolver.ts';
import { describeRequest, type HttpMethod } from './url-safety.ts';
import type { Progress, Timeouts } from './http-limits.ts';

export interface RequestSpec {
  method: HttpMethod;
  url: URL;
  /** A few words for messages: "get file abc", "create report.pdf". */
  what: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** Raw bytes, or a function giving a fresh stream for each attempt. */
  body?: Uint8Array | (() => Readable);
  contentType?: string;
  contentLength?: number;
  /** `provider` (the default when the transport has one), `none`, or an explicit token. */
  auth?: 'provider' | 'none' | { bearer: string };
  /** Overrides the rule of retry-policy.ts (for example a GET-like POST). */
  idempotent?: boolean;
  /** Non-success kinds returned to the caller instead of thrown (`not-modified`, `range-not-satisfiable`). */
  accept?: readonly ResponseKind[];
  signal?: AbortSignal | undefined;
  maxBodyBytes?: number;
  /** Answer bodies are passed through undecoded (byte ranges of content must stay exact). */
  raw?: boolean;
  onUploadProgress?: (progress: Progress) => void;
}

/** One attempt: the answer's status and headers, and its body (read in `buffer` mode, else a stream). */
export async function attemptOnce(
  got: Got,
  spec: RequestSpec,
  context: {
    token: string | undefined;
    correlationId: string;
    mode: 'buffer' | 'stream';
    timeouts: Timeouts;
    maxBodyBytes: number;
    userAgent: string;
    /** The proxies of the run; requests go direct without. */
    proxy?: ProxyResolver | undefined;
  },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer | Readable }> {
  const { token, correlationId, mode } = context;
  const agent = context.proxy?.agentFor(spec.url);
  const sent: Record<string, string> = { ...spec.headers, 'x-correlation-id': correlationId };
  if (token !== undefined) sent['authorization'] = `Bearer ${token}`;
  if (spec.raw) sent['accept-encoding'] = 'identity';
  let body: Uint8Array | Readable | undefined;
  if (spec.json !== undefined) {
    body = Buffer.from(JSON.stringify(spec.json));
    sent['content-type'] = 'application/json';
  } else if (spec.form !== undefined) {
    body = Buffer.from(new URLSearchParams(spec.form).toString());
    sent['content-type'] = 'application/x-www-form-urlencoded';
  } else if (spec.body !== undefined) {
    body = typeof spec.body === 'function' ? spec.body() : spec.body;
    if (spec.contentType !== undefined) sent['content-type'] = spec.contentType;
  }
  if (spec.contentLength !== undefined) sent['content-length'] = String(spec.contentLength);
  const t = context.timeouts;
  if (mode === 'buffer' && !(body instanceof Readable)) {
    const answer = await sendDirect({
      method: spec.method,
      url: spec.url,
      headers: { 'user-agent': context.userAgent, ...sent },
      body,
      raw: spec.raw === true,
      signal: spec.signal,
      timeouts: t,
      maxBodyBytes: spec.maxBodyBytes ?? context.maxBodyBytes,
      onUploadProgress: spec.onUploadProgress,
      what: spec.what,
      details: { correlationId, request: describeRequest(spec.method, spec.url) },
      agent,
    });
    const refused = proxyRefusalOf(answer.status, answer.headers, spec.url, context.proxy);
    if (refused !== undefined) throw refused;
    return answer;
  }
  const stream = got.stream(spec.url, {
    method: spec.method,
    headers: sent,
    body,
    signal: spec.signal,
    decompress: spec.raw !== true,
    ...(agent === undefined
      ? {}
      : { agent: agent instanceof HttpsAgent ? { https: agent } : { http: agent } }),
    timeout: {
      connect: t.connectMs,
      secureConnect: t.connectMs,
      response: t.responseMs,
      socket: t.idleMs,
      // The total limit only applies when the whole answer is read here; a download may take hours.
      ...(mode === 'buffer' ? { request: t.totalMs } : {}),
    },
  });
  if (body === undefined && spec.method !== 'GET' && spec.method !== 'HEAD') stream.end();
  const report = spec.onUploadProgress;
  if (report) {
    stream.on('uploadProgress', (p: { transferred: number; total?: number }) =>
      report({ bytesDone: p.transferred, bytesTotal: p.total ?? spec.contentLength }),
    );
  }
  // A source stream still being read (the answer came early, or the connection failed) must be closed.
  const closeSource = (): void => {
    if (body instanceof Readable && !body.readableEnded) body.destroy();
  };
  const response = await new Promise<{ statusCode: number; headers: IncomingHttpHeaders }>(
    (resolve, reject) => {
      stream.once('error', (error) => {
        closeSource();
        reject(error);
      });
      stream.once('response', (answer: { statusCode: number; headers: IncomingHttpHeaders }) => {
        stream.removeAllListeners('error');
        // Whoever reads the body sees its errors; this only keeps an unread one from being unhandled.
        stream.on('error', () => undefined);
        resolve(answer);
      });
    },
  );
  closeSource();
  const refused = proxyRefusalOf(response.statusCode, response.headers, spec.url, context.proxy);
  if (refused !== undefined) {
    stream.destroy();
    throw refused;
  }
  if (mode === 'stream') return { status: response.statusCode, headers: response.headers, body: stream };
  const details = { correlationId, request: describeRequest(spec.method, spec.url) };
  const limit = spec.maxBodyBytes ?? context.maxBodyBytes;
  return {
    status: response.statusCode,
    headers: response.headers,
    body: await readAll(stream, limit, spec, details),
  };
}

/** Reads a whole answer into memory, refusing one larger than `limit` instead of exhausting memory. */
export async function readAll(
  stream: Readable,
  limit: number,
  spec: RequestSpec,
  details: { correlationId: string; request: string },
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      stream.destroy();
      throw new BadResponseError(
        `The answer to "${spec.what}" is larger than ${limit} bytes; it was not read.`,
        details,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
