// This installation's `bin/mch-sync.js`, found from the sources (app/cli/) or from the compiled build (dist/app/cli/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FROM_SOURCES = new URL('../../bin/mch-sync.js', import.meta.url);
const FROM_BUILD = new URL('../../../bin/mch-sync.js', import.meta.url);

/**
 * The entry point the file-manager entries, the autostart entry and the window's host run with this
 * Node. The compiled modules sit one folder deeper (dist/app/cli/), so the same relative path would name
 * dist/bin/, which does not exist.
 */
export function ownBinPath(): string {
  return fileURLToPath(existsSync(FROM_SOURCES) ? FROM_SOURCES : FROM_BUILD);
}
