// KDE's places (`user-places.xbel`, the sidebar of Dolphin and the KDE file dialogs): our bookmarks found, added and taken out by text surgery that keeps every other byte.
import { createHash } from 'node:crypto';
import { bytesOf, fileUri, folderBytes, folderOfUri } from './gtk-bookmarks.ts';
import { IntegrateError } from './integrate-errors.ts';
import { xmlText } from './quoting.ts';

/*
 * Like gtk-bookmarks.ts, everything here works on the file's bytes, one character each (latin1), so
 * bytes this code does not understand come back as they were. KDE rewrites the whole file whenever a
 * place changes (QDomDocument, one space of indent a level), so a bookmark of ours is recognised by
 * its `<ID>`, never by its exact text.
 */

/**
 * A new places file, as KBookmarkManager starts one. It has no `kde_places_version`, so when KDE first
 * reads it, KFilePlacesModel adds its default places (Home, Desktop, Downloads, Network, Trash...)
 * that are missing, exactly as it does for a file that does not exist (kfileplacesmodel.cpp): the user
 * gets the same sidebar as without our file, plus our places.
 */
export const EMPTY_XBEL =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE xbel>\n' +
  '<xbel xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" ' +
  'xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info" ' +
  'xmlns:kdepriv="http://www.kde.org/kdepriv">\n</xbel>\n';

/** Every ID of ours starts with this; the profile's tag follows. */
const ID_PREFIX = 'mch-sync';

/**
 * The `<ID>` of our place of `folder` for a profile (`profileKey` undefined: the default one). KDE
 * reads an ID as an opaque string (KFilePlacesItem::id) and makes one only for a bookmark without
 * it; ours carries the profile and the folder, so each profile finds its own places and no other's.
 */
export function kdePlaceId(profileKey: string | undefined, folder: string): string {
  const folderKey = createHash('sha256').update(folder).digest('hex').slice(0, 16);
  return `${ID_PREFIX}/${profileKey ?? 'default'}/${folderKey}`;
}

/** Whether `id` is one of ours for the profile of `profileKey`. */
export function isOurKdePlaceId(id: string | undefined, profileKey: string | undefined): boolean {
  return id?.startsWith(`${ID_PREFIX}/${profileKey ?? 'default'}/`) === true;
}

/** One `<bookmark>` element of the file: where it is, its ID and the folder its href names. */
export interface KdePlace {
  start: number;
  end: number;
  id: string | undefined;
  /** The folder (bytes, as `folderOfUri`), or undefined for a place that is not a local folder. */
  folder: string | undefined;
}

// Comments and CDATA are skipped whole: a bookmark commented out by hand is not a bookmark.
const SKIPPED = String.raw`<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>`;
/** A start tag's attributes, where a quoted value may hold `>`. */
const ATTRIBUTES = String.raw`(?:[^>"']|"[^"]*"|'[^']*')*`;

/** The places of `bytes` and where its closing `</xbel>` is; refuses a file it cannot edit safely. */
export function scanKdePlaces(bytes: string, path: string): { places: KdePlace[]; closing: number } {
  const places: KdePlace[] = [];
  // No file, or a blank one (KDE cannot read it either): no places, and `addKdePlace` starts anew.
  if (/^\s*$/.test(bytes)) return { places, closing: -1 };
  let root: string | undefined;
  let closing = -1;
  const tokens = new RegExp(`${SKIPPED}|<(bookmark|xbel)(?=[\\s/>])${ATTRIBUTES}>|</xbel\\s*>`, 'g');
  for (let match = tokens.exec(bytes); match !== null; match = tokens.exec(bytes)) {
    const token = match[0];
    if (token.startsWith('<!')) continue;
    if (token.startsWith('</')) {
      closing = match.index;
      continue;
    }
    if (match[1] === 'xbel') {
      if (token.endsWith('/>')) throw invalid(path, 'its <xbel> element is empty (<xbel/>)');
      root ??= token;
      continue;
    }
    const folder = folderOfHref(token);
    if (token.endsWith('/>')) {
      places.push({ start: match.index, end: tokens.lastIndex, id: undefined, folder });
      continue;
    }
    const ends = new RegExp(`${SKIPPED}|</bookmark\\s*>`, 'g');
    ends.lastIndex = tokens.lastIndex;
    let end = ends.exec(bytes);
    while (end !== null && end[0].startsWith('<!')) end = ends.exec(bytes);
    if (end === null) throw invalid(path, `a <bookmark> at byte ${match.index + 1} is not closed`);
    const content = bytes.slice(tokens.lastIndex, end.index).replace(new RegExp(SKIPPED, 'g'), '');
    const id = /<ID>([\s\S]*?)<\/ID>/.exec(content)?.[1]?.trim();
    places.push({ start: match.index, end: ends.lastIndex, id, folder });
    tokens.lastIndex = ends.lastIndex;
  }
  if (root === undefined) throw invalid(path, 'it has no <xbel> element');
  if (closing < 0) throw invalid(path, 'it has no closing </xbel>');
  if (places.some((place) => place.start > closing)) throw invalid(path, 'a <bookmark> follows </xbel>');
  return { places, closing };
}

function folderOfHref(startTag: string): string | undefined {
  const href = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(startTag);
  const value = href?.[1] ?? href?.[2];
  return value === undefined ? undefined : folderOfUri(xmlUnescaped(value));
}

/** An attribute's value with XML's references replaced; a character reference becomes its UTF-8 bytes. */
function xmlUnescaped(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return value.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (reference, name: string) => {
    if (!name.startsWith('#')) return named[name] ?? reference;
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? bytesOf(String.fromCodePoint(code)) : reference;
  });
}

function invalid(path: string, why: string): IntegrateError {
  return new IntegrateError(
    'INTEGRATION_FILE_INVALID',
    `${path} was left unchanged: ${why}. Fix it (or move it away to start a new one) and run the command again.`,
  );
}

/**
 * `bytes` with our place of `folder` last, unless it is there already or a place not ours names the
 * folder (the user's own, or another profile's): that one stays as it is, never doubled.
 */
export function withKdePlace(
  bytes: string,
  place: { folder: string; label: string; profileKey: string | undefined },
  path: string,
): string {
  const id = kdePlaceId(place.profileKey, place.folder);
  if (findKdePlace(bytes, id, path) !== undefined) return bytes;
  if (otherKdePlaceNames(bytes, place.folder, id, path)) return bytes;
  return addKdePlace(
    bytes,
    renderKdePlace(place.folder, place.label, id, declaresBookmarkPrefix(bytes)),
    path,
  );
}

/** `bytes` without our places (of the profile of `profileKey`) whose ID `gone` picks; copies made by hand too. */
export function withoutKdePlaces(
  bytes: string,
  profileKey: string | undefined,
  gone: (id: string) => boolean,
  path: string,
): string {
  let result = bytes;
  // One at a time, the file scanned again: each cut moves what follows it.
  for (;;) {
    const place = ourKdePlaces(result, profileKey, path).find((each) => gone(each.id ?? ''));
    if (place === undefined) return result;
    result = removeKdePlace(result, place);
  }
}

/** The place whose ID is `id`, if the file holds it. */
export function findKdePlace(bytes: string, id: string, path: string): KdePlace | undefined {
  return scanKdePlaces(bytes, path).places.find((place) => place.id === id);
}

/** Whether a place that is not ours (not of `id`) names `folder`: the user's own, or another profile's. */
export function otherKdePlaceNames(bytes: string, folder: string, id: string, path: string): boolean {
  const wanted = folderBytes(folder);
  return scanKdePlaces(bytes, path).places.some((place) => place.id !== id && place.folder === wanted);
}

/** Our places of the profile of `profileKey` in the file, with their IDs. */
export function ourKdePlaces(bytes: string, profileKey: string | undefined, path: string): KdePlace[] {
  return scanKdePlaces(bytes, path).places.filter((place) => isOurKdePlaceId(place.id, profileKey));
}

/**
 * Our `<bookmark>`, laid out as KDE saves one a Dolphin user added (KFilePlacesItem::createBookmark:
 * title, the freedesktop icon, KDE's ID), at the top level under one space of indent. The icon's
 * `bookmark:` prefix is declared on KDE's root element; a root without it gets no icon rather than a
 * prefix no namespace-aware reader could resolve.
 */
export function renderKdePlace(folder: string, label: string, id: string, withIcon: boolean): string {
  // XML 1.0 allows no control characters but tab and newlines, and a title is one line.
  // eslint-disable-next-line no-control-regex -- those are what is replaced
  const title = xmlText(label.replace(/[\u0000-\u001f\u007f]/g, ' '));
  const icon = withIcon
    ? [
        '   <metadata owner="http://freedesktop.org">',
        '    <bookmark:icon name="folder-cloud"/>',
        '   </metadata>',
      ]
    : [];
  const lines = [
    ` <bookmark href="${xmlText(fileUri(folder))}">`,
    `  <title>${title}</title>`,
    '  <info>',
    ...icon,
    '   <metadata owner="http://www.kde.org">',
    `    <ID>${xmlText(id)}</ID>`,
    '   </metadata>',
    '  </info>',
    ' </bookmark>',
  ];
  return bytesOf(lines.join('\n'));
}

/** Whether the root element declares the `bookmark:` prefix our icon uses. */
export function declaresBookmarkPrefix(bytes: string): boolean {
  if (/^\s*$/.test(bytes)) return true;
  const root = new RegExp(`<xbel(?=[\\s/>])${ATTRIBUTES}>`).exec(bytes.replace(new RegExp(SKIPPED, 'g'), ''));
  return root !== null && /\sxmlns:bookmark\s*=/.test(root[0]);
}

/**
 * `bytes` with `block` added as the last place: just before `</xbel>` (at the start of its line when
 * only blanks precede it there) with a newline after it, so that taking it out gives the bytes back.
 * A blank file (or none) starts as `EMPTY_XBEL`.
 */
export function addKdePlace(bytes: string, block: string, path: string): string {
  if (/^\s*$/.test(bytes)) return addKdePlace(EMPTY_XBEL, block, path);
  const { closing } = scanKdePlaces(bytes, path);
  const lineStart = bytes.lastIndexOf('\n', closing - 1) + 1;
  const at = /^[ \t]*$/.test(bytes.slice(lineStart, closing)) ? lineStart : closing;
  return `${bytes.slice(0, at)}${block}\n${bytes.slice(at)}`;
}

/**
 * `bytes` without `place`: its whole lines when it stands alone on them (no blank line is left
 * behind), else the element and the newline right after it, which undoes `addKdePlace` (as
 * thunar-actions.ts takes out its action).
 */
export function removeKdePlace(bytes: string, place: KdePlace): string {
  const lineStart = bytes.lastIndexOf('\n', place.start - 1) + 1;
  const after = /^[ \t]*(\n|$)/.exec(bytes.slice(place.end));
  if (after !== null && /^[ \t]*$/.test(bytes.slice(lineStart, place.start))) {
    return bytes.slice(0, lineStart) + bytes.slice(place.end + after[0].length);
  }
  const newline = bytes[place.end] === '\n' ? 1 : 0;
  return bytes.slice(0, place.start) + bytes.slice(place.end + newline);
}
