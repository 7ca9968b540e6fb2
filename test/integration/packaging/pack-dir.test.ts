// electron-builder packs the built app (--dir, stand-in Electron) and the packed app holds all its main process loads.
//
// Relies on npm test's earlier steps: tsc -b (dist/main, dist/app, dist/common) and build:renderer
// (dist/renderer). Until package.json names a "main", there is no entry to pack: reported as skipped.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAY_STEMS } from '../../../scripts/icons/icon-set.ts';
import { electronTypesFile } from '../../../scripts/packaging/electron-stub.ts';
import { checkPackedApp } from '../../../scripts/packaging/packed-app-check.ts';
import { compiledAppFiles, packDir, type PackResult } from '../../../scripts/packaging/pack-dir.ts';

const projectDir = join(import.meta.dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { main?: string };
const main = manifest.main;

describe.skipIf(main === undefined)(`the packed app (package.json main: ${main ?? 'not set yet'})`, () => {
  let outDir = '';
  let packed: PackResult;

  beforeAll(async () => {
    expect(existsSync(join(projectDir, main ?? '')), `${main} is built (npm run build)`).toBe(true);
    outDir = mkdtempSync(join(tmpdir(), 'mch-pack-dir-'));
    packed = await packDir(projectDir, outDir);
  }, 180_000);

  afterAll(() => {
    if (outDir !== '') rmSync(outDir, { recursive: true, force: true });
  });

  it('holds every compiled file and every module the main entry loads, with native addons unpacked', async () => {
    const findings = await checkPackedApp({
      resourcesDir: packed.resourcesDir,
      electronTypes: electronTypesFile(projectDir),
      expectFiles: compiledAppFiles(projectDir),
    });
    expect(findings).toEqual([]);
  }, 60_000);

  it('unpacks the SQLite and keychain addons', () => {
    const unpacked = join(packed.resourcesDir, 'app.asar.unpacked', 'node_modules');
    expect(existsSync(join(unpacked, 'better-sqlite3', 'prebuilds', 'linux-x64.node'))).toBe(true);
    expect(
      existsSync(join(unpacked, '@napi-rs', 'keyring-linux-x64-gnu', 'keyring.linux-x64-gnu.node')),
    ).toBe(true);
  });

  it('puts the tray icons where main/ looks for them: resources/icons/tray', () => {
    for (const stem of TRAY_STEMS) {
      for (const suffix of ['.png', '@2x.png', 'Template.png', 'Template@2x.png', '.ico']) {
        expect(
          existsSync(join(packed.resourcesDir, 'icons', 'tray', `${stem}${suffix}`)),
          `${stem}${suffix}`,
        ).toBe(true);
      }
    }
  });

  it('names the Linux executable as the desktop entry does', () => {
    expect(existsSync(join(packed.appDir, 'mch-sync-app'))).toBe(true);
  });
});
