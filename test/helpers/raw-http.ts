// Sends hand-written HTTP/1.1 requests over a plain socket, for requests fetch refuses to send.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

function hostAndPort(base: string): { host: string; port: number } {
  const url = new URL(base);
  return { host: url.hostname, port: Number(url.port) };
}

function decodeChunked(body: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(body.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) break;
    chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}

export function parseRawResponse(bytes: Buffer): RawResponse {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd === -1)
    throw new Error(`no complete HTTP response in ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine = '', ...headerLines] = bytes.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rawBody = bytes.subarray(headEnd + 4);
  const body = headers['transfer-encoding']?.includes('chunked') ? decodeChunked(rawBody) : rawBody;
  return { status, headers, body };
}

/**
 * Writes `request` (request line, headers and body, exactly as given) to the device and reads the
 * answer until the server closes the connection; send `Connection: close` so it does.
 */
export function rawRequest(base: string, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  const { host, port } = hostAndPort(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseRawResponse(Buffer.concat(received)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.write(request);
  });
}

/** A request head with `Connection: close` and the given extra header lines, ready for a body. */
export function requestHead(
  method: string,
  path: string,
  base: string,
  headers: Record<string, string> = {},
): string {
  const { host, port } = hostAndPort(base);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export interface PartialRequest {
  /** Drops the connection, as a client that crashes mid-upload would; resolves once it is closed. */
  drop(): Promise<void>;
}

/**
 * Sends a request head and part of the body it announces, and keeps the connection open until
 * `drop()`; resolves once those bytes are handed to the operating system.
 */
export function partialRequest(base: string, head: string, partialBody: Buffer): Promise<PartialRequest> {
  const { host, port } = hostAndPort(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const closed = new Promise<void>((resolveClosed) => socket.on('close', () => resolveClosed()));
    socket.on('error', reject);
    socket.write(head);
    socket.write(partialBody, (error) => {
      if (error) {
        reject(error);
        return;
      }
      resolve({
        drop: () => {
          socket.destroy();
          return closed;
        },
      });
    });
  });
}
