// Checks a packed app (resources/app.asar): every module its main process loads is inside, natives sit outside.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractAll, listPackage, statFile } from '@electron/asar';
import { electronExportNames, electronStubSource } from './electron-stub.ts';

/** One problem of a packed app, with what to look at. */
export interface PackedAppFinding {
  kind:
    | 'missing-module'
    | 'load-error'
    | 'load-timeout'
    | 'native-in-asar'
    | 'native-not-unpacked'
    | 'missing-file';
  detail: string;
}

export interface PackedAppCheckOptions {
  /** The packed app's `resources` folder (holding app.asar and app.asar.unpacked). */
  resourcesDir: string;
  /** electron.d.ts, for the names the stand-in `electron` module exports. */
  electronTypes: string;
  /** Paths (inside the app, `/`-separated, no leading slash) that must be in the asar, packed or unpacked. */
  expectFiles?: readonly string[];
  /** How long the entry may take to load before it counts as hanging. */
  loadTimeoutMs?: number;
}

const LOAD_SCRIPT = new URL('./load-entry.ts', import.meta.url);

/** Native addons (.node) must be unpacked: dlopen cannot read from inside an archive. */
function nativeFindings(archive: string): PackedAppFinding[] {
  const findings: PackedAppFinding[] = [];
  for (const path of listPackage(archive, { isPack: false })) {
    if (!path.endsWith('.node')) continue;
    const entry = statFile(archive, path.slice(1), false);
    if (!('unpacked' in entry) || entry.unpacked !== true) {
      findings.push({ kind: 'native-in-asar', detail: `${path} is packed inside app.asar` });
    } else if (!existsSync(join(`${archive}.unpacked`, path))) {
      findings.push({
        kind: 'native-not-unpacked',
        detail: `${path} is marked unpacked but absent from app.asar.unpacked`,
      });
    }
  }
  return findings;
}

function fileFindings(archive: string, expected: readonly string[]): PackedAppFinding[] {
  const packed = new Set(
    listPackage(archive, { isPack: false }).map((path) => path.slice(1).replaceAll('\\', '/')),
  );
  return expected
    .filter((path) => !packed.has(path))
    .map((path) => ({ kind: 'missing-file', detail: `${path} is not in app.asar` }));
}

interface LoadResult {
  ok: boolean;
  settled?: boolean;
  code?: string;
  message?: string;
}

function runLoader(
  appDir: string,
  resourcesDir: string,
  stubFile: string,
  timeoutMs: number,
): Promise<LoadResult | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD_SCRIPT.pathname, appDir, resourcesDir, stubFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', NODE_OPTIONS: '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve('timeout');
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as LoadResult);
      } catch {
        resolve({
          ok: false,
          code: 'ERR_LOADER',
          message: `no result from the loader: ${err.trim() || out.trim()}`,
        });
      }
    });
  });
}

/** Every finding for the packed app in `resourcesDir`; an empty list means it passed. */
export async function checkPackedApp(options: PackedAppCheckOptions): Promise<PackedAppFinding[]> {
  const archive = join(options.resourcesDir, 'app.asar');
  const findings = [...nativeFindings(archive), ...fileFindings(archive, options.expectFiles ?? [])];
  const work = mkdtempSync(join(tmpdir(), 'mch-packed-app-'));
  try {
    // extractAll copies unpacked files from app.asar.unpacked too: the tree Electron would see.
    const appDir = join(work, 'app');
    extractAll(archive, appDir);
    const stubFile = join(work, 'electron-stub.mjs');
    writeFileSync(stubFile, electronStubSource(electronExportNames(options.electronTypes)));
    const result = await runLoader(appDir, options.resourcesDir, stubFile, options.loadTimeoutMs ?? 30_000);
    if (result === 'timeout') {
      findings.push({
        kind: 'load-timeout',
        detail: 'the main entry did not finish loading (a server or timer at top level?)',
      });
    } else if (!result.ok) {
      const missing = result.code === 'ERR_MODULE_NOT_FOUND' || result.code === 'MODULE_NOT_FOUND';
      findings.push({
        kind: missing ? 'missing-module' : 'load-error',
        detail: `${result.code}: ${result.message}`,
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return findings;
}
