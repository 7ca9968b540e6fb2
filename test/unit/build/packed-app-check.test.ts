// The packed-app checker on small fixture apps: it passes a complete one and names each kind of gap.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPackageWithOptions } from '@electron/asar';
import { afterEach, describe, expect, it } from 'vitest';
import { electronExportNames, electronTypesFile } from '../../../scripts/packaging/electron-stub.ts';
import { checkPackedApp } from '../../../scripts/packaging/packed-app-check.ts';

const projectDir = join(import.meta.dirname, '..', '..', '..');
const electronTypes = electronTypesFile(projectDir);
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A packed app from `files` (path → content) as electron-builder lays it out: resources/app.asar(.unpacked). */
async function packFixture(files: Record<string, string>, unpack?: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'mch-pack-fixture-'));
  folders.push(root);
  const source = join(root, 'source');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), content);
  }
  const resources = join(root, 'resources');
  mkdirSync(resources);
  await createPackageWithOptions(source, join(resources, 'app.asar'), unpack === undefined ? {} : { unpack });
  return resources;
}

const MAIN = [
  "import { app, BrowserWindow, ipcMain, Tray, nativeImage } from 'electron';",
  "import { join } from 'node:path';",
  "import { greet } from './lib/greet.js';",
  "import dep from 'dep-a';",
  'if (!app.requestSingleInstanceLock()) app.quit();',
  "ipcMain.handle('mch:invoke', () => greet(dep));",
  'app.whenReady().then(() => {',
  "  new Tray(nativeImage.createFromPath(join(process.resourcesPath, 'icons', 'tray', 'x.png')));",
  '  new BrowserWindow({ show: false });',
  '});',
].join('\n');

const COMPLETE = {
  'package.json': JSON.stringify({ name: 'fixture', type: 'module', main: 'dist/main.js' }),
  'dist/main.js': MAIN,
  'dist/lib/greet.js': 'export function greet(name) { return `hello ${name}`; }\n',
  'node_modules/dep-a/package.json': JSON.stringify({ name: 'dep-a', main: 'index.js' }),
  'node_modules/dep-a/index.js': "module.exports = 'dep-a';\n",
  'node_modules/dep-a/build/addon.node': 'not really a binary',
};

describe('checkPackedApp', () => {
  it('passes an app whose modules are all packed and whose addon is unpacked', async () => {
    const resources = await packFixture(COMPLETE, '*.node');
    expect(await checkPackedApp({ resourcesDir: resources, electronTypes })).toEqual([]);
  });

  it('reports a dependency missing from the package as a missing module', async () => {
    const { 'node_modules/dep-a/index.js': _gone, ...files } = COMPLETE;
    const resources = await packFixture(
      { ...files, 'node_modules/dep-a/package.json': JSON.stringify({ name: 'dep-a', main: 'gone.js' }) },
      '*.node',
    );
    const findings = await checkPackedApp({ resourcesDir: resources, electronTypes });
    expect(findings.map((finding) => finding.kind)).toEqual(['missing-module']);
  });

  it('reports a package that is not installed at all', async () => {
    const resources = await packFixture(
      { ...COMPLETE, 'dist/main.js': `import 'not-installed-anywhere';\n${MAIN}` },
      '*.node',
    );
    const findings = await checkPackedApp({ resourcesDir: resources, electronTypes });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.kind).toBe('missing-module');
    expect(findings[0]?.detail).toContain('not-installed-anywhere');
  });

  it('reports a relative import of a file that was not packed', async () => {
    const { 'dist/lib/greet.js': _gone, ...files } = COMPLETE;
    const resources = await packFixture(files, '*.node');
    const findings = await checkPackedApp({
      resourcesDir: resources,
      electronTypes,
      expectFiles: ['dist/main.js', 'dist/lib/greet.js'],
    });
    expect(findings.map((finding) => finding.kind).sort()).toEqual(['missing-file', 'missing-module']);
  });

  it('reports a require() of a missing module from CommonJS glue', async () => {
    const resources = await packFixture(
      {
        ...COMPLETE,
        'package.json': JSON.stringify({ name: 'fixture', main: 'main.cjs' }),
        'main.cjs':
          "const { app } = require('electron');\nrequire('dep-a');\nrequire('dep-b');\napp.whenReady();\n",
      },
      '*.node',
    );
    const findings = await checkPackedApp({ resourcesDir: resources, electronTypes });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.detail).toMatch(/^MODULE_NOT_FOUND: .*dep-b/);
  });

  it('reports a native addon packed inside the archive', async () => {
    const resources = await packFixture(COMPLETE);
    const findings = await checkPackedApp({ resourcesDir: resources, electronTypes });
    expect(findings).toEqual([
      { kind: 'native-in-asar', detail: '/node_modules/dep-a/build/addon.node is packed inside app.asar' },
    ]);
  });

  it('reports an entry that throws while loading', async () => {
    const resources = await packFixture(
      { ...COMPLETE, 'dist/lib/greet.js': "throw new Error('boom');\nexport function greet() {}\n" },
      '*.node',
    );
    const findings = await checkPackedApp({ resourcesDir: resources, electronTypes });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.kind).toBe('load-error');
    expect(findings[0]?.detail).toContain('boom');
  });
});

describe('the electron stand-in', () => {
  it('exports the main-process API by name', () => {
    const names = electronExportNames(electronTypes);
    for (const name of [
      'app',
      'BrowserWindow',
      'ipcMain',
      'Tray',
      'Menu',
      'nativeImage',
      'Notification',
      'shell',
      'clipboard',
    ]) {
      expect(names).toContain(name);
    }
  });
});
