// The HTML of the sign-in page and of the page shown for a request that cannot be trusted.
import { createHash } from 'node:crypto';

// One inline style sheet, allowed by its hash, so the Content-Security-Policy can refuse everything else.
const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #f6f8fa; --card: #fff;
  --line: #8c959f; --accent: #0b5cad; --accent-fg: #fff; --error: #b3261e; --error-bg: #fdecea; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --card: #161b22; --line: #6e7681;
    --accent: #4493f8; --accent-fg: #0d1117; --error: #ffb4ab; --error-bg: #3b1512; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg);
  color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: min(100% - 2rem, 24rem); background: var(--card); border: 1px solid var(--line);
  border-radius: 12px; padding: 2rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
p { margin: 0 0 1.5rem; color: var(--muted); }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input { width: 100%; font: inherit; color: inherit; background: transparent; padding: .6rem .75rem;
  border: 1px solid var(--line); border-radius: 6px; }
button { width: 100%; margin-top: 1.5rem; padding: .7rem; font: inherit; font-weight: 600;
  color: var(--accent-fg); background: var(--accent); border: 0; border-radius: 6px; cursor: pointer; }
input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--error); background: var(--error-bg); border-radius: 6px; padding: .75rem; }
`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The security headers of a page; `formTargets` are the origins its form may post or redirect to. */
export function pageHeaders(formTargets: readonly string[]): Record<string, string> {
  // form-action also covers the redirect that follows the form post, so the client's origin is listed.
  const formAction = formTargets.length > 0 ? formTargets.join(' ') : "'none'";
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // The page's address holds the request's state; the pages it leads to need not see it.
    'referrer-policy': 'no-referrer',
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageOptions {
  /** The authorization request's parameters, posted back with the credentials. */
  carried: Record<string, string>;
  /** What the user typed last time, so a wrong password does not cost them the name too. */
  username?: string;
  error?: string;
}

export function renderLoginPage({ carried, username, error }: LoginPageOptions): string {
  const hidden = Object.entries(carried)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  // aria-describedby ties the message to the fields, so a screen reader reads it with them.
  const invalid = error === undefined ? '' : ' aria-invalid="true" aria-describedby="error"';
  const message =
    error === undefined ? '' : `<p id="error" class="error" role="alert">${escapeHtml(error)}</p>\n`;
  return page(
    'Sign in · My Cloud',
    `<h1>Sign in</h1>
<p>to continue to the desktop sync app</p>
${message}<form method="post" action="authorize">
${hidden}
<label for="username">Username or email</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(username ?? '')}"${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function renderErrorPage(message: string): string {
  return page(
    'Sign-in request not valid · My Cloud',
    `<h1>This sign-in request is not valid</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Close this window and start the sign-in again from the app.</p>`,
  );
}
