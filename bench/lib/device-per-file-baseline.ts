// Baseline of device-per-file.bench.ts: a bare node:http server that stores, sends and deletes small files as the device's API does, with no framework and no database.
//
// It does the file work the device cannot skip (the body read, the content written, flushed and renamed
// into place, read back, unlinked) and keeps its records in a Map, so the device's CPU above this is
// what its framework, SQLite, permissions and search indexing cost.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createReadStream, mkdirSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

interface Entry {
  etag: string;
  /** Undefined for a folder. */
  path: string | undefined;
}

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: device-per-file-baseline.ts DATA_DIR');
const contentDir = join(dataDir, 'content');
const tmpDir = join(dataDir, 'tmp');
mkdirSync(contentDir, { recursive: true });
mkdirSync(tmpDir, { recursive: true });
const entries = new Map<string, Entry>();

function token(): string {
  return randomBytes(12).toString('base64url');
}

function answer(response: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-length': '0', ...headers });
  response.end();
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The two parts of a create body: metadata JSON and the content (if any), as the device reads them. */
function splitMultipart(body: Buffer, contentType: string): { metadata: unknown; content?: Buffer } {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1]?.trim();
  if (!boundary) throw new Error('no boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2);
    const headersEnd = part.indexOf('\r\n\r\n');
    parts.push(part.subarray(headersEnd + 4));
    at = next;
  }
  const [metadata, content] = parts;
  if (!metadata) throw new Error('no metadata part');
  return { metadata: JSON.parse(metadata.toString('utf8')) as unknown, ...(content ? { content } : {}) };
}

async function create(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { metadata, content } = splitMultipart(
    await readBody(request),
    request.headers['content-type'] ?? '',
  );
  if (typeof (metadata as { name?: unknown }).name !== 'string') return answer(response, 400);
  const id = token();
  let path: string | undefined;
  if (content) {
    // The device's crash safety: written to tmp/, flushed, renamed into content/.
    const temp = join(tmpDir, token());
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    const shard = join(contentDir, id.slice(0, 2));
    mkdirSync(shard, { recursive: true });
    path = join(shard, id);
    await rename(temp, path);
  }
  const etag = `"${token()}"`;
  entries.set(id, { etag, path });
  answer(response, 201, { location: `/sdk/v2/files/${id}`, etag });
}

async function read(id: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const entry = entries.get(id);
  if (!entry?.path) return answer(response, 404);
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && ifMatch !== entry.etag) return answer(response, 412);
  const { size } = await stat(entry.path);
  response.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': String(size),
    etag: entry.etag,
  });
  createReadStream(entry.path).pipe(response);
}

async function remove(id: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const entry = entries.get(id);
  if (!entry) return answer(response, 404);
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && ifMatch !== entry.etag) return answer(response, 412);
  entries.delete(id);
  if (entry.path) await unlink(entry.path);
  answer(response, 204);
}

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!request.headers.authorization) return answer(response, 401);
  const url = request.url ?? '';
  if (request.method === 'POST' && url.startsWith('/sdk/v2/files')) return create(request, response);
  const content = /^\/sdk\/v2\/files\/([^/?]+)\/content/.exec(url);
  if (request.method === 'GET' && content?.[1]) return read(content[1], request, response);
  const item = /^\/sdk\/v2\/files\/([^/?]+)$/.exec(url);
  if (request.method === 'DELETE' && item?.[1]) return remove(item[1], request, response);
  answer(response, 404);
}

const server = createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) answer(response, 500);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) console.log(`listening http://127.0.0.1:${address.port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
