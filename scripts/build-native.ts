// Builds the native addons (app/native) with node-gyp: the scan's folder lister, and on Linux the mount.
//
// Run by `npm install` (the package's install script) and by `npm run build:native`. A machine that
// cannot build it (Windows, where the addon has no port; no C compiler; node-gyp unavailable) still
// installs: the scan then reads folders through node:fs, with the same results, only slower. So this
// script warns instead of failing. Without the mount's addon (mch_fuse, Linux only), on-demand folders
// cannot be shown (the mount process says FUSE_UNAVAILABLE); normal folders sync as before.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const addonDir = fileURLToPath(new URL('../app/native/', import.meta.url));

function warn(message: string): void {
  console.warn(
    `build-native: ${message} The local scan uses node:fs instead (slower, same results), and on-demand folders cannot be shown.`,
  );
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
  const outputs = ['mch_scan', ...(process.platform === 'linux' ? ['mch_fuse'] : [])]
    .map((name) => `app/native/build/Release/${name}.node`)
    .filter((file) => existsSync(fileURLToPath(new URL(`../${file}`, import.meta.url))));
  console.log(`build-native: built ${outputs.join(' and ')}`);
}

main();
