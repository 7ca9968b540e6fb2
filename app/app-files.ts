// This installation's own files (migrations, native addons, the mount process, the window, the command), found in every layout: the sources, dist/, a packed app.asar, the installed bundle.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './app-version.ts';

const HERE = fileURLToPath(import.meta.url);
/** Running the TypeScript sources (a checkout's bin/mch-sync.js, the tests), not compiled JavaScript. */
const FROM_SOURCES = HERE.endsWith('.ts');

let root: string | undefined;

/** The folder of mch-sync's package.json: the checkout, the installed copy, or app.asar. */
export function installRoot(): string {
  root ??= packageRoot(dirname(HERE));
  return root;
}

/**
 * `pathInApp` (a path below app/, as the sources have it) where this installation keeps it: app/ when
 * running the sources, dist/app/ when compiled. Found from the package root, never from the calling
 * module's own place: the installed command bundles the modules into chunks elsewhere (install-cli),
 * and dist/app sits one folder deeper than app/.
 */
export function appFile(pathInApp: string): string {
  return join(installRoot(), FROM_SOURCES ? 'app' : join('dist', 'app'), pathInApp);
}

/** A module of app/ by its path without extension: the `.ts` source, or the compiled `.js`. */
export function appModule(pathWithoutExtension: string): string {
  return appFile(`${pathWithoutExtension}${FROM_SOURCES ? '.ts' : '.js'}`);
}
