// A pair's versions policy in its profile record: how long content this client replaced or removed is kept, how much room it may take, and who wins a conflict.
import { resolve } from 'node:path';
import { z } from 'zod';
import { pairFilePath, readPairRecord } from './folder-pairs.ts';
import { ProfileError } from './profile-errors.ts';
import { writePrivateFileAtomic } from './private-file.ts';

/**
 * What a new conflict becomes: `ask` keeps both copies and lists the conflict until the user settles
 * it (the default); the others settle it at once, the loser kept as a version: `newer` the later
 * modification time wins, `this` this computer's copy wins, `device` the device's.
 */
export type ConflictPolicy = 'ask' | 'newer' | 'this' | 'device';

export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['ask', 'newer', 'this', 'device'];

export interface PairVersions {
  /** Versions older than this many days go. */
  readonly keepDays: number;
  /** At most this many bytes of versions (the oldest go first); null: the default share of the disk. */
  readonly capBytes: number | null;
  readonly conflicts: ConflictPolicy;
}

/** 30 days (the engine's DEFAULT_VERSIONS_POLICY, which this folder cannot import). */
export const DEFAULT_KEEP_DAYS = 30;

export const DEFAULT_PAIR_VERSIONS: PairVersions = {
  keepDays: DEFAULT_KEEP_DAYS,
  capBytes: null,
  conflicts: 'ask',
};

const versionsSchema = z.strictObject({
  keepDays: z.number().int().min(1).max(3650),
  capBytes: z.number().int().positive().nullable(),
  conflicts: z.enum(['ask', 'newer', 'this', 'device']),
});

function versionsOfRecord(record: Record<string, unknown> | undefined, path: string): PairVersions {
  const found = record?.['versions'];
  if (found === undefined || found === null) return DEFAULT_PAIR_VERSIONS;
  const parsed = versionsSchema.safeParse(found);
  if (!parsed.success) {
    // Read as the defaults, a hand-edited "device wins" would turn into "keep both" without a word.
    throw new ProfileError(
      `The versions setting of ${path} cannot be read (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}); ` +
        'fix its "versions" field.',
    );
  }
  return parsed.data;
}

/** The versions policy of the pair of `localRoot`: its own, or the defaults. */
export function readPairVersions(profileDir: string, localRoot: string): PairVersions {
  const path = pairFilePath(profileDir, resolve(localRoot));
  return versionsOfRecord(readPairRecord(path), path);
}

/** Changes the versions policy of a recorded pair (read, changed, written atomically). */
export async function updatePairVersions(
  profileDir: string,
  localRoot: string,
  change: (versions: PairVersions) => PairVersions,
): Promise<PairVersions> {
  const path = pairFilePath(profileDir, resolve(localRoot));
  const record = readPairRecord(path);
  if (record === undefined) {
    throw new ProfileError(`${localRoot} is not a synced folder of this profile (no record ${path}).`);
  }
  const next = versionsSchema.parse(change(versionsOfRecord(record, path)));
  await writePrivateFileAtomic(path, `${JSON.stringify({ ...record, versions: next }, null, 2)}\n`);
  return next;
}
