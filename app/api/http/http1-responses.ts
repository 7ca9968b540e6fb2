// Splits a stream of HTTP/1.1 responses (pipelined answers on one connection) into status, headers and body.
//
// Only what a client needs to read answers to its own GETs, in order (RFC 9112 §6): a status line,
// header fields, and a body framed by chunked coding, Content-Length, or the end of the connection.
// Anything it does not understand is a `ResponseFramingError`: the caller then drops the connection
// and asks again by other means, so a misreading can cost time but never pair an answer with the
// wrong request.
import { MchError } from '../../../common/errors.ts';

export interface Http1Response {
  status: number;
  /** Lower-case names; repeated fields joined with ", " (RFC 9110 §5.3). */
  headers: Record<string, string>;
  body: Buffer;
  /** The server closes the connection after this answer: nothing after it will be answered. */
  lastOnConnection: boolean;
}

export class ResponseFramingError extends MchError {
  constructor(message: string) {
    super('BAD_RESPONSE', 'Unreadable answer', `${message}; the connection is dropped and asked again.`);
  }
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const DIGITS = /^\d+$/;
const HEX = /^[0-9A-Fa-f]+$/;

type State =
  | { in: 'head' }
  | { in: 'length'; left: number }
  | { in: 'chunk-size' }
  | { in: 'chunk-data'; left: number }
  | { in: 'chunk-end' }
  | { in: 'trailers' }
  | { in: 'until-close' };

/** Feed it the bytes of a connection; it hands out each complete answer, in order. */
export class Http1ResponseReader {
  readonly #maxBodyBytes: number;
  #pending: Buffer = Buffer.alloc(0);
  #state: State = { in: 'head' };
  #current: Omit<Http1Response, 'body'> | undefined;
  #body: Buffer[] = [];
  #bodyBytes = 0;

  constructor(maxBodyBytes: number) {
    this.#maxBodyBytes = maxBodyBytes;
  }

  /** The answers these bytes complete; throws `ResponseFramingError` on anything unreadable. */
  push(chunk: Buffer): Http1Response[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const done: Http1Response[] = [];
    for (;;) {
      const answer = this.#step();
      if (answer === 'more') return done;
      if (answer !== undefined) done.push(answer);
    }
  }

  /** The connection ended: an answer framed by the end of the connection is complete now. */
  end(): Http1Response | undefined {
    if (this.#state.in === 'until-close') return this.#finish();
    if (this.#state.in !== 'head' || this.#pending.length > 0) {
      throw new ResponseFramingError('The connection ended in the middle of an answer');
    }
    return undefined;
  }

  /** One step: an answer completed, undefined (progress made), or 'more' (more bytes needed). */
  #step(): Http1Response | undefined | 'more' {
    const state = this.#state;
    switch (state.in) {
      case 'head':
        return this.#readHead();
      case 'length':
      case 'chunk-data': {
        if (this.#pending.length === 0) return 'more';
        const taken = this.#pending.subarray(0, state.left);
        this.#take(taken);
        this.#pending = this.#pending.subarray(taken.length);
        state.left -= taken.length;
        if (state.left > 0) return 'more';
        if (state.in === 'length') return this.#finish();
        this.#state = { in: 'chunk-end' };
        return undefined;
      }
      case 'chunk-end':
        // A chunk's data ends with CRLF, and nothing else.
        if (this.#pending.length < 2) return 'more';
        if (!this.#pending.subarray(0, 2).equals(CRLF)) {
          throw new ResponseFramingError('A chunk does not end where its size says');
        }
        this.#pending = this.#pending.subarray(2);
        this.#state = { in: 'chunk-size' };
        return undefined;
      case 'chunk-size':
        return this.#readChunkSize();
      case 'trailers':
        return this.#readTrailers();
      case 'until-close':
        this.#take(this.#pending);
        this.#pending = Buffer.alloc(0);
        return 'more';
    }
  }

  #readHead(): Http1Response | undefined | 'more' {
    const end = this.#pending.indexOf(HEAD_END);
    if (end < 0) {
      if (this.#pending.length > MAX_HEAD_BYTES) throw new ResponseFramingError('An answer head is too long');
      return 'more';
    }
    const lines = this.#pending.subarray(0, end).toString('latin1').split('\r\n');
    this.#pending = this.#pending.subarray(end + HEAD_END.length);
    const status = STATUS_LINE.exec(lines[0] ?? '');
    if (status === null)
      throw new ResponseFramingError('An answer does not start with an HTTP/1.x status line');
    const code = Number(status[2]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const field = FIELD.exec(line);
      // Obsolete line folding and malformed fields are refused (RFC 9112 §5.2).
      if (field === null) throw new ResponseFramingError('An answer has a malformed header field');
      const name = (field[1] as string).toLowerCase();
      const value = field[2] as string;
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    // Interim answers (100 Continue...) come before the real one and have no body.
    if (code >= 100 && code < 200) return undefined;
    const connection = (headers['connection'] ?? '').toLowerCase();
    const lastOnConnection =
      /(^|,)\s*close\s*(,|$)/.test(connection) ||
      (status[1] === '0' && !/(^|,)\s*keep-alive\s*(,|$)/.test(connection));
    this.#current = { status: code, headers, lastOnConnection };
    this.#body = [];
    this.#bodyBytes = 0;
    if (code === 204 || code === 304) return this.#finish();
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      // Chunked must be the last coding; otherwise the body lasts until the connection ends.
      const codings = coding
        .toLowerCase()
        .split(',')
        .map((part) => part.trim());
      this.#state = codings.at(-1) === 'chunked' ? { in: 'chunk-size' } : { in: 'until-close' };
      return undefined;
    }
    const length = headers['content-length'];
    if (length === undefined) {
      this.#state = { in: 'until-close' };
      return undefined;
    }
    // A repeated field must repeat one value (RFC 9112 §6.3).
    const values = new Set(length.split(',').map((part) => part.trim()));
    const [only] = values;
    if (values.size !== 1 || only === undefined || !DIGITS.test(only)) {
      throw new ResponseFramingError('An answer has an unreadable Content-Length');
    }
    const left = Number(only);
    if (left > this.#maxBodyBytes) throw new ResponseFramingError('An answer is too large');
    if (left === 0) return this.#finish();
    this.#state = { in: 'length', left };
    return undefined;
  }

  #readChunkSize(): Http1Response | undefined | 'more' {
    const end = this.#pending.indexOf(CRLF);
    if (end < 0) {
      if (this.#pending.length > MAX_CHUNK_LINE_BYTES)
        throw new ResponseFramingError('A chunk size line is too long');
      return 'more';
    }
    const line = this.#pending.subarray(0, end).toString('latin1');
    this.#pending = this.#pending.subarray(end + 2);
    const size = (line.split(';')[0] ?? '').trim();
    if (!HEX.test(size) || size.length > 8)
      throw new ResponseFramingError('An answer has a malformed chunk size');
    const left = Number.parseInt(size, 16);
    if (this.#bodyBytes + left > this.#maxBodyBytes) throw new ResponseFramingError('An answer is too large');
    this.#state = left === 0 ? { in: 'trailers' } : { in: 'chunk-data', left };
    return undefined;
  }

  #readTrailers(): Http1Response | undefined | 'more' {
    for (;;) {
      const end = this.#pending.indexOf(CRLF);
      if (end < 0) {
        if (this.#pending.length > MAX_HEAD_BYTES) throw new ResponseFramingError('Trailers are too long');
        return 'more';
      }
      this.#pending = this.#pending.subarray(end + 2);
      if (end === 0) return this.#finish();
    }
  }

  #take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#bodyBytes += bytes.length;
    if (this.#bodyBytes > this.#maxBodyBytes) throw new ResponseFramingError('An answer is too large');
    this.#body.push(bytes);
  }

  #finish(): Http1Response {
    const head = this.#current as Omit<Http1Response, 'body'>;
    const body = this.#body.length === 1 ? (this.#body[0] as Buffer) : Buffer.concat(this.#body);
    this.#state = { in: 'head' };
    this.#current = undefined;
    this.#body = [];
    this.#bodyBytes = 0;
    return { ...head, body };
  }
}
