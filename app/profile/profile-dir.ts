// Where a profile lives: `--profile DIR`, else `MCH_PROFILE`, else the platform's per-user config folder.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface ProfileDirInputs {
  /** The `--profile` flag, when given. */
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** The platform's config folder for mch-sync, used when neither the flag nor the variable names one. */
export function defaultProfileDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'mch-sync');
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'mch-sync');
  // XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env['XDG_CONFIG_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), 'mch-sync');
}

/** The absolute profile folder; the flag wins over `MCH_PROFILE`, which wins over the default. */
export function resolveProfileDir(inputs: ProfileDirInputs = {}): string {
  const env = inputs.env ?? process.env;
  const chosen = inputs.flag ?? (env['MCH_PROFILE'] === '' ? undefined : env['MCH_PROFILE']);
  if (chosen !== undefined) return resolve(chosen);
  return defaultProfileDir(env, inputs.platform, inputs.home);
}
