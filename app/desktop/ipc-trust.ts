// Which page may speak the UI contract over IPC: only the app's own renderer page, at the app's origin.
import { BugError } from '../../common/errors.ts';

/** The paths the renderer is loaded at: the folder's index (`mch-app://ui/`) or the file itself. */
const RENDERER_PATHS: ReadonlySet<string> = new Set(['/', '/index.html']);

/**
 * True only for the renderer's own page at `appOrigin` (such as `mch-app://ui`): same scheme and host
 * (port included), no user info, no query, the index page; a `#view` is the renderer's own routing and
 * allowed. Scheme and host are compared as parsed rather than through `URL.origin`, which is `"null"`
 * for a scheme Node does not know as special (a custom protocol), so every custom-scheme URL would
 * look alike. Anything unparsable, `about:blank`, `file:`, `data:` and every other page is refused.
 */
export function isTrustedRendererUrl(url: string, appOrigin: string): boolean {
  const app = parseAppOrigin(appOrigin);
  let page: URL;
  try {
    page = new URL(url);
  } catch {
    return false;
  }
  return (
    page.protocol === app.protocol &&
    page.host === app.host &&
    page.username === '' &&
    page.password === '' &&
    page.search === '' &&
    RENDERER_PATHS.has(page.pathname)
  );
}

/** The origin the app was configured with; anything but `scheme://host[:port]` is this project's bug. */
function parseAppOrigin(appOrigin: string): URL {
  let app: URL;
  try {
    app = new URL(appOrigin);
  } catch (error) {
    throw new BugError(`The app origin ${JSON.stringify(appOrigin)} is not a URL.`, { cause: error });
  }
  const bare =
    app.host !== '' &&
    app.username === '' &&
    app.password === '' &&
    (app.pathname === '' || app.pathname === '/') &&
    app.search === '' &&
    app.hash === '' &&
    !appOrigin.endsWith('/');
  if (!bare) {
    throw new BugError(`The app origin ${JSON.stringify(appOrigin)} is not scheme://host[:port].`);
  }
  return app;
}
