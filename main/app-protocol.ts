// The renderer's own origin, mch-app://ui: a privileged standard scheme that serves only the built renderer's files, each with the window's security headers (its CSP among them).
import { readFile, realpath } from 'node:fs/promises';
import type { CustomScheme, Protocol } from 'electron';
import { SECURITY_HEADERS } from '../app/ui-host/host-answers.ts';
import { contentTypeOf, resolveStaticFile } from '../app/ui-host/static-files.ts';

export const APP_SCHEME = 'mch-app';
export const APP_HOST = 'ui';
/** What isTrustedRendererUrl compares with. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/`;

/**
 * `standard` gives the scheme real origins (relative URLs, `'self'` in the CSP); `secure` makes it a
 * secure context like https. No fetch, CORS, service workers or streaming: the renderer needs none,
 * and its CSP allows only 'self'. Must be registered before the app is ready.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: false,
    corsEnabled: false,
    allowServiceWorkers: false,
    bypassCSP: false,
    stream: false,
    codeCache: false,
  },
};

/** Serves `rendererDir` at mch-app://ui/: GET only, files inside the folder only (resolveStaticFile). */
export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  let root: Promise<string> | undefined;
  protocol.handle(APP_SCHEME, async (request) => {
    const refuse = (status: number): Response => new Response(null, { status, headers: SECURITY_HEADERS });
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return refuse(404);
    if (request.method !== 'GET') return refuse(405);
    root ??= realpath(rendererDir);
    const file = await resolveStaticFile(await root, url.pathname === '/' ? '/index.html' : url.pathname);
    if (file === null) return refuse(404);
    return new Response(await readFile(file), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': contentTypeOf(file) },
    });
  });
}
