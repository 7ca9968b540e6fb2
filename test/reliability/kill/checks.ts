// What a kill may leave behind besides diverging trees: temporary files, doubled content, conflicted copies of nothing.
import { originalOfConflictedCopy } from '../../../app/sync/plan/conflict-names.ts';
import type { SnapshotItem } from '../canopy/invariants.ts';
import { nameOf } from '../canopy/model.ts';

export type KillViolationCode = 'leftover' | 'duplicate' | 'spurious-conflict';

export interface KillViolation {
  code: KillViolationCode;
  message: string;
}

/** Names only the engine makes, for a download in progress or an item parked during a move. */
const TEMPORARY = /^(\.mch-dl-|\.\.mch-dl-|\.mch-moving-)|\.mch-partial$/u;

/** No temporary file of the engine outside `.mch-sync` once a pass has ended (the walk skips `.mch-sync`). */
export function checkNoLeftovers(local: readonly SnapshotItem[]): KillViolation[] {
  return local
    .filter((item) => TEMPORARY.test(nameOf(item.path)))
    .map((item) => ({ code: 'leftover' as const, message: `temporary ${item.kind} left: ${item.path}` }));
}

/**
 * Every version is unique (the scenario writes each once): the same bytes at two paths of one side
 * is a create done twice, a retried upload or download that was already done.
 */
export function checkNoDuplicates(items: readonly SnapshotItem[], side: string): KillViolation[] {
  const pathsByContent = new Map<string, string[]>();
  for (const item of items) {
    if (item.kind !== 'file' || item.content === undefined) continue;
    pathsByContent.set(item.content, [...(pathsByContent.get(item.content) ?? []), item.path]);
  }
  return [...pathsByContent.values()]
    .filter((paths) => paths.length > 1)
    .map((paths) => ({ code: 'duplicate' as const, message: `${side}: one version at ${paths.join(', ')}` }));
}

/** When only one side changed, nothing conflicted: a conflicted copy there is a retry taken for a conflict. */
export function checkNoConflictedCopies(items: readonly SnapshotItem[]): KillViolation[] {
  return items
    .filter((item) => originalOfConflictedCopy(nameOf(item.path)) !== undefined)
    .map((item) => ({
      code: 'spurious-conflict' as const,
      message: `conflicted copy with one side changed: ${item.path}`,
    }));
}
