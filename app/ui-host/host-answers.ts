// What the UI host answers with: the headers every response carries, contract errors as JSON, small pages.
import type { ServerResponse } from 'node:http';
import type { InvokeResult, UiError } from '../../common/contract.ts';
import { CONTENT_SECURITY_POLICY } from '../ui/content-security-policy.ts';

/**
 * Set on every response before anything else is decided, so a refusal carries them too. `no-store`
 * everywhere: the port changes with each run, so a cache could only ever serve a stale renderer after
 * an upgrade on a fixed `--port`, and loopback makes refetching free. No `Access-Control-*` header is
 * ever sent: other origins get nothing they could read.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // For browsers too old for `frame-ancestors`.
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export function setSecurityHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
}

/** False once the client has gone or an answer was sent: there is nobody left to answer. */
export function canAnswer(response: ServerResponse): boolean {
  return !response.headersSent && !response.destroyed && !response.writableEnded;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: InvokeResult<unknown>,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJsonText(response, status, JSON.stringify(body), headers);
}

/** `text` is an InvokeResult already turned into JSON. */
export function sendJsonText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (!canAnswer(response)) return;
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendContractError(
  response: ServerResponse,
  status: number,
  error: UiError,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(response, status, { ok: false, error }, headers);
}

/** A page for a person who reached the host in a browser: no script, no style, nothing loaded. */
export function sendPage(
  response: ServerResponse,
  status: number,
  title: string,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (!canAnswer(response)) return;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mch-sync</title>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
</body>
</html>
`;
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(page),
  });
  response.end(page);
}

/** A refusal: a contract error for the bridge's calls under `/api/`, a page for anything a person may open. */
export function sendRefusal(
  response: ServerResponse,
  status: number,
  error: UiError,
  asJson: boolean,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (asJson) sendContractError(response, status, error, headers);
  else sendPage(response, status, error.title, error.message, headers);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
