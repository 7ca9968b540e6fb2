// A pair's "sync on metered networks" in its profile record: by default a metered network pauses the pair.
import { resolve } from 'node:path';
import { pairFilePath, readPairRecord } from './folder-pairs.ts';
import { ProfileError } from './profile-errors.ts';
import { writePrivateFileAtomic } from './private-file.ts';

/** `pause` (the default): the pair waits while the network is metered; `sync`: it syncs on any network. */
export type MeteredChoice = 'pause' | 'sync';

export const METERED_CHOICES: readonly MeteredChoice[] = ['pause', 'sync'];

function choiceOfRecord(record: Record<string, unknown> | undefined, path: string): MeteredChoice {
  const found = record?.['onMetered'];
  if (found === undefined || found === null) return 'pause';
  if (found === 'pause' || found === 'sync') return found;
  // Read as the default, a hand-edited "sync" misspelt would pause without a word.
  throw new ProfileError(`The "onMetered" field of ${path} is neither "pause" nor "sync": fix it.`);
}

/** What the pair of `localRoot` does on a metered network. */
export function readPairMetered(profileDir: string, localRoot: string): MeteredChoice {
  const path = pairFilePath(profileDir, resolve(localRoot));
  return choiceOfRecord(readPairRecord(path), path);
}

/** Sets what a recorded pair does on a metered network (read, changed, written atomically). */
export async function updatePairMetered(
  profileDir: string,
  localRoot: string,
  choice: MeteredChoice,
): Promise<void> {
  const path = pairFilePath(profileDir, resolve(localRoot));
  const record = readPairRecord(path);
  if (record === undefined) {
    throw new ProfileError(`${localRoot} is not a synced folder of this profile (no record ${path}).`);
  }
  await writePrivateFileAtomic(path, `${JSON.stringify({ ...record, onMetered: choice }, null, 2)}\n`);
}
