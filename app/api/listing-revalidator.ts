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
import { listingTargets, listingUrl } from './device-listing.ts';
import { Http1ResponseReader, type Http1Response } from './http/http1-responses.ts';
import type { ApiResponse } from './http/transport.ts';
import { assertTokenSafe, describeRequest } from './http/url-safety.ts';

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
  /** `GET https://host/path` for the log. */
  described: string;
  folderId: string;
  pageSize: number | undefined;
  eTag: string;
  correlationId: string;
  startedAt: number;
  resolve: (result: Revalidation) => void;
}

interface HeadParts {
  /** From after the target to the If-None-Match value. */
  beforeETag: string;
  /** From after the ETag to the X-Correlation-Id value. */
  beforeCorrelationId: string;
}

/** What every request of one page size shares: where it goes, and how it is logged. */
interface Targets {
  target: (folderId: string) => string;
  /** `GET https://host/path`, the same for every folder (the id is in the query). */
  described: string;
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
  /** Request heads sent in this turn of the event loop, written at its end. */
  #outgoing = '';

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
    // Requests sent in one turn of the event loop leave as one string in one write: a write per
    // request (or a corked writev of them) costs more than the requests themselves.
    if (this.#outgoing === '') process.nextTick(this.#flush);
    this.#outgoing += head;
  }

  readonly #flush = (): void => {
    const heads = this.#outgoing;
    this.#outgoing = '';
    if (this.#usable && heads !== '') this.#socket.write(heads, 'latin1');
  };

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
  /** A connection with at most this many answers to come is given more requests. */
  readonly #refillAt: number;
  readonly #queue: Array<{ waiting: Waiting; head: string }> = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.close();
  #token: Promise<string | undefined> | undefined;
  /** The head's fixed parts once the token is known: a walk reads its token once. */
  #head: HeadParts | undefined;
  readonly #targets = new Map<number, Targets | undefined>();
  /** Connections opened so far: one that keeps failing is not opened again and again. */
  #opened = 0;
  #stopped = false;

  constructor(client: DeviceClient, options: RevalidatorOptions = {}) {
    this.#client = client;
    this.#maxConnections = Math.max(1, options.connections ?? 2);
    this.#depth = Math.max(1, options.depth ?? 32);
    this.#refillAt = Math.floor(this.#depth / 2);
    this.#signal = options.signal;
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    // A device whose answers this reader could not follow once is asked one request at a time.
    if (!client.pipelinedRevalidation) this.#stopped = true;
    // Through a proxy every listing goes through the Transport, whose agents speak to it: the pipeline's
    // raw sockets go straight to the device, which a proxied network may not even let them reach.
    if (client.transport.proxy?.proxyFor(client.deviceUrl) !== undefined) this.#stopped = true;
  }

  /** Whether the listing of `folderId` (read with `pageSize`) still has the listing ETag `eTag`. */
  async revalidate(folderId: string, eTag: string, pageSize: number | undefined): Promise<Revalidation> {
    if (this.#stopped || this.#signal?.aborted === true || !HEADER_SAFE.test(eTag)) return ASK_AGAIN;
    const targets = this.#targetsFor(pageSize);
    let head = this.#head;
    if (targets === undefined) return ASK_AGAIN;
    if (head === undefined) {
      try {
        const token = await (this.#token ??= this.#client.transport.tokens?.accessToken());
        if (token === undefined || !HEADER_SAFE.test(token)) return ASK_AGAIN;
        head = this.#head ??= this.#headParts(token);
      } catch {
        return ASK_AGAIN;
      }
      if (this.#stopped) return ASK_AGAIN;
    }
    const correlationId = randomUUID();
    const request =
      `GET ${targets.target(folderId)}${head.beforeETag}${eTag}${head.beforeCorrelationId}` +
      `${correlationId}\r\n\r\n`;
    return new Promise<Revalidation>((resolve) => {
      const waiting: Waiting = {
        described: targets.described,
        folderId,
        pageSize,
        eTag,
        correlationId,
        startedAt: Date.now(),
        resolve,
      };
      this.#queue.push({ waiting, head: request });
      this.#dispatch();
    });
  }

  /** The targets of listings read with `pageSize`, made once; undefined where no token may go. */
  #targetsFor(pageSize: number | undefined): Targets | undefined {
    const key = pageSize ?? 0;
    let targets = this.#targets.get(key);
    if (targets === undefined && !this.#targets.has(key)) {
      const url = listingUrl(this.#client, '', pageSize === undefined ? {} : { limit: pageSize });
      try {
        assertTokenSafe(url);
        targets = {
          target: listingTargets(this.#client, pageSize),
          described: describeRequest('GET', url),
        };
      } catch {
        targets = undefined;
      }
      this.#targets.set(key, targets);
    }
    return targets;
  }

  /** The fixed parts of every request head, around its ETag and correlation id. */
  #headParts(token: string): HeadParts {
    const { host } = this.#client.deviceUrl;
    return {
      beforeETag: ` HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nIf-None-Match: `,
      beforeCorrelationId:
        // The body of a changed folder is read as it comes: no compression to undo here.
        `\r\nAccept: application/json\r\nAccept-Encoding: identity\r\n` +
        `User-Agent: ${this.#client.transport.userAgent}\r\nX-Correlation-Id: `,
    };
  }

  /** Ends the connections; anything still waiting is asked again. */
  close(): void {
    this.#stopped = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    for (const { waiting } of this.#queue.splice(0)) waiting.resolve(ASK_AGAIN);
    for (const connection of this.#connections.splice(0)) connection.close();
  }

  /**
   * Sends what is queued. A connection takes requests once half its answers came back, then as many
   * as it has room for: refilled one request per answer, a walk would cost a write (and, with a
   * device that answers as fast as it is asked, a read) per folder, which is most of a poll's CPU.
   */
  #dispatch(): void {
    while (this.#queue.length > 0) {
      const connection = this.#connectionToFill();
      if (connection === undefined) return;
      const room = this.#depth - connection.load;
      for (const { waiting, head } of this.#queue.splice(0, room)) connection.send(waiting, head);
    }
  }

  #connectionToFill(): PipelinedConnection | undefined {
    let best: PipelinedConnection | undefined;
    for (const connection of this.#connections) {
      if (connection.load <= this.#refillAt && (best === undefined || connection.load < best.load))
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
      request: waiting.described,
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
        // Made only for a changed folder: a poll's 304s need no URL object each.
        url: listingUrl(
          this.#client,
          waiting.folderId,
          waiting.pageSize === undefined ? {} : { limit: waiting.pageSize },
        ),
        body: answer.body,
      },
    };
  }
}
