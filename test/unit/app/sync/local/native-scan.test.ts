// The native folder lister gives the scan exactly what node:fs gives it, on trees with every kind of odd entry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errnoName, nativeListFolder, type ListFolder } from '../../../../../app/sync/local/native-scan.ts';
import { nodeScanFs, scanLocalFolder, type ScanOptions } from '../../../../../app/sync/local/scanner.ts';

let root: string;

function write(path: string, content = 'x'): void {
  const absolute = join(root, path);
  mkdirSync(join(absolute, '..'), { recursive: true });
  writeFileSync(absolute, content);
}

/** The addon, which `npm install` builds everywhere but on Windows. */
function lister(): ListFolder {
  const list = nativeListFolder();
  if (list === undefined) throw new Error('app/native was not built: run npm run build:native');
  return list;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-native-scan-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('the native folder lister', () => {
  it('is built and loaded on this platform', () => {
    expect(typeof lister()).toBe('function');
  });

  it('gives a scan the same entries, skips, clashes, warnings and digests as node:fs', () => {
    write('a.txt', 'alpha');
    write('docs/b.txt', 'bravo');
    write('docs/deep/c.txt', '');
    write('docs/deep/.DS_Store');
    write('docs/.mchignore', '*.log\nbuild/\n');
    write('docs/debug.log');
    write('docs/build/out.bin');
    write('.mch-sync/trash/x');
    write('Case.txt');
    write('case.txt');
    write('con.txt');
    write('über.txt');
    write('u\u0308ber.txt');
    mkdirSync(join(root, 'empty'));
    symlinkSync('a.txt', join(root, 'link-to-file'));
    symlinkSync(join(root, 'docs'), join(root, 'link-to-folder'));
    execFileSync('mkfifo', [join(root, 'docs', 'pipe')]);
    // A name that is not UTF-8 (Linux keeps bytes as they are).
    if (process.platform === 'linux') writeFileSync(Buffer.from(`${root}/bad-\xff-name`, 'latin1'), 'x');
    // Before 1970, and to the nanosecond.
    // A Date: node:fs reads a negative number of seconds as "now".
    utimesSync(join(root, 'a.txt'), new Date(-1_000_250), new Date(-1_000_250));
    utimesSync(join(root, 'docs/b.txt'), 1_700_000_000.123456, 1_700_000_000.123456);

    const options: ScanOptions = { digests: true, ignoreCase: false };
    const native = scanLocalFolder(root, options);
    const viaNodeFs = scanLocalFolder(root, { ...options, fs: nodeScanFs });
    expect(native).toEqual(viaNodeFs);
    expect(native.entries.length).toBeGreaterThan(8);
    expect(native.skipped.map((item) => item.reason).sort()).toEqual(
      expect.arrayContaining(['ignored', 'special-file', 'state-folder', 'symlink', 'temporary-or-system']),
    );
    if (process.platform === 'linux') {
      expect(native.skipped).toContainEqual(expect.objectContaining({ reason: 'invalid-name' }));
    }
    expect(native.entries.find((entry) => entry.path === 'a.txt')?.mtimeNs).toBe(-1_000_250_000_000n);
  });

  it('gives a scoped scan and a scan through a symlinked root the same as node:fs', () => {
    write('x/y/z.txt', 'zulu');
    write('x/other.txt');
    write('w.txt');
    symlinkSync(root, `${root}-alias`);
    try {
      for (const options of [{ within: ['x/y'] }, {}] as ScanOptions[]) {
        const alias = `${root}-alias`;
        expect(scanLocalFolder(alias, options)).toEqual(
          scanLocalFolder(alias, { ...options, fs: nodeScanFs }),
        );
      }
    } finally {
      rmSync(`${root}-alias`);
    }
  });

  it('says why a folder cannot be read, as node:fs would, and never follows a symlink below the root', () => {
    const list = lister();
    write('file.txt');
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(list(join(root, 'missing'), false)).toBe(2);
    expect(errnoName(list(join(root, 'missing'), false) as number)).toBe('ENOENT');
    expect(errnoName(list(join(root, 'file.txt'), false) as number)).toBe('ENOTDIR');
    // Linux says ENOTDIR (O_DIRECTORY is checked first), BSD and macOS ELOOP: either way, not followed.
    expect(['ELOOP', 'ENOTDIR']).toContain(errnoName(list(join(root, 'link'), false) as number));
    expect(Array.isArray(list(join(root, 'link'), true))).toBe(true);
  });
});
