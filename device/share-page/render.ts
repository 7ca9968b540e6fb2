// The HTML of the recipient's page: a listing of shared files and folders, and the not-found page.
import { escapeHtml, formatDate, formatSize } from './format.ts';
import { STYLE } from './page-style.ts';

export interface Crumb {
  name: string;
  /** Absent for the page being shown. */
  href?: string;
}

export interface EntryView {
  name: string;
  isDir: boolean;
  /** A folder's page, or for a file its download. */
  href: string;
  size: number;
  mTime: number;
  /** For small images: the image itself, shown as a thumbnail. */
  previewSrc?: string;
}

export interface ListingView {
  title: string;
  crumbs: Crumb[];
  entries: EntryView[];
  /** The next page of a large folder. */
  moreHref?: string;
}

const FOLDER_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M10 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-8l-2-2z"/></svg>';
const FILE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 2a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6H6zm7 1.5L18.5 9H13V3.5z"/></svg>';

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function breadcrumb(crumbs: readonly Crumb[]): string {
  if (crumbs.length < 2) return '';
  const items = crumbs.map((crumb) =>
    crumb.href === undefined
      ? `<li aria-current="page">${escapeHtml(crumb.name)}</li>`
      : `<li><a href="${escapeHtml(crumb.href)}">${escapeHtml(crumb.name)}</a></li>`,
  );
  return `<nav aria-label="Breadcrumb"><ol>${items.join('')}</ol></nav>\n`;
}

function entryRow(entry: EntryView): string {
  const name = escapeHtml(entry.name);
  const thumb = entry.previewSrc
    ? `<img src="${escapeHtml(entry.previewSrc)}" alt="Preview of ${name}" width="40" height="40" loading="lazy" decoding="async">`
    : `<span class="icon">${entry.isDir ? FOLDER_ICON : FILE_ICON}</span>`;
  const { day, clock } = formatDate(entry.mTime);
  const date = `<time datetime="${new Date(entry.mTime).toISOString()}">${day}<span class="clock">, ${clock}</span></time>`;
  if (entry.isDir) {
    return `<tr class="folder">
<td class="thumb">${thumb}</td>
<td class="name"><a href="${escapeHtml(entry.href)}">${name}</a><span class="visually-hidden">, folder</span></td>
<td class="num">Folder</td>
<td class="date">${date}</td>
<td class="action"><a class="button" href="${escapeHtml(entry.href)}" aria-label="Open ${name}">Open</a></td>
</tr>`;
  }
  return `<tr class="file">
<td class="thumb">${thumb}</td>
<td class="name">${name}</td>
<td class="num"><data value="${entry.size}">${formatSize(entry.size)}</data></td>
<td class="date">${date}</td>
<td class="action"><a class="button" href="${escapeHtml(entry.href)}" download aria-label="Download ${name}">Download</a></td>
</tr>`;
}

function summary(entries: readonly EntryView[]): string {
  const folders = entries.filter((entry) => entry.isDir).length;
  const files = entries.length - folders;
  const parts = [];
  if (files > 0) parts.push(files === 1 ? '1 file' : `${files} files`);
  if (folders > 0) parts.push(folders === 1 ? '1 folder' : `${folders} folders`);
  return parts.length === 0 ? 'Empty folder' : parts.join(', ');
}

export function renderListingPage(view: ListingView): string {
  const table =
    view.entries.length === 0
      ? '<p class="empty">This folder is empty.</p>'
      : `<table>
<caption class="visually-hidden">Contents of ${escapeHtml(view.title)}</caption>
<thead><tr><th scope="col" colspan="2">Name</th><th scope="col" class="num">Size</th><th scope="col">Modified</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${view.entries.map(entryRow).join('\n')}
</tbody>
</table>`;
  const more =
    view.moreHref === undefined
      ? ''
      : `\n<p class="more"><a href="${escapeHtml(view.moreHref)}">Show more</a></p>`;
  return document(
    `${view.title} · Shared with you`,
    `<a class="skip" href="#content">Skip to the files</a>
<div class="wrap">
<header>
<p class="brand">My Cloud · shared with you by link</p>
<h1>${escapeHtml(view.title)}</h1>
<p class="summary">${summary(view.entries)}${view.moreHref === undefined ? '' : ' and more'}</p>
</header>
${breadcrumb(view.crumbs)}<main id="content">
${table}${more}
</main>
<footer>Anyone with this link can see and download these files.</footer>
</div>`,
  );
}

/** The page for an unknown share, a revoked one or an item outside it: it says nothing about which. */
export function renderNotFoundPage(): string {
  return noticePage(
    'Link not available',
    'This link is not available',
    'The files may no longer be shared, or the link may be incomplete. Ask the person who sent it for a new one.',
  );
}

export function renderErrorPage(status: number): string {
  return status >= 500
    ? noticePage(
        'Something went wrong',
        'Something went wrong',
        'The device could not show this page. Try again later.',
      )
    : noticePage(
        'Address not valid',
        'This address is not valid',
        'Check the link you were given, or ask for a new one.',
      );
}

function noticePage(title: string, heading: string, text: string): string {
  return document(
    `${title} · My Cloud`,
    `<div class="wrap">
<header><p class="brand">My Cloud</p></header>
<main id="content" class="notice">
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
</main>
</div>`,
  );
}
