// Packs the app with electron-builder's `--dir` target for Linux, with a stand-in Electron (no download).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

/** What a pack left: the unpacked app folder and electron-builder's output. */
export interface PackResult {
  appDir: string;
  resourcesDir: string;
  log: string;
}

/**
 * Runs `electron-builder --linux --dir` with electron-builder.yml into `outDir`. electronDist points at a
 * folder holding only an executable named `electron`: electron-builder copies and renames it and packs the app
 * around it, which is all a layout check needs (notes/electron-offline.md). Rejects with the log on failure.
 */
export async function packDir(projectDir: string, outDir: string): Promise<PackResult> {
  const standIn = join(outDir, 'electron-stand-in');
  mkdirSync(standIn, { recursive: true });
  writeFileSync(
    join(standIn, 'electron'),
    '#!/bin/sh\necho "stand-in for the Electron binary: nothing to run" >&2\nexit 1\n',
  );
  chmodSync(join(standIn, 'electron'), 0o755);
  const cli = createRequire(join(projectDir, 'package.json')).resolve('electron-builder/cli.js');
  const args = [
    cli,
    '--linux',
    '--dir',
    '--config',
    'electron-builder.yml',
    `-c.electronDist=${standIn}`,
    `-c.directories.output=${join(outDir, 'packages')}`,
  ];
  const log = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`electron-builder --dir exited with ${code}:\n${output}`));
    });
  });
  const appDir = join(outDir, 'packages', 'linux-unpacked');
  return { appDir, resourcesDir: join(appDir, 'resources'), log };
}

/**
 * The compiled files electron-builder.yml packs (dist/{main,app,common,renderer} without maps, declarations
 * and build info), as paths inside the app: each must be in app.asar.
 */
export function compiledAppFiles(projectDir: string): string[] {
  const files: string[] = [];
  for (const folder of ['main', 'app', 'common', 'renderer']) {
    let entries;
    try {
      entries = readdirSync(join(projectDir, 'dist', folder), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || /\.(map|d\.ts|tsbuildinfo)$/.test(entry.name)) continue;
      files.push(relative(projectDir, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
    }
  }
  return files.sort();
}
