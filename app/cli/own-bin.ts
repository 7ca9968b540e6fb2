// This installation's `bin/mch-sync.js`, found from the package's root in every layout (sources, dist/, the installed bundle).
import { join } from 'node:path';
import { installRoot } from '../app-files.ts';

/** The entry point the file-manager entries, the autostart entry and the window's host run with this Node. */
export function ownBinPath(): string {
  return join(installRoot(), 'bin', 'mch-sync.js');
}
