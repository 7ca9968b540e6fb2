// The command as `npm run install-cli` installs it (the compiled build, no sources), for benches that time whole processes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INSTALL_CLI = fileURLToPath(new URL('../../scripts/install-cli.ts', import.meta.url));

/**
 * Builds, installs into `work/installed` and returns the installed `bin/mch-sync.js`, which a bench
 * runs with this Node as the installed `mch-sync` script runs it with its copy of the same Node.
 */
export function builtEntry(work: string): string {
  const prefix = join(work, 'installed');
  const install = spawnSync(process.execPath, [INSTALL_CLI, '--prefix', prefix], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm run install-cli failed: ${install.stdout}${install.stderr}`);
  return join(prefix, 'lib', 'mch-sync', 'bin', 'mch-sync.js');
}
