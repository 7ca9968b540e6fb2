// Finding Electron's binary without a download, the words when it is missing, and spotting failed downloads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  downloadFailureOf,
  findElectronBinary,
  missingElectronMessage,
} from '../../../scripts/packaging/electron-binary.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function electronPackage(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mch-electron-package-'));
  folders.push(folder);
  return folder;
}

describe('findElectronBinary', () => {
  it('reports a package whose binary was never downloaded, with the way to get it', () => {
    const binary = findElectronBinary(electronPackage(), {});
    expect(binary.found).toBe(false);
    const message = missingElectronMessage(binary);
    expect(message).toContain('node node_modules/electron/install.js');
    expect(message).toContain('npm run sync -- ui');
  });

  it('finds dist/<path.txt> once downloaded, and not before', () => {
    const pkg = electronPackage();
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(findElectronBinary(pkg, {})).toMatchObject({ found: false, path: join(pkg, 'dist', 'electron') });
    mkdirSync(join(pkg, 'dist'));
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    expect(findElectronBinary(pkg, {})).toEqual({ found: true, path: join(pkg, 'dist', 'electron') });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as the electron package does', () => {
    const pkg = electronPackage();
    const override = electronPackage();
    expect(findElectronBinary(pkg, { ELECTRON_OVERRIDE_DIST_PATH: override }).found).toBe(false);
    writeFileSync(join(override, 'electron'), '');
    expect(findElectronBinary(pkg, { ELECTRON_OVERRIDE_DIST_PATH: override })).toEqual({
      found: true,
      path: join(override, 'electron'),
    });
  });
});

describe('downloadFailureOf', () => {
  it("finds a failed download in electron-builder's log", () => {
    const log = '  • packaging\n  ⨯ getaddrinfo EAI_AGAIN github.com  \n';
    expect(downloadFailureOf(log)).toBe('⨯ getaddrinfo EAI_AGAIN github.com');
  });

  it('leaves other failures alone', () => {
    expect(downloadFailureOf('  ⨯ Application entry file "index.js" does not exist\n')).toBeNull();
  });
});
