// The window-ready baseline page: the window's own HTML, CSS and icon as the UI host serves them, with every script replaced by an inert one of the same byte count.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import type { UiHostClient } from './ui-host-client.ts';

/** What the static page shows once its script has run: the baseline's "ready". */
export const STATIC_READY_TEXT = 'static page ready';

export interface PageBytes {
  html: number;
  js: number;
  css: number;
  other: number;
  files: number;
}

/** `length` bytes of JavaScript that do `statement` and nothing else (the rest is a comment). */
function inertScript(statement: string, length: number): Buffer {
  const head = `${statement}\n/*`;
  const tail = '*/\n';
  const pad = length - head.length - tail.length;
  if (pad < 0) throw new Error(`a script of ${length} bytes cannot hold ${JSON.stringify(statement)}`);
  return Buffer.from(`${head}${'x'.repeat(pad)}${tail}`);
}

/**
 * Writes into `dir` the page the host serves at `/` and every file it names (`src=`, `href=`), same
 * paths and sizes: HTML, CSS and the icon as they are; the page's module script only writes
 * STATIC_READY_TEXT into `#root`, any other script does nothing. Returns the byte counts.
 */
export async function writeStaticTwin(client: UiHostClient, dir: string): Promise<PageBytes> {
  const html = await client.get('/');
  const text = html.toString('utf8');
  const bytes: PageBytes = { html: html.length, js: 0, css: 0, other: 0, files: 1 };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), html);
  const modules = new Set(
    [...text.matchAll(/<script\b[^>]*type="module"[^>]*src="([^"]+)"/g)].map((match) => match[1]),
  );
  for (const [, reference] of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) {
    if (reference === undefined || /^[a-z]+:/i.test(reference)) continue;
    const path = new URL(reference, 'http://page/').pathname;
    const served = await client.get(path);
    const target = join(dir, ...path.split('/').filter(Boolean));
    mkdirSync(dirname(target), { recursive: true });
    bytes.files += 1;
    switch (extname(path)) {
      case '.js':
        bytes.js += served.length;
        writeFileSync(
          target,
          modules.has(reference)
            ? inertScript(
                `document.getElementById('root').textContent = '${STATIC_READY_TEXT}';`,
                served.length,
              )
            : inertScript('void 0;', served.length),
        );
        break;
      case '.css':
        bytes.css += served.length;
        writeFileSync(target, served);
        break;
      default:
        bytes.other += served.length;
        writeFileSync(target, served);
    }
  }
  if (modules.size === 0)
    throw new Error('the window has no module script: nothing marks the static page ready');
  return bytes;
}
