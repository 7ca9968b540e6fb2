// GTK's bookmarks file (the sidebar of Nautilus, Nemo, Caja, Thunar and GTK file choosers): our lines found, added and taken out by text surgery that keeps every other byte.

/*
 * The file is one bookmark a line, `URI[ LABEL]` (gtkbookmarksmanager.c splits each line at its first
 * space). Every function here works on the file's bytes, each held as one character (latin1): a line
 * that is not UTF-8 (GTK skips it), a CRLF or a stray byte comes back exactly as it was read.
 */

/** `text` (a JavaScript string) as the UTF-8 bytes the file holds, one character each. */
export function bytesOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

// What g_filename_to_uri leaves as it is in a path (checked against `gio info`); the rest is %XX.
const URI_PATH_KEPT = /^[A-Za-z0-9\-._~!$&'()*+,:=@/]$/;

/** The `file://` URI of an absolute path, written as GLib writes it, so our line is the one GTK would write. */
export function fileUri(path: string): string {
  let uri = 'file://';
  for (const byte of Buffer.from(path, 'utf8')) {
    const char = String.fromCharCode(byte);
    uri += URI_PATH_KEPT.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return uri;
}

/**
 * The local folder a URI names, as bytes without a trailing slash, so that `file:///a/b/`,
 * `file://localhost/a/b` and `file:///a/%62` all name one folder; undefined for any other URI.
 */
export function folderOfUri(uri: string): string | undefined {
  const match = /^file:\/\/(?:localhost)?(\/[^?#]*)$/i.exec(uri);
  if (match === null) return undefined;
  const path = (match[1] ?? '/').replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  return trimSlashes(path);
}

/** `folder` as `folderOfUri` gives it, for comparing. */
export function folderBytes(folder: string): string {
  return trimSlashes(bytesOf(folder));
}

function trimSlashes(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Our line for a folder, as bytes, without its newline: its URI, a space, its label. */
export function gtkBookmarkLine(folder: string, label: string): string {
  // A newline would split the bookmark in two; GTK reads every other character of a label as is.
  return bytesOf(`${fileUri(folder)} ${label.replace(/[\r\n]/g, ' ')}`);
}

/** One line of the file: where its text is, and whether a newline ends it. */
export interface BookmarkLine {
  start: number;
  /** Where the line's text ends (its newline, or the end of the file). */
  end: number;
  text: string;
  endsWithNewline: boolean;
  /** The folder its URI names (bytes, as `folderOfUri`), or undefined. */
  folder: string | undefined;
}

export function bookmarkLines(bytes: string): BookmarkLine[] {
  const lines: BookmarkLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf('\n', start);
    const end = newline < 0 ? bytes.length : newline;
    const text = bytes.slice(start, end);
    // A CRLF file's URI ends before its \r when the line has no label.
    const uri = text.split(' ', 1)[0]?.replace(/\r$/, '') ?? '';
    lines.push({ start, end, text, endsWithNewline: newline >= 0, folder: folderOfUri(uri) });
    start = end + 1;
  }
  return lines;
}

/** A line we added, as the profile's record keeps it: its folder and its text (UTF-8). */
export interface AddedLine {
  folder: string;
  line: string;
}

/** The file's bytes and the lines of ours in it. */
export interface Bookmarks {
  bytes: string;
  added: AddedLine[];
}

/**
 * `bookmarks` with a line for `folder` last, unless ours is there already or another line names the
 * folder: the user's own bookmark stays theirs, never doubled and never taken out by us. A line of
 * ours its user took out is forgotten (and added again: an install was asked for).
 */
export function withGtkBookmark(bookmarks: Bookmarks, folder: string, label: string): Bookmarks {
  const entry = bookmarks.added.find((each) => each.folder === folder);
  if (entry !== undefined && findOurGtkBookmark(bookmarks.bytes, entry) !== undefined) return bookmarks;
  const others = bookmarks.added.filter((each) => each !== entry);
  if (otherGtkBookmarkNames(bookmarks.bytes, folder)) return { ...bookmarks, added: others };
  const line = gtkBookmarkLine(folder, label);
  const text = Buffer.from(line, 'latin1').toString('utf8');
  return { bytes: addGtkBookmark(bookmarks.bytes, line), added: [...others, { folder, line: text }] };
}

/** `bookmarks` without our lines of the folders `gone` picks; every other byte stays. */
export function withoutGtkBookmarks(bookmarks: Bookmarks, gone: (folder: string) => boolean): Bookmarks {
  let bytes = bookmarks.bytes;
  for (const entry of bookmarks.added.filter((each) => gone(each.folder))) {
    const ours = findOurGtkBookmark(bytes, entry);
    if (ours !== undefined) bytes = removeGtkBookmark(bytes, ours);
  }
  return { bytes, added: bookmarks.added.filter((each) => !gone(each.folder)) };
}

/**
 * Our line of `folder` in the file: the line we wrote (`written`), else the last line naming the
 * folder, which is ours renamed by its user (Nautilus rewrites the line with the new label; we add
 * ours last). Only called for a folder the profile's record says we bookmarked.
 */
export function findOurGtkBookmark(bytes: string, entry: AddedLine): BookmarkLine | undefined {
  const lines = bookmarkLines(bytes);
  const written = bytesOf(entry.line);
  const exact = lines.find((line) => line.text === written);
  if (exact !== undefined) return exact;
  const folder = folderBytes(entry.folder);
  return lines.findLast((line) => line.folder === folder);
}

/** Whether a line other than `except` names `folder`: a bookmark the user made, or another profile's. */
export function otherGtkBookmarkNames(bytes: string, folder: string, except?: BookmarkLine): boolean {
  const wanted = folderBytes(folder);
  return bookmarkLines(bytes).some((line) => line.folder === wanted && line.start !== except?.start);
}

/**
 * `bytes` with `line` added last. A file without a final newline keeps its style (a newline before
 * ours, none after), so that taking ours out again gives back the same bytes.
 */
export function addGtkBookmark(bytes: string, line: string): string {
  if (bytes === '') return `${line}\n`;
  return bytes.endsWith('\n') ? `${bytes}${line}\n` : `${bytes}\n${line}`;
}

/** `bytes` without `line`: with its newline, or, for a last line without one, with the newline before it. */
export function removeGtkBookmark(bytes: string, line: BookmarkLine): string {
  if (line.endsWithNewline) return bytes.slice(0, line.start) + bytes.slice(line.end + 1);
  return bytes.slice(0, Math.max(0, line.start - 1)) + bytes.slice(line.end);
}
