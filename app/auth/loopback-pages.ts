// The small pages the loopback redirect receiver shows in the browser after a sign-in.
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: min(100% - 2rem, 28rem); }
h1 { font-size: 1.5rem; }
`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing on these pages runs or loads anything, and their address (which held the code) is not passed on. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  // The browser need not keep the connection: the receiver stops right after this answer.
  connection: 'close',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderPage(title: string, paragraphs: readonly string[]): string {
  const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mch-sync</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

export const SIGNED_IN_PAGE = renderPage('You are signed in', [
  'mch-sync has received your sign-in. You can close this window and return to mch-sync.',
]);

export function failedPage(message: string): string {
  return renderPage('Sign-in did not finish', [message, 'You can close this window.']);
}

export const UNRELATED_PAGE = renderPage('This is not the sign-in mch-sync is waiting for', [
  'This answer does not belong to the sign-in in progress (it may be from an older attempt).',
  'Finish the sign-in in the window that mch-sync opened, or start again with mch-sync login.',
]);

export const NOT_FOUND_PAGE = renderPage('Nothing here', ['This address is not part of a sign-in.']);
