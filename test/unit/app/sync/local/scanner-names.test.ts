// Names the scan never syncs, names a platform cannot hold, and the keys clashes are found by.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caseFoldKey,
  deviceNameProblem,
  localNameProblem,
  probeNameTraits,
  remoteNameProblem,
  temporaryOrSystemReason,
  windowsNameProblem,
} from '../../../../../app/sync/local/local-names.ts';
import { mountTmpfs, mountUnavailable, unmountAll } from '../../../../helpers/mounts.ts';

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

  it.skipIf(mountUnavailable() !== undefined)(
    'reads the traits of a folder on a read-only disk instead of failing the pass',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'mch-traits-ro-'));
      try {
        mountTmpfs(dir, 1);
        mkdirSync(join(dir, '.mch-sync'));
        expect(spawnSync('mount', ['-o', 'remount,ro', dir]).status).toBe(0);
        expect(probeNameTraits(join(dir, '.mch-sync'))).toEqual({
          caseInsensitive: false,
          normalizationInsensitive: false,
        });
      } finally {
        unmountAll(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('deviceNameProblem and remoteNameProblem', () => {
  it('blames the client, not the device, for a backslash, on both sides', () => {
    expect(deviceNameProblem('a\\b.txt')).toBe(
      'Its name contains "\\", which mch-sync does not sync: Windows reads it as a folder separator. Rename it to sync it.',
    );
    expect(remoteNameProblem('a\\b.txt', 'linux')).toBe(
      'On the device: its name contains "\\", which mch-sync does not bring here (Windows reads it as a folder separator). Rename it on the device to sync it.',
    );
  });

  it('blames the device for what it cannot store, and this computer for what it cannot hold', () => {
    expect(deviceNameProblem('x'.repeat(300))).toBe(
      'Its name is longer than 255 bytes, which the device cannot store. Rename it to sync it.',
    );
    expect(remoteNameProblem('CON.txt', 'win32')).toBe(
      'On the device: its name is a reserved device name on Windows, so it cannot be brought to this computer. Rename it on the device to sync it.',
    );
    expect(deviceNameProblem('fine.txt')).toBeUndefined();
    expect(remoteNameProblem('fine.txt', 'linux')).toBeUndefined();
  });
});
