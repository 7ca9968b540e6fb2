// Builds the local scan's native folder lister (app/native) with node-gyp; without it the scan uses node:fs.
//
// Run by `npm install` (the package's install script) and by `npm run build:native`. A machine that
// cannot build it (Windows, where the addon has no port; no C compiler; node-gyp unavailable) still
// installs: the scan then reads folders through node:fs, with the same results, only slower. So this
// script warns instead of failing.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const addonDir = fileURLToPath(new URL('../app/native/', import.meta.url));

function warn(message: string): void {
  console.warn(`build-native: ${message} The local scan uses node:fs instead (slower, same results).`);
}

function main(): void {
  if (process.platform === 'win32') {
    console.log('build-native: no native folder lister on Windows; the local scan uses node:fs.');
    return;
  }
  // npm tells its scripts where its own node-gyp is, and passes its settings (nodedir...) as npm_config_*.
  const nodeGyp = process.env['npm_config_node_gyp'];
  if (nodeGyp === undefined || !existsSync(nodeGyp)) {
    warn('node-gyp was not found (run this through npm: npm run build:native).');
    return;
  }
  const built = spawnSync(
    process.execPath,
    [nodeGyp, 'rebuild', '--loglevel=warn', '--directory', addonDir],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (built.status !== 0) {
    // A half-built addon must not be loaded.
    rmSync(`${addonDir}build`, { recursive: true, force: true });
    warn(`node-gyp failed (exit ${built.status ?? built.signal}).`);
    return;
  }
  console.log('build-native: built app/native/build/Release/mch_scan.node');
}

main();
