// A profile signed in to a bench device through the real `mch-sync login`, with its folder pair recorded, for the UI benches.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { registerFolderPair } from '../../app/profile/folder-pairs.ts';
import { cliEnv, runMchSync } from '../../test/helpers/mch-sync.ts';
import type { BenchDevice } from './device.ts';

export interface BenchProfile {
  /** HOME of every process of the bench (the trash of remote deletes goes under it). */
  home: string;
  profile: string;
  /** The environment of spawned processes: the file secret store, HOME under `home`, no inherited profile. */
  env: NodeJS.ProcessEnv;
}

/**
 * Signs the device's `bench` user in to `<home>/profile` (again, when kept from an earlier run: the
 * device's port changes with each start, and a new sign-in saves the new address; the pairs and their
 * indexes stay).
 */
export async function signInBenchProfile(device: BenchDevice, home: string): Promise<BenchProfile> {
  const profile = join(home, 'profile');
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  const env = cliEnv({ HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') });
  const login = await runMchSync(
    [
      '--profile',
      profile,
      'login',
      '--config-url',
      `${device.base}/config/v1/config`,
      '--username',
      'bench',
      '--password-stdin',
    ],
    { input: 'bench\n', env, timeoutMs: 60_000 },
  );
  if (login.code !== 0) throw new Error(`login failed (${login.code}):\n${login.stdout}\n${login.stderr}`);
  return { home, profile, env };
}

/** Records the pair as `mch-sync folders add` does (the window and `mch-sync run` then sync it). */
export async function addBenchPair(
  profile: BenchProfile,
  localRoot: string,
  remoteFolder: string,
): Promise<void> {
  await registerFolderPair(profile.profile, { localRoot, remoteFolder });
}
