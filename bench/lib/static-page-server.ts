// Baseline of the window-ready bench: a bare node:http server of a static page's files from memory, run as a child process.
//
// `node static-page-server.ts DIR` serves every file under DIR at its path (`/` is index.html) with its
// type, its length and `cache-control: no-store` (as the UI host sends), and answers `/?secret=…` with
// a 303 to `/` as the UI host does, so both pages are reached the same way. Prints `listening <origin>`.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, sep } from 'node:path';

/** Where a parent finds this script. */
export const STATIC_PAGE_SERVER = import.meta.filename;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function serve(dir: string): void {
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const url = `/${relative(dir, path).split(sep).join('/')}`;
    const body = readFileSync(path);
    files.set(url === '/index.html' ? '/' : url, {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      body,
    });
  }
  const server = createServer((request, response) => {
    const target = request.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark < 0 ? target : target.slice(0, mark);
    if (path === '/' && mark >= 0) {
      response.writeHead(303, { location: '/', 'content-length': 0 }).end();
      return;
    }
    const file = files.get(path);
    if (file === undefined) {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    response.writeHead(200, {
      'content-type': file.type,
      'content-length': file.body.length,
      'cache-control': 'no-store',
    });
    response.end(file.body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (typeof address === 'object' && address) console.log(`listening http://127.0.0.1:${address.port}`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.argv[1] === import.meta.filename) {
  const dir = process.argv[2];
  if (dir === undefined) {
    console.error('usage: static-page-server.ts DIR');
    process.exit(2);
  }
  serve(dir);
}
