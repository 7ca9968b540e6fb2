// The soak run's own invariants beside invariants.ts: no duplicated version, quiet within a bounded number of passes.
import { staysOut, type PassReport } from '../../../app/sync/pass-report.ts';
import { showPath, type PassState, type SnapshotItem, type Violation } from './invariants.ts';
import { isWithin } from './model.ts';
import type { ExpectedIssue } from './report-checks.ts';

/**
 * Passes after the last disturbance (a crash, the end of faults, the changes) until one has nothing to
 * do, that one included. One pass carries everything out (its re-planning rounds included, up to the
 * engine's MAX_ROUNDS), a second finds nothing; one more is allowed because a name left out for a
 * clash in a pass that moved things is planned again by the next pass only (engine.ts, clashAfterMoves).
 */
export const MAX_PASSES_TO_QUIET = 3;

/**
 * A pass that did nothing and left nothing to retry. Items that stay out (skipped, or a name that
 * cannot sync as it is: `failed` since issue 27, which makes the pass `errors`) do not keep it busy,
 * nor do issues the run expects (issue 29: a file moved into a kept copy).
 */
export function isQuiet(report: PassReport | Error, expected: ExpectedIssue = () => false): boolean {
  if (report instanceof Error || report.status === 'held') return false;
  if (Object.values(report.operations).some((count) => count > 0)) return false;
  return report.issues.every((issue) => issue.kind === 'warning' || staysOut(issue) || expected(issue));
}

/**
 * (5) on both sides of `state`, leaving out what the last pass skipped (a name it will not sync): an
 * item the engine cannot see there may be on one side only, and a move of it is then a new item; and
 * in the versions store.
 */
export function checkNoDuplicatesIn(state: PassState, allowed: ReadonlyMap<string, number>): Violation[] {
  const beside = (oneSide: readonly string[] = []) => {
    const hidden = [...(state.skipped ?? []), ...oneSide];
    return (item: SnapshotItem): boolean => !hidden.some((path) => isWithin(item.path, path));
  };
  // Issue 31: a keep retried after a crash or a lost answer must not leave a second version either.
  const kept = (state.versions?.files ?? []).map((file): SnapshotItem => ({
    path: file.blob,
    kind: 'file',
    content: file.content,
  }));
  return [
    ...checkNoDuplicates(state.local.filter(beside(state.skippedLocal)), allowed, 'the local folder'),
    ...checkNoDuplicates(state.remote.filter(beside(state.skippedRemote)), allowed, 'the device'),
    ...checkNoDuplicates(kept, allowed, 'the versions store'),
  ];
}

/**
 * (5) No version is in more files of one side than users wrote it: a create retried after a lost
 * answer, or resumed by a new process after a crash, must not leave a second copy.
 */
export function checkNoDuplicates(
  items: readonly SnapshotItem[],
  allowed: ReadonlyMap<string, number>,
  side: string,
): Violation[] {
  const where = new Map<string, string[]>();
  for (const item of items) {
    if (item.kind !== 'file' || item.content === undefined) continue;
    where.set(item.content, [...(where.get(item.content) ?? []), item.path]);
  }
  const violations: Violation[] = [];
  for (const [content, paths] of where) {
    const most = allowed.get(content) ?? 0;
    if (most === 0 || paths.length <= most) continue;
    violations.push({
      code: 'duplicate',
      message: `${side} holds ${JSON.stringify(content.slice(0, 24))} ${paths.length} times (written ${most}): ${paths.map(showPath).join(', ')}`,
    });
  }
  return violations;
}

/**
 * (6) Nothing torn: every file of either side holds bytes some user wrote as one version (`versions`:
 * the ledger's, kept or not). An upload whose file changed while it was read must not leave a mix.
 */
export function checkNothingTorn(state: PassState, versions: ReadonlySet<string>): Violation[] {
  const violations: Violation[] = [];
  for (const [side, items] of [
    ['the local folder', state.local],
    ['the device', state.remote],
  ] as const) {
    for (const item of items) {
      if (item.kind !== 'file' || item.content === undefined || versions.has(item.content)) continue;
      violations.push({
        code: 'torn',
        message: `${side} holds ${showPath(item.path)} as ${JSON.stringify(item.content.slice(0, 24))}... (${item.content.length} bytes): no version a user wrote`,
      });
    }
  }
  return violations;
}
