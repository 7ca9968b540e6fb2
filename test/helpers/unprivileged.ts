// Runs mch-sync so that file permissions apply to it, as for any user, also when the tests run as root.
import { spawnSync } from 'node:child_process';
import { MCH_SYNC_BIN, runProcess, type CliRun } from './mch-sync.ts';

/**
 * Root reads and writes anything (CAP_DAC_OVERRIDE), so a chmod 000 file proves nothing there. As root,
 * `setpriv` drops those capabilities from the bounding set before Node starts: the process stays root
 * (the profile and the device's files are its own) but meets permissions as their owner would.
 */
const DROP_OVERRIDE = ['--bounding-set=-dac_override,-dac_read_search', '--'];

/** Why permissions cannot be tested here, or undefined when they can. */
export function permissionsUnavailable(): string | undefined {
  if (process.platform === 'win32') return 'file modes are not tested on Windows';
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync('setpriv', [...DROP_OVERRIDE, 'true']);
  return probe.status === 0 ? undefined : 'root without setpriv(1): chmod does not bind root';
}

/** `node bin/mch-sync.js args`, bound by file permissions (see DROP_OVERRIDE). */
export function runMchSyncBound(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  const command = [process.execPath, MCH_SYNC_BIN, ...args];
  if (process.getuid?.() !== 0) return runProcess(command[0] as string, command.slice(1), options);
  return runProcess('setpriv', [...DROP_OVERRIDE, ...command], options);
}

/** `node bin/mch-sync.js args` under `umask` (octal text, `027`): what the user's shell would set. */
export function runMchSyncWithUmask(
  umask: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runProcess(
    '/bin/sh',
    ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, MCH_SYNC_BIN, ...args],
    options,
  );
}
