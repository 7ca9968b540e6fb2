// The one style sheet of the recipient's page and the security headers that allow only it.
import { createHash } from 'node:crypto';

// Colours meet WCAG AA (4.5:1) for text on both schemes; the accent also marks keyboard focus.
export const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #f6f8fa; --card: #fff;
  --line: #d0d7de; --strong-line: #8c959f; --accent: #0b5cad; --accent-bg: #ddf4ff; --thumb: #eaeef2; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --card: #161b22; --line: #30363d;
    --strong-line: #6e7681; --accent: #4493f8; --accent-bg: #10243e; --thumb: #21262d; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.wrap { width: min(100% - 2rem, 60rem); margin: 0 auto; }
.skip { position: absolute; left: 1rem; top: -3rem; padding: .5rem 1rem; background: var(--card);
  color: var(--accent); border-radius: 6px; }
.skip:focus { top: 1rem; }
header { padding: 2rem 0 1rem; }
.brand { margin: 0; color: var(--muted); font-size: .875rem; font-weight: 600; letter-spacing: .02em; }
h1 { margin: .25rem 0 .25rem; font-size: 1.75rem; line-height: 1.25; overflow-wrap: anywhere; }
.summary { margin: 0; color: var(--muted); }
nav ol { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0 0 1rem; padding: 0; }
nav li { overflow-wrap: anywhere; }
nav li + li::before { content: "/"; color: var(--muted); margin-right: .25rem; }
main { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: .5rem 1rem;
  margin-bottom: 2rem; }
a { color: var(--accent); text-underline-offset: .15em; }
a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-size: .875rem; color: var(--muted); font-weight: 600; padding: .5rem; }
td { padding: .5rem; border-top: 1px solid var(--line); vertical-align: middle; }
th.num, td.num { text-align: right; white-space: nowrap; }
td.date { color: var(--muted); white-space: nowrap; }
td.thumb { width: 3.5rem; }
td.name { overflow-wrap: anywhere; font-weight: 500; }
.icon, .thumb img { display: block; width: 40px; height: 40px; border-radius: 6px; background: var(--thumb); }
.thumb img { object-fit: cover; }
.icon { display: grid; place-items: center; color: var(--muted); }
.icon svg { width: 24px; height: 24px; fill: currentColor; }
td.action { text-align: right; }
.button { display: inline-block; padding: .3rem .8rem; border: 1px solid var(--strong-line); border-radius: 6px;
  text-decoration: none; font-weight: 600; font-size: .875rem; white-space: nowrap; }
.button:hover { background: var(--accent-bg); }
.empty, .more { padding: 1rem .5rem; color: var(--muted); margin: 0; }
.notice { padding: 1.5rem .5rem; }
.notice h1 { font-size: 1.5rem; }
.notice p { color: var(--muted); margin: .5rem 0 0; }
footer { color: var(--muted); font-size: .875rem; padding-bottom: 2rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (max-width: 40rem) {
  header { padding-top: 1.25rem; }
  h1 { font-size: 1.4rem; }
  main { padding: 0 .75rem; }
  table, tbody, tr, td { display: block; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { display: grid; grid-template-columns: 40px auto minmax(0, 1fr) auto; grid-template-areas:
    "thumb name name action" "thumb size date date"; column-gap: .6rem; align-items: center;
    padding: .75rem 0; border-top: 1px solid var(--line); }
  tbody tr:first-child { border-top: 0; }
  td { padding: 0; border: 0; }
  td.thumb { grid-area: thumb; width: auto; }
  td.name { grid-area: name; }
  td.num { grid-area: size; text-align: left; font-size: .875rem; color: var(--muted); }
  td.date { grid-area: date; font-size: .875rem; }
  td.date .clock { display: none; }
  .button { padding: .3rem .6rem; }
  td.action { grid-area: action; }
}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Headers of every answer under /s: no scripts, no external anything, not indexed, no referrer (the
 * address is the credential, so it must not leak to other sites or into search engines).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** Shared content is never run in the device's origin, even if it is HTML opened directly. */
export const CONTENT_CSP = "default-src 'none'; sandbox";
