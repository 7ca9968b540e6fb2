// `folders set --keep-versions DAYS --versions-cap SIZE|default --conflicts ask|newer|this|device`, and a pair's versions policy and use as `folders` shows them.
import { formatBytes } from '../../../common/units.ts';
import {
  CONFLICT_POLICIES,
  readPairVersions,
  updatePairVersions,
  type ConflictPolicy,
  type PairVersions,
} from '../../profile/pair-versions.ts';
import { parseSize } from '../../selection/selection-change.ts';
import { SelectionError } from '../../selection/selection-errors.ts';
import { defaultCapBytes } from '../../sync/versions/pass-versions.ts';
import { UsageError } from '../terminal/cli-context.ts';
import { readVersions } from './versions-access.ts';
import type { VersionsPair } from './versions-place.ts';

type Values = Record<string, string | boolean | undefined>;

/** What `folders set` changes of the policy; a field absent stays as it is. */
export type VersionsPolicyChange = Partial<PairVersions>;

const MAX_KEEP_DAYS = 3650;

/** The versions options of `folders set`, refused before anything changes; undefined when none is given. */
export function versionsPolicyOf(values: Values, usage: string): VersionsPolicyChange | undefined {
  const change: { -readonly [K in keyof PairVersions]?: PairVersions[K] } = {};
  const days = values['keep-versions'];
  if (days !== undefined) {
    const text = String(days).trim();
    const count = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_KEEP_DAYS) {
      throw new UsageError(
        `--keep-versions: ${JSON.stringify(days)} is not a number of days (1 to ${MAX_KEEP_DAYS}).`,
        usage,
      );
    }
    change.keepDays = count;
  }
  const cap = values['versions-cap'];
  if (cap !== undefined) change.capBytes = capOf(String(cap), usage);
  const conflicts = values['conflicts'];
  if (conflicts !== undefined) {
    const policy = CONFLICT_POLICIES.find((known) => known === conflicts);
    if (policy === undefined) {
      throw new UsageError(
        `--conflicts: ${JSON.stringify(conflicts)} is not ask, newer, this or device.`,
        usage,
      );
    }
    change.conflicts = policy;
  }
  return Object.keys(change).length === 0 ? undefined : change;
}

function capOf(text: string, usage: string): number | null {
  if (text.trim().toLowerCase() === 'default') return null;
  const refused = (): UsageError =>
    new UsageError(
      `--versions-cap: ${JSON.stringify(text)} is not a size: write it as 500MB, 20GB or default.`,
      usage,
    );
  // Versions always have a cap: "off" would let them fill the disk.
  if (text.trim().toLowerCase() === 'off') throw refused();
  try {
    return parseSize(text);
  } catch (error) {
    if (error instanceof SelectionError) throw refused();
    throw error;
  }
}

export async function setVersionsPolicy(
  profileDir: string,
  localRoot: string,
  change: VersionsPolicyChange,
): Promise<PairVersions> {
  return updatePairVersions(profileDir, localRoot, (current) => ({ ...current, ...change }));
}

/** A pair's policy and what its versions take, as `folders list --json` and `folders set --json` show it. */
export interface VersionsSummary {
  keepDays: number;
  /** null: the default, a share of the disk (`capBytesNow`). */
  capBytes: number | null;
  /** The cap in effect now. */
  capBytesNow: number;
  conflicts: ConflictPolicy;
  kept: { count: number; bytes: number };
}

export async function versionsSummary(profileDir: string, pair: VersionsPair): Promise<VersionsSummary> {
  const policy = readPairVersions(profileDir, pair.pair.localRoot);
  const kept = (await readVersions(pair, ({ index }) => index.versions.usage())) ?? { count: 0, bytes: 0 };
  return {
    keepDays: policy.keepDays,
    capBytes: policy.capBytes,
    capBytesNow: policy.capBytes ?? (await defaultCapBytes(pair.syncRoot)),
    conflicts: policy.conflicts,
    kept,
  };
}

const CONFLICT_WORDS: Record<ConflictPolicy, string> = {
  ask: 'conflicts keep both and wait for you (`mch-sync conflicts`)',
  newer: 'the newer side wins a conflict, the other is kept as a version',
  this: "this computer's side wins a conflict, the device's is kept as a version",
  device: "the device's side wins a conflict, this computer's is kept as a version",
};

/** "versions: 3 (12 kB); each kept up to 30 days, at most 21 GB in all (the default: ...); conflicts keep both ..." */
export function versionsWords(summary: VersionsSummary): string {
  const cap =
    summary.capBytes === null
      ? `at most ${formatBytes(summary.capBytesNow)} in all (the default: 5% of the disk, at least 1 GB)`
      : `at most ${formatBytes(summary.capBytes)} in all`;
  const days = `${summary.keepDays} ${summary.keepDays === 1 ? 'day' : 'days'}`;
  return (
    `versions: ${summary.kept.count} (${formatBytes(summary.kept.bytes)}); each kept up to ${days}, ` +
    `${cap}; ${CONFLICT_WORDS[summary.conflicts]}`
  );
}
