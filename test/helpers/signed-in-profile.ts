// A temporary HOME with a profile signed in to a test device through the real `mch-sync login`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestDevice } from './device.ts';
import { cliEnv, runMchSync } from './mch-sync.ts';

export interface SignedInProfile {
  home: string;
  profile: string;
  /** The environment of spawned commands: the file store, HOME (and the trash) under `home`. */
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/**
 * Logs `alice` in with a password; throws with the command's output when that fails. The HOME is a
 * new folder named from `prefix` inside `parent` (the system's temporary folder unless given).
 */
export async function signedInProfile(
  device: TestDevice,
  prefix: string,
  parent: string = tmpdir(),
): Promise<SignedInProfile> {
  const home = mkdtempSync(join(parent, prefix));
  const profile = join(home, 'profile');
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  // The trash of remote deletes goes under this HOME, never the real one.
  const env = cliEnv({ HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') });
  const login = await runMchSync(
    [
      '--profile',
      profile,
      'login',
      '--config-url',
      device.running.urls.config,
      '--username',
      'alice',
      '--password-stdin',
    ],
    { input: 'alice-password\n', env },
  );
  if (login.code !== 0) throw new Error(`login failed (${login.code}):\n${login.stdout}\n${login.stderr}`);
  return { home, profile, env, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** `folder(home, name, texts)`: a new folder `<home>/work-N/<name>` holding `texts` (each call its own N). */
export function folderNumbering(): (home: string, name: string, texts?: Record<string, string>) => string {
  let count = 0;
  return (home, name, texts = {}) => {
    count += 1;
    const folder = join(home, `work-${count}`, name);
    mkdirSync(folder, { recursive: true });
    for (const [path, text] of Object.entries(texts)) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
    return folder;
  };
}
