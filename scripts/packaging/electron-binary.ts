// Finds the Electron binary the electron package would run, without letting it start a download.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; path: string; reason: string };

/**
 * Where `require('electron')` would point (node_modules/electron/index.js): `<override>/<path.txt>` when
 * ELECTRON_OVERRIDE_DIST_PATH is set, else `dist/<path.txt>` inside the package. Requiring it instead would
 * download the binary when it is missing (electron >= 42 has no postinstall), which hangs or fails offline.
 */
export function findElectronBinary(electronPackageDir: string, env: NodeJS.ProcessEnv): ElectronBinary {
  const pathFile = join(electronPackageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override !== undefined && override !== '') {
    const path = join(override, relative ?? 'electron');
    return existsSync(path)
      ? { found: true, path }
      : { found: false, path, reason: `ELECTRON_OVERRIDE_DIST_PATH is set, but ${path} does not exist` };
  }
  if (relative === null) {
    return {
      found: false,
      path: join(electronPackageDir, 'dist'),
      reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)',
    };
  }
  const path = join(electronPackageDir, 'dist', relative);
  return existsSync(path) ? { found: true, path } : { found: false, path, reason: `${path} does not exist` };
}

/** Words for a person when the binary is missing: how to get it, and what to use meanwhile. */
export function missingElectronMessage(binary: ElectronBinary): string {
  return [
    `The Electron binary is not here: ${binary.found ? '' : binary.reason}.`,
    'On a machine with internet access, fetch it once with:',
    '  node node_modules/electron/install.js',
    '(or point ELECTRON_OVERRIDE_DIST_PATH at a folder holding an Electron build).',
    'Meanwhile the same window runs in your browser, with every folder pair syncing:',
    '  npm run sync -- ui',
  ].join('\n');
}

const DOWNLOAD_FAILURES = [
  /getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH/,
  /fetch failed|socket hang up|unable to download|cannot download|download failed|statusCode: 40[34]/i,
];

/** When electron-builder's log shows that a download failed, a line saying so; else null. */
export function downloadFailureOf(log: string): string | null {
  const line = log.split('\n').find((text) => DOWNLOAD_FAILURES.some((pattern) => pattern.test(text)));
  return line === undefined ? null : line.trim();
}
