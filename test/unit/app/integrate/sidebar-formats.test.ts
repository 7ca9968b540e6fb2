// The two sidebar formats as text: GTK bookmark lines and URIs as GLib writes them, KDE places found by their ID, files refused when they cannot be edited safely.
import { describe, expect, it } from 'vitest';
import {
  bookmarkLines,
  bytesOf,
  fileUri,
  folderOfUri,
  gtkBookmarkLine,
  withGtkBookmark,
  withoutGtkBookmarks,
} from '../../../../app/integrate/gtk-bookmarks.ts';
import { IntegrateError } from '../../../../app/integrate/integrate-errors.ts';
import {
  EMPTY_XBEL,
  kdePlaceId,
  ourKdePlaces,
  scanKdePlaces,
  withKdePlace,
  withoutKdePlaces,
} from '../../../../app/integrate/kde-places.ts';

describe('GTK bookmark lines', () => {
  it("writes a path as `gio info` shows its URI (GLib keeps !$&'()*+,:=@ and escapes the rest)", () => {
    // `gio info` of this very folder printed the URI below (GLib 2.80).
    const path = `/tmp/uritest/a b!"#$%&'()*+,-.:;<=>?@[\\]^_\`{|}~é`;
    expect(fileUri(path)).toBe(
      "file:///tmp/uritest/a%20b!%22%23$%25&'()*+,-.:%3B%3C=%3E%3F@%5B%5C%5D%5E_%60%7B%7C%7D~%C3%A9",
    );
  });

  it('reads one folder from every spelling of its URI, and no folder from other URIs', () => {
    const folder = bytesOf('/home/ann/My Cloud');
    for (const uri of [
      'file:///home/ann/My%20Cloud',
      'file:///home/ann/My%20Cloud/',
      'file://localhost/home/ann/My%20Cloud',
      'file:///home/%61nn/My%20Cloud',
    ]) {
      expect(folderOfUri(uri), uri).toBe(folder);
    }
    expect(folderOfUri('sftp://host/home/ann/My%20Cloud')).toBeUndefined();
    expect(folderOfUri('file://otherhost/home/ann')).toBeUndefined();
    expect(folderOfUri('file:///')).toBe('/');
  });

  it('keeps a label on one line and reads a CRLF line without a label', () => {
    expect(gtkBookmarkLine('/a/b', 'two\nlines')).toBe('file:///a/b two lines');
    const [line] = bookmarkLines('file:///a/b\r\n');
    expect(line?.folder).toBe('/a/b');
    expect(line?.text).toBe('file:///a/b\r');
  });

  it('adds after a file without a final newline, and taking ours out gives the bytes back', () => {
    for (const original of [
      '',
      'file:///x',
      'file:///x\n',
      'file:///x X\r\n',
      '\n\n',
      '# odd\n\xff\xfe bytes',
    ]) {
      const added = withGtkBookmark({ bytes: original, added: [] }, '/home/ann/Cloud', 'Cloud');
      expect(added.bytes.endsWith('file:///home/ann/Cloud Cloud') || added.bytes.endsWith('Cloud\n')).toBe(
        true,
      );
      expect(withoutGtkBookmarks(added, () => true)).toEqual({ bytes: original, added: [] });
    }
  });
});

const KDE_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xbel>
<xbel xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info" xmlns:kdepriv="http://www.kde.org/kdepriv">
 <info>
  <metadata owner="http://www.kde.org">
   <kde_places_version>4</kde_places_version>
  </metadata>
 </info>
 <bookmark href="file:///home/ann">
  <title>Home</title>
  <info>
   <metadata owner="http://freedesktop.org">
    <bookmark:icon name="user-home"/>
   </metadata>
   <metadata owner="http://www.kde.org">
    <ID>1700000000/0</ID>
    <isSystemItem>true</isSystemItem>
   </metadata>
  </info>
 </bookmark>
</xbel>
`;

const place = { folder: '/home/ann/Cloud', label: 'Cloud', profileKey: undefined };

describe('KDE places', () => {
  it('adds ours before </xbel> with its title, icon and ID, found again by the ID alone', () => {
    const added = withKdePlace(KDE_FILE, place, 'places');
    const id = kdePlaceId(undefined, '/home/ann/Cloud');
    expect(added).toContain(
      ` <bookmark href="file:///home/ann/Cloud">\n  <title>Cloud</title>\n  <info>\n   <metadata owner="http://freedesktop.org">\n    <bookmark:icon name="folder-cloud"/>\n   </metadata>\n   <metadata owner="http://www.kde.org">\n    <ID>${id}</ID>\n   </metadata>\n  </info>\n </bookmark>\n</xbel>\n`,
    );
    expect(withKdePlace(added, place, 'places')).toBe(added);
    // KDE saves the whole file its own way: ours is still ours.
    const rewritten = added
      .replace(/\n {2,}/g, '\n\t')
      .replace('<title>Cloud</title>', '<title>My place</title>');
    expect(ourKdePlaces(rewritten, undefined, 'places').map((each) => each.id)).toEqual([id]);
    expect(withoutKdePlaces(added, undefined, () => true, 'places')).toBe(KDE_FILE);
  });

  it("never takes another profile's place, a commented-out one, or one of the user's", () => {
    const other = withKdePlace(KDE_FILE, { ...place, profileKey: 'abcd1234' }, 'places');
    expect(withKdePlace(other, place, 'places')).toBe(other);
    expect(withoutKdePlaces(other, undefined, () => true, 'places')).toBe(other);
    const commented = KDE_FILE.replace(
      '</xbel>',
      `<!-- <bookmark><info><ID>${kdePlaceId(undefined, '/x')}</ID></info></bookmark> -->\n</xbel>`,
    );
    expect(ourKdePlaces(commented, undefined, 'places')).toEqual([]);
  });

  it("gives a root without the bookmark: prefix no icon, and starts a blank file as KDE's", () => {
    const bare = '<xbel>\n</xbel>\n';
    expect(withKdePlace(bare, place, 'places')).not.toContain('bookmark:icon');
    expect(withKdePlace('  \n', place, 'places').startsWith(EMPTY_XBEL.slice(0, -'</xbel>\n'.length))).toBe(
      true,
    );
  });

  it.each([
    ['<xbel>\n <bookmark href="file:///a">\n', 'is not closed'],
    ['<?xml version="1.0"?>\n', 'no <xbel> element'],
    ['<xbel/>\n', 'empty'],
    ['<xbel>\n <bookmark href="file:///a"/>\n', 'no closing </xbel>'],
    ['<xbel>\n</xbel>\n<bookmark href="file:///a"/>\n', 'follows </xbel>'],
  ])('refuses %j (%s)', (text, why) => {
    expect(() => scanKdePlaces(text, 'places')).toThrow(IntegrateError);
    expect(() => scanKdePlaces(text, 'places')).toThrow(why);
  });
});
