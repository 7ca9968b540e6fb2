// The quoting helpers read back by the parsers they write for: Python's, GLib's key files, and the Exec rules.
import { describe, expect, it } from 'vitest';
import {
  execWord,
  keyFileValue,
  pythonString,
  shellWord,
  xmlText,
} from '../../../../app/integrate/quoting.ts';
import { missingGi, pythonJson } from '../../../helpers/python-gi.ts';

const ODD = [
  'plain',
  '',
  ' leading blank',
  'tab\tnew\nline\r',
  'q"uo\'te \\ $x `y` 100%',
  'Résumé ✓ 😀',
  '\x01\x7f',
];

describe('quoting for each format', () => {
  it('leaves simple words bare and quotes the rest', () => {
    expect(execWord('--copy')).toBe('--copy');
    expect(execWord('a b')).toBe('"a b"');
    expect(execWord('')).toBe('""');
    expect(execWord('100%')).toBe('100%%');
    expect(execWord('$x "y" `z` \\')).toBe(String.raw`"\$x \"y\" \`z\` \\"`);
    expect(shellWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellWord("it's")).toBe(String.raw`'it'\''s'`);
    expect(shellWord('')).toBe("''");
    expect(xmlText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('writes Python literals in ASCII only', () => {
    for (const text of ODD) expect(pythonString(text)).toMatch(/^"[\x20-\x7e]*"$/);
  });
});

describe.skipIf(missingGi() !== undefined)('read back by the real parsers', () => {
  it('Python reads each literal as the original text', () => {
    const source = `import json\nprint(json.dumps([${ODD.map(pythonString).join(', ')}]))`;
    expect(pythonJson<string[]>(source)).toEqual(ODD);
  });

  it("GLib's key file parser reads each value as the original text", () => {
    const file = `[Group]\n${ODD.map((text, index) => `Key${index}=${keyFileValue(text)}`).join('\n')}\n`;
    const values = pythonJson<string[]>(
      `import json, sys
import gi
gi.require_version("GLib", "2.0")
from gi.repository import GLib
key_file = GLib.KeyFile()
key_file.load_from_data(sys.argv[1], len(sys.argv[1].encode()), GLib.KeyFileFlags.NONE)
print(json.dumps([key_file.get_string("Group", "Key%d" % i) for i in range(int(sys.argv[2]))]))`,
      [file, String(ODD.length)],
    );
    expect(values).toEqual(ODD);
  });
});
