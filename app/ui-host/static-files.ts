// The built renderer's files as the UI host serves them: only files inside its folder, with their types.
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** With `nosniff`, a file of another type is only ever downloaded, never run or styled. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The real path of the file that `urlPath` (the part of the request target before `?`, still
 * percent-encoded) names inside `root` (a real path), or null: not there, a folder, or anything that
 * could leave the folder. Segments are decoded one by one and any `..`, `.`, dotfile, empty segment,
 * backslash or NUL is refused rather than normalized away, so `%2e%2e`, `..%2f` and `//etc/passwd` never
 * name a file; a symlink is followed only when its target is still inside `root`.
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | null> {
  if (!urlPath.startsWith('/')) return null;
  const segments: string[] = [];
  for (const raw of urlPath.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  if (segments.length === 0) return null;
  let real: string;
  try {
    real = await realpath(join(root, ...segments));
    if (!real.startsWith(root + sep) || !(await stat(real)).isFile()) return null;
  } catch {
    return null;
  }
  return real;
}

/**
 * `index.html` with the host's bridge loaded first: right before its first `<script` (Vite puts its
 * module script in `<head>`), else at the end of `<head>`, else after the doctype (before it would put
 * the page in quirks mode). A classic script runs before any module script, so the renderer finds
 * `window.mchBridge` without knowing its host.
 */
export function injectBridge(html: string, bridgePath: string): string {
  const tag = `<script src="${bridgePath}"></script>`;
  const script = html.search(/<script\b/i);
  if (script >= 0) return html.slice(0, script) + tag + html.slice(script);
  const headEnd = html.search(/<\/head\s*>/i);
  if (headEnd >= 0) return html.slice(0, headEnd) + tag + html.slice(headEnd);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype === null ? 0 : doctype[0].length;
  return html.slice(0, at) + tag + html.slice(at);
}
