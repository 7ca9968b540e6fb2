// Revalidates many folder listings at once: conditional GETs pipelined (HTTP/1.1) on a couple of connections.
//
// The contract revalidates one folder per request (device-api.md §3: a listing's ETag, If-None-Match,
// 304), so a walk of 1,011 unchanged folders is 1,011 requests, every 30 s while live sync polls.
// Through node:http each costs about 0.25 ms of client CPU (a ClientRequest, its socket events, its
// parser, a write and a read per request); pipelined, the requests of a walk go out in a few writes
// and their answers come back in a few reads (RFC 9112 §9.3.2 lets a client send GETs without waiting,
// and a server answers them in order). This is only a faster way to ask: any answer that is not a 304
// or a 200, any connection that fails, and anything this reader does not understand turns into
// `ask-again`, and the caller asks through the Transport with its retries, token refresh and errors.
import { randomUUID } from 'node:crypto';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { DeviceClient } from './device-client.ts';
import { listingUrl } from './device-listing.ts';
import { Http1ResponseReader, type Http1Response } from './http1-responses.ts';
import type { ApiResponse } from './transport.ts';
import { assertTokenSafe, describeRequest } from './url-safety.ts';

export type Revalidation =
  | { kind: 'not-modified' }
  /** The folder changed: its first page, as the Transport would have answered it. */
  | { kind: 'answer'; response: ApiResponse }
  /** No answer worth using: ask through the Transport. */
  | { kind: 'ask-again' };

export interface RevalidatorOptions {
  /** Connections opened (default 2). */
  connections?: number;
  /** Requests waiting for their answer on one connection (default 32). */
  depth?: number;
  signal?: AbortSignal;
}

interface Waiting {
  url: URL;
  eTag: string;
  correlationId: string;
  startedAt: number;
  resolve: (result: Revalidation) => void;
}

/** Header values go into the request as they are: nothing that could end a line or a field. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;
const ASK_AGAIN: Revalidation = { kind: 'ask-again' };

/** One connection and the requests sent on it, answered in the order they were sent. */
class PipelinedConnection {
  readonly #socket: Socket;
  readonly #reader: Http1ResponseReader;
  readonly #waiting: Waiting[] = [];
  readonly #onAnswer: (waiting: Waiting, answer: Http1Response) => void;
  readonly #onDone: (connection: PipelinedConnection, anomaly: boolean) => void;
  #usable = true;

  constructor(
    socket: Socket,
    maxBodyBytes: number,
    onAnswer: (waiting: Waiting, answer: Http1Response) => void,
    onDone: (connection: PipelinedConnection, anomaly: boolean) => void,
  ) {
    this.#socket = socket;
    this.#reader = new Http1ResponseReader(maxBodyBytes);
    this.#onAnswer = onAnswer;
    this.#onDone = onDone;
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const answer of this.#reader.push(chunk)) this.#answered(answer);
      } catch {
        this.fail(true);
      }
    });
    socket.on('error', () => this.fail(false));
    socket.on('timeout', () => this.fail(false));
    socket.on('close', () => {
      try {
        const last = this.#reader.end();
        if (last !== undefined) this.#answered(last);
        this.fail(false);
      } catch {
        this.fail(true);
      }
    });
  }

  get usable(): boolean {
    return this.#usable;
  }

  get load(): number {
    return this.#waiting.length;
  }

  send(waiting: Waiting, head: string): void {
    this.#waiting.push(waiting);
    // Requests sent in one turn of the event loop leave in one write.
    if (this.#socket.writableCorked === 0) {
      this.#socket.cork();
      process.nextTick(() => this.#socket.uncork());
    }
    this.#socket.write(head, 'latin1');
  }

  #answered(answer: Http1Response): void {
    const waiting = this.#waiting.shift();
    // An answer nobody asked for: the server and this reader disagree on where answers start.
    if (waiting === undefined) {
      this.fail(true);
      return;
    }
    this.#onAnswer(waiting, answer);
    if (answer.lastOnConnection) this.fail(false);
  }

  /** Ends the connection; what still waits is asked again. `anomaly`: answers could not be followed. */
  fail(anomaly: boolean): void {
    if (this.#usable) {
      this.#usable = false;
      this.#onDone(this, anomaly);
    }
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(ASK_AGAIN);
    this.#socket.destroy();
  }

  close(): void {
    this.#usable = false;
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(ASK_AGAIN);
    this.#socket.end();
  }
}

/**
 * Revalidates listings of one device for one walk. `revalidate` never throws: whatever goes wrong is
 * `ask-again`. Call `close` when the walk is over.
 */
export class ListingRevalidator {
  readonly #client: DeviceClient;
  readonly #connections: PipelinedConnection[] = [];
  readonly #maxConnections: number;
  readonly #depth: number;
  readonly #queue: Array<{ waiting: Waiting; head: string }> = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.close();
  #token: Promise<string | undefined> | undefined;
  /** Connections opened so far: one that keeps failing is not opened again and again. */
  #opened = 0;
  #stopped = false;

  constructor(client: DeviceClient, options: RevalidatorOptions = {}) {
    this.#client = client;
    this.#maxConnections = Math.max(1, options.connections ?? 2);
    this.#depth = Math.max(1, options.depth ?? 32);
    this.#signal = options.signal;
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    // A device whose answers this reader could not follow once is asked one request at a time.
    if (!client.pipelinedRevalidation) this.#stopped = true;
  }

  /** Whether the listing of `folderId` (read with `pageSize`) still has the listing ETag `eTag`. */
  async revalidate(folderId: string, eTag: string, pageSize: number | undefined): Promise<Revalidation> {
    if (this.#stopped || this.#signal?.aborted === true || !HEADER_SAFE.test(eTag)) return ASK_AGAIN;
    const url = listingUrl(this.#client, folderId, pageSize === undefined ? {} : { limit: pageSize });
    let token: string | undefined;
    try {
      assertTokenSafe(url);
      token = await (this.#token ??= this.#client.transport.tokens?.accessToken());
    } catch {
      return ASK_AGAIN;
    }
    if (token === undefined || !HEADER_SAFE.test(token) || this.#stopped) return ASK_AGAIN;
    const correlationId = randomUUID();
    const transport = this.#client.transport;
    const head =
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Authorization: Bearer ${token}\r\nIf-None-Match: ${eTag}\r\nAccept: application/json\r\n` +
      // The body of a changed folder is read as it comes: no compression to undo here.
      `Accept-Encoding: identity\r\nUser-Agent: ${transport.userAgent}\r\nX-Correlation-Id: ${correlationId}\r\n\r\n`;
    return new Promise<Revalidation>((resolve) => {
      this.#queue.push({ waiting: { url, eTag, correlationId, startedAt: Date.now(), resolve }, head });
      this.#dispatch();
    });
  }

  /** Ends the connections; anything still waiting is asked again. */
  close(): void {
    this.#stopped = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    for (const { waiting } of this.#queue.splice(0)) waiting.resolve(ASK_AGAIN);
    for (const connection of this.#connections.splice(0)) connection.close();
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const connection = this.#connectionWithRoom();
      if (connection === undefined) return;
      const next = this.#queue.shift() as { waiting: Waiting; head: string };
      connection.send(next.waiting, next.head);
    }
  }

  #connectionWithRoom(): PipelinedConnection | undefined {
    let best: PipelinedConnection | undefined;
    for (const connection of this.#connections) {
      if (connection.load < this.#depth && (best === undefined || connection.load < best.load))
        best = connection;
    }
    if (best !== undefined && best.load === 0) return best;
    if (this.#connections.length < this.#maxConnections && this.#opened < this.#maxConnections * 4) {
      return this.#open();
    }
    if (best === undefined && this.#connections.length === 0) {
      // None can be opened any more: the rest goes through the Transport.
      for (const { waiting } of this.#queue.splice(0)) waiting.resolve(ASK_AGAIN);
    }
    return best;
  }

  #open(): PipelinedConnection {
    const base = this.#client.deviceUrl;
    const secure = base.protocol === 'https:';
    const port = Number(base.port || (secure ? 443 : 80));
    const host = base.hostname.replace(/^\[|\]$/g, '');
    const socket = secure
      ? connectTls({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) ? {} : { servername: host }) })
      : connectTcp({ host, port });
    const timeouts = this.#client.transport.timeouts;
    socket.setTimeout(Math.max(timeouts.connectMs, timeouts.idleMs));
    socket.setNoDelay(true);
    this.#opened += 1;
    const connection = new PipelinedConnection(
      socket,
      this.#client.transport.maxBodyBytes,
      (waiting, answer) => {
        waiting.resolve(this.#verdict(waiting, answer));
        if (!this.#stopped) this.#dispatch();
      },
      (done, anomaly) => {
        const at = this.#connections.indexOf(done);
        if (at >= 0) this.#connections.splice(at, 1);
        if (anomaly) {
          this.#client.refusePipelinedRevalidation();
          this.close();
        } else if (!this.#stopped) {
          this.#dispatch();
        }
      },
    );
    this.#connections.push(connection);
    return connection;
  }

  #verdict(waiting: Waiting, answer: Http1Response): Revalidation {
    this.#client.transport.note({
      message: 'answer',
      correlationId: waiting.correlationId,
      request: describeRequest('GET', waiting.url),
      attempt: 1,
      status: answer.status,
      durationMs: Date.now() - waiting.startedAt,
    });
    const eTag = answer.headers['etag'];
    if (answer.status === 304) {
      // A 304 names the ETag it matched (RFC 9110 §15.4.5): another one means answers and requests
      // are not paired the way this reader thinks.
      if (eTag !== undefined && eTag !== waiting.eTag) {
        this.#client.refusePipelinedRevalidation();
        this.close();
        return ASK_AGAIN;
      }
      return { kind: 'not-modified' };
    }
    const encoding = (answer.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (answer.status !== 200 || encoding !== 'identity') return ASK_AGAIN;
    return {
      kind: 'answer',
      response: {
        kind: 'ok',
        headers: answer.headers,
        correlationId: waiting.correlationId,
        url: waiting.url,
        body: answer.body,
      },
    };
  }
}
