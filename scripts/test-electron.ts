// `npm run test:electron`: the end-to-end test of the real app (test/electron/app-e2e.ts) where an Electron binary exists; where none does, says that it did not run and why, and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const ELECTRON_PACKAGE = join(ROOT, 'node_modules', 'electron');
const EXECUTABLE = process.platform === 'win32' ? 'electron.exe' : 'electron';

/** The binary and where it was found, or why there is none. Never downloads anything. */
export function findElectron(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const candidates: Array<[string, string]> = [];
  if (env['MCH_ELECTRON']) candidates.push([env['MCH_ELECTRON'], 'MCH_ELECTRON']);
  if (env['ELECTRON_OVERRIDE_DIST_PATH']) {
    candidates.push([join(env['ELECTRON_OVERRIDE_DIST_PATH'], EXECUTABLE), 'ELECTRON_OVERRIDE_DIST_PATH']);
  }
  const pathFile = join(ELECTRON_PACKAGE, 'path.txt');
  if (existsSync(pathFile)) {
    candidates.push([
      join(ELECTRON_PACKAGE, 'dist', readFileSync(pathFile, 'utf8').trim()),
      'node_modules/electron',
    ]);
  }
  const tried: string[] = [];
  for (const [path, source] of candidates) {
    if (!existsSync(path)) {
      tried.push(`${path} (${source}) does not exist`);
      continue;
    }
    // A stand-in (the packaging check's) is a file named electron too: the real one answers its version.
    const version = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
    });
    if (/^v\d+\.\d+\.\d+/.test(version.stdout ?? '')) return { path };
    tried.push(`${path} (${source}) is not an Electron binary`);
  }
  return {
    missing:
      tried.length > 0
        ? tried.join('; ')
        : 'electron downloads its binary on first use and none was downloaded (no node_modules/electron/path.txt), ' +
          'and neither MCH_ELECTRON nor ELECTRON_OVERRIDE_DIST_PATH names one',
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  return result.status ?? 1;
}

if (import.meta.main) {
  const electron = findElectron();
  if ('missing' in electron) {
    console.log(`test:electron: NOT RUN: no Electron binary: ${electron.missing}.`);
    console.log('On a machine with internet, `npx electron --version` downloads it; then run this again.');
    process.exit(0);
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (run(npm, ['run', 'build']) !== 0 || run(process.execPath, ['scripts/build-preload.ts']) !== 0) {
    process.exit(1);
  }
  const env = { ...process.env, MCH_ELECTRON: electron.path };
  const test = [process.execPath, '--test', '--test-reporter=spec', 'test/electron/app-e2e.ts'];
  // Linux without a display: a virtual one (xvfb-run, from the xvfb package).
  const headless = process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'];
  process.exit(headless ? run('xvfb-run', ['-a', ...test], env) : run(test[0] ?? 'node', test.slice(1), env));
}
