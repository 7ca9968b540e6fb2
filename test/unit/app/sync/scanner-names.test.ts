// Names the scan never syncs, names a platform cannot hold, and the keys clashes are found by.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caseFoldKey,
  localNameProblem,
  probeNameTraits,
  temporaryOrSystemReason,
  windowsNameProblem,
} from '../../../../app/sync/local-names.ts';

describe('temporaryOrSystemReason', () => {
  it.each([
    ['notes.txt~', 'an editor backup file'],
    ['.notes.txt.swp', 'a Vim swap file'],
    ['.notes.txt.swo', 'a Vim swap file'],
    ['.#notes.txt', 'an Emacs lock file'],
    ['#notes.txt#', 'an Emacs auto-save file'],
    ['.DS_Store', 'a system file'],
    ['THUMBS.DB', 'a system file'],
    ['Desktop.ini', 'a system file'],
    ['~$report.docx', 'an Office lock file'],
    ['~WRL0001.tmp', 'an Office temporary file'],
    ['.~lock.report.odt#', 'a LibreOffice lock file'],
    ['._photo.jpg', 'a macOS resource fork'],
    ['film.mkv.part', 'an unfinished download'],
    ['setup.exe.crdownload', 'an unfinished download'],
    ['.a.txt.mch-partial', 'an unfinished download'],
  ])('skips %s as %s', (name, reason) => {
    expect(temporaryOrSystemReason(name)).toBe(reason);
  });

  it.each(['notes.txt', '.bashrc', '#hashtag', 'swap.swp', 'partial', 'report.docx', '~home', '.mchignore'])(
    'keeps %s',
    (name) => {
      expect(temporaryOrSystemReason(name)).toBeUndefined();
    },
  );
});

describe('windowsNameProblem and localNameProblem', () => {
  it.each(['CON', 'con.txt', 'Lpt1', 'COM9.log', 'a:b', 'what?', 'x|y', 'dot.', 'space ', 'tab\t'])(
    'finds %j impossible on Windows',
    (name) => {
      expect(windowsNameProblem(name)).toBeDefined();
      expect(localNameProblem(name, 'win32')).toBeDefined();
    },
  );

  it('allows on Linux what only Windows refuses, and refuses what the device refuses everywhere', () => {
    expect(localNameProblem('a:b', 'linux')).toBeUndefined();
    expect(localNameProblem('a:b', 'darwin')).toContain(':');
    expect(localNameProblem('console.txt', 'win32')).toBeUndefined();
    expect(localNameProblem('a\\b', 'linux')).toContain('\\');
    expect(localNameProblem('..', 'linux')).toBeDefined();
  });
});

describe('caseFoldKey', () => {
  it('makes NFC/NFD and case variants one key', () => {
    expect(caseFoldKey('Cafe\u0301.TXT')).toBe(caseFoldKey('caf\u00e9.txt'));
    expect(caseFoldKey('a.txt')).not.toBe(caseFoldKey('b.txt'));
  });
});

describe('probeNameTraits', () => {
  it('finds how a folder compares names and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mch-traits-'));
    try {
      const traits = probeNameTraits(dir);
      // This test machine runs Linux on a case-sensitive, byte-comparing file system.
      if (process.platform === 'linux') {
        expect(traits).toEqual({ caseInsensitive: false, normalizationInsensitive: false });
      }
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
