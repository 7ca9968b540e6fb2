// Builds the renderer into a temporary folder and serves it over loopback with the window's CSP, for the view tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import { rendererViteConfig } from '../../vite.config.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** desktop-app.md §1: the same policy in Electron and the headless host; no 'unsafe-inline', no 'unsafe-eval'. */
export const WINDOW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Served beside the renderer from the same origin, so axe-core runs under 'self' without lifting the policy. */
export const AXE_PATH = '/__test/axe.min.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface RendererServer {
  url: string;
  close(): Promise<void>;
}

export async function serveRenderer(): Promise<RendererServer> {
  // A folder of its own: dist/renderer may be rebuilt or served by another test at the same time.
  const outDir = mkdtempSync(join(tmpdir(), 'mch-renderer-'));
  await build({ ...rendererViteConfig(join(ROOT, 'renderer'), outDir), configFile: false });
  const axe = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    let body: Buffer;
    let type: string;
    try {
      if (path === AXE_PATH) {
        body = axe;
        type = TYPES['.js']!;
      } else {
        const file = normalize(join(outDir, path === '/' ? 'index.html' : path));
        if (!file.startsWith(outDir)) throw new Error('outside');
        body = readFileSync(file);
        type = TYPES[extname(file)] ?? 'application/octet-stream';
      }
    } catch {
      response.writeHead(404, { 'content-security-policy': WINDOW_CSP }).end();
      return;
    }
    response.writeHead(200, { 'content-type': type, 'content-security-policy': WINDOW_CSP }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
