// The local scan: what it lists, what it skips and why, vanishing files, clashes and the root's states.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  nodeScanFs,
  scanLocalFolder,
  type ScanFs,
  type ScanResult,
} from '../../../../../app/sync/local/scanner.ts';

let root: string;

function write(path: string, content = 'x'): void {
  const absolute = join(root, path);
  mkdirSync(join(absolute, '..'), { recursive: true });
  writeFileSync(absolute, content);
}

const paths = (result: ScanResult): string[] => result.entries.map((entry) => entry.path).sort();
const skips = (result: ScanResult): [string, string][] =>
  result.skipped.map((item): [string, string] => [item.path, item.reason]).sort();

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-scan-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('scanLocalFolder', () => {
  it('lists files and folders with inode, size and the nanosecond mtime, parents first', () => {
    write('docs/a.txt', 'hello');
    mkdirSync(join(root, 'empty'));
    utimesSync(join(root, 'docs/a.txt'), 1_700_000_000.5, 1_700_000_000.5);
    const result = scanLocalFolder(root);
    expect(result.root).toBe('ok');
    expect(paths(result)).toEqual(['docs', 'docs/a.txt', 'empty']);
    const file = result.entries.find((entry) => entry.path === 'docs/a.txt');
    expect(file).toMatchObject({ kind: 'file', size: 5, mtimeNs: 1_700_000_000_500_000_000n });
    expect(file?.inode).toMatch(/^\d+$/);
    expect(result.entries.find((entry) => entry.path === 'docs')).toMatchObject({ kind: 'folder', size: 0 });
    const order = result.entries.map((entry) => entry.path);
    expect(order.indexOf('docs')).toBeLessThan(order.indexOf('docs/a.txt'));
    expect(result.skipped).toEqual([]);
  });

  it('reports a symlink and does not follow it', () => {
    write('outside/secret.txt');
    mkdirSync(join(root, 'synced'));
    symlinkSync(join(root, 'outside'), join(root, 'synced', 'link'));
    const result = scanLocalFolder(join(root, 'synced'));
    expect(skips(result)).toEqual([['link', 'symlink']]);
    expect(result.entries).toEqual([]);
  });

  it('skips a FIFO as a special file', () => {
    write('a.txt');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const result = scanLocalFolder(root);
    expect(skips(result)).toEqual([['pipe', 'special-file']]);
    expect(paths(result)).toEqual(['a.txt']);
  });

  it('skips temporary and system files and the state folder, wherever they are', () => {
    const temporary = [
      'notes.txt~',
      '.notes.txt.swp',
      '.#notes.txt',
      '#notes.txt#',
      '.DS_Store',
      'Thumbs.db',
      'desktop.ini',
      '~$report.docx',
      '.~lock.report.odt#',
      'movie.mp4.part',
      'setup.exe.crdownload',
      '.a.txt.mch-partial',
    ];
    for (const name of temporary) write(`sub/${name}`);
    write('sub/kept.txt');
    write('.mch-sync/trash/old.txt');
    const result = scanLocalFolder(root);
    expect(paths(result)).toEqual(['sub', 'sub/kept.txt']);
    expect(skips(result)).toEqual(
      [
        ['.mch-sync', 'state-folder'],
        ...temporary.map((name): [string, string] => [`sub/${name}`, 'temporary-or-system']),
      ].sort(),
    );
  });

  it('skips names the device refuses, per item', () => {
    write('back\\slash.txt');
    // Linux allows any bytes but '/' and NUL in a name; Node decodes them as UTF-8 (0xff becomes U+FFFD).
    writeFileSync(
      Buffer.concat([Buffer.from(`${root}/latin1-`), Buffer.from([0xff]), Buffer.from('.txt')]),
      'x',
    );
    write('fine.txt');
    const result = scanLocalFolder(root);
    expect(paths(result)).toEqual(['fine.txt']);
    expect(result.skipped.map((item) => item.reason)).toEqual(['invalid-name', 'invalid-name']);
    // The backslash is this client's own rule (the device stores it): the words must not blame it.
    expect(result.skipped.map((item) => item.detail).sort()).toEqual([
      'Its name contains "\\", which mch-sync does not sync: Windows reads it as a folder separator. Rename it to sync it.',
      'Its name is not valid UTF-8 text, which the device cannot store. Rename it to sync it.',
    ]);
  });

  it('syncs names Windows cannot hold, with a warning', () => {
    write('a:b.txt');
    write('CON.txt');
    write('trailing. ');
    const result = scanLocalFolder(root);
    expect(paths(result)).toEqual(['CON.txt', 'a:b.txt', 'trailing. ']);
    expect(result.portability.map((warning) => warning.path).sort()).toEqual([
      'CON.txt',
      'a:b.txt',
      'trailing. ',
    ]);
    expect(scanLocalFolder(root, { portabilityWarnings: false }).portability).toEqual([]);
  });

  it('applies .mchignore patterns, and the ignored folder is not walked', () => {
    write('.mchignore', 'build/\n*.log\n!keep.log\n');
    write('build/out.bin');
    write('src/build'); // a file named build: `build/` matches folders only
    write('src/debug.log');
    write('src/keep.log');
    const result = scanLocalFolder(root);
    expect(paths(result)).toEqual(['.mchignore', 'src', 'src/build', 'src/keep.log']);
    expect(skips(result)).toEqual([
      ['build', 'ignored'],
      ['src/debug.log', 'ignored'],
    ]);
  });

  it("applies the user's own rules as a root .mchignore, which the folder's files override", () => {
    write('.mchignore', '!keep.tmp\n');
    write('a.tmp');
    write('keep.tmp');
    write('cache/x.bin');
    write('b.txt');
    const result = scanLocalFolder(root, { extraRules: '*.tmp\ncache/\n' });
    expect(paths(result)).toEqual(['.mchignore', 'b.txt', 'keep.tmp']);
    expect(skips(result)).toEqual([
      ['a.tmp', 'ignored'],
      ['cache', 'ignored'],
    ]);
  });

  it('seeing a tree the scan could not read as retry-later, never as gone', () => {
    write('locked/inner.txt');
    write('open.txt');
    chmodSync(join(root, 'locked'), 0o000);
    try {
      const result = scanLocalFolder(root);
      if (process.getuid?.() === 0) return; // root reads anything: nothing to observe
      expect(paths(result)).toEqual(['open.txt']);
      expect(skips(result)).toEqual([['locked', 'retry-later']]);
      expect(result.skipped[0]?.detail).toContain('EACCES');
    } finally {
      chmodSync(join(root, 'locked'), 0o755);
    }
  });

  it('does not list a folder whose .mchignore cannot be read (its rules are unknown)', () => {
    write('proj/.mchignore', 'secret.txt\n');
    write('proj/secret.txt');
    write('top.txt');
    const fs: ScanFs = {
      ...nodeScanFs,
      readText: () => {
        throw Object.assign(new Error('locked'), { code: 'EBUSY' });
      },
    };
    const result = scanLocalFolder(root, { fs });
    expect(paths(result)).toEqual(['top.txt']);
    expect(result.skipped).toEqual([
      { path: 'proj', reason: 'unreadable', detail: 'could not be read: EBUSY', errno: 'EBUSY' },
    ]);
  });

  it('records a file deleted between readdir and lstat as retry-later', () => {
    write('stays.txt');
    write('goes.txt');
    const fs: ScanFs = {
      ...nodeScanFs,
      lstat: (path) => {
        if (path.endsWith('goes.txt')) unlinkSync(path);
        return nodeScanFs.lstat(path);
      },
    };
    const result = scanLocalFolder(root, { fs });
    expect(paths(result)).toEqual(['stays.txt']);
    expect(result.skipped).toEqual([
      { path: 'goes.txt', reason: 'retry-later', detail: 'disappeared during the scan' },
    ]);
  });

  it('withdraws a folder deleted between its lstat and its readdir', () => {
    write('gone/a.txt');
    write('b.txt');
    const fs: ScanFs = {
      ...nodeScanFs,
      readdir: (path) => {
        if (path.endsWith('gone')) rmSync(path, { recursive: true });
        return nodeScanFs.readdir(path);
      },
    };
    const result = scanLocalFolder(root, { fs });
    expect(paths(result)).toEqual(['b.txt']);
    expect(skips(result)).toEqual([['gone', 'retry-later']]);
  });

  it('keeps names as found on disk and reports NFC/NFD twins as a unicode clash', () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    write(nfd);
    const single = scanLocalFolder(root);
    expect(paths(single)).toEqual([nfd]);
    expect(single.clashes).toEqual([]);
    write(nfc); // Linux file systems keep both
    const twins = scanLocalFolder(root);
    expect(twins.entries).toHaveLength(2);
    expect(twins.clashes.map((clash) => ({ ...clash, paths: clash.paths.sort() }))).toEqual([
      { folder: '', paths: [nfc, nfd].sort(), kind: 'unicode' },
    ]);
  });

  it('reports NFC/NFD twins as a unicode clash also beside a name in another case (seed 22148)', () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    const upper = 'Cafe\u0301.txt';
    for (const name of [nfc, nfd, upper]) write(name);
    const result = scanLocalFolder(root);
    expect(result.clashes.map((clash) => ({ ...clash, paths: clash.paths.sort() }))).toEqual([
      { folder: '', paths: [nfc, nfd].sort(), kind: 'unicode' },
      { folder: '', paths: [nfc, nfd, upper].sort(), kind: 'case' },
    ]);
  });

  it('reports names equal under case folding, per folder', () => {
    write('dir/Report.pdf');
    write('dir/REPORT.pdf');
    write('dir/other.pdf');
    write('Report.pdf'); // another folder: no clash
    const result = scanLocalFolder(root);
    expect(result.entries).toHaveLength(5);
    expect(result.clashes.map((clash) => ({ ...clash, paths: clash.paths.sort() }))).toEqual([
      { folder: 'dir', paths: ['dir/REPORT.pdf', 'dir/Report.pdf'], kind: 'case' },
    ]);
  });

  it('tells a missing root, a file as root and an empty root apart from a scan that found things', () => {
    expect(scanLocalFolder(join(root, 'nope'))).toMatchObject({ root: 'missing', entries: [] });
    write('file.txt');
    expect(scanLocalFolder(join(root, 'file.txt')).root).toBe('not-a-folder');
    mkdirSync(join(root, 'empty'));
    expect(scanLocalFolder(join(root, 'empty'))).toMatchObject({ root: 'empty', entries: [] });
    write('only-junk/.DS_Store');
    expect(scanLocalFolder(join(root, 'only-junk')).root).toBe('empty');
  });

  it('reports a root that vanishes before it is listed as missing, not empty', () => {
    mkdirSync(join(root, 'r'));
    const fs: ScanFs = {
      ...nodeScanFs,
      readdir: (path) => {
        rmSync(path, { recursive: true });
        return nodeScanFs.readdir(path);
      },
    };
    expect(scanLocalFolder(join(root, 'r'), { fs })).toMatchObject({
      root: 'missing',
      entries: [],
      skipped: [],
    });
  });

  it('follows a root that is itself a symlink (the user chose it)', () => {
    write('real/a.txt');
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    expect(paths(scanLocalFolder(join(root, 'alias')))).toEqual(['a.txt']);
  });
});
