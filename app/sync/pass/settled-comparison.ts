// A first whole round's look at the last settled pass: nothing changed ends the pass, a few differences narrow the round.
import { assertNever } from '../../../common/errors.ts';
import type { IndexStore } from '../../index/index-store.ts';
import type { RelativePath } from '../../model/items.ts';
import type { EngineLogLine } from '../engine-options.ts';
import type { PassIssue } from '../pass-report.ts';
import type { ScanResult } from '../local/scan-result.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { PassRun } from './pass-run.ts';
import { PassScope } from './pass-scope.ts';
import { quietDifferences } from './quiet-differences.ts';
import { quietPassIssues, type SettledRecord } from './quiet-pass.ts';
import type { RoundRead } from './round-plan.ts';

export type SettledComparison =
  /** Both sides hold what the index has: the pass ends with these issues, `fromScan` of them the scan's. */
  | { kind: 'unchanged'; issues: PassIssue[]; fromScan: number }
  /** A few items differ: the round plans around them alone. */
  | { kind: 'differs-at'; paths: RelativePath[] }
  /** Too much differs, or the index cannot say: the round plans everything. */
  | { kind: 'plan-all' };

/** Compares the round's scan and walk with the index and the last settled pass's record (if any). */
export function compareWithSettled(
  scan: ScanResult,
  walk: RemoteWalkResult,
  index: IndexStore,
  remoteRootId: string,
  settled: SettledRecord | undefined,
  log: (line: EngineLogLine) => void,
): SettledComparison {
  const quiet = settled && quietPassIssues(scan, walk, index, remoteRootId, settled);
  if (quiet && settled) {
    log({ level: 'debug', message: 'round 1: nothing changed on either side since the last settled pass' });
    return { kind: 'unchanged', issues: quiet, fromScan: quiet.length - settled.issues.length };
  }
  // A few items differ: the round plans around them, reading only their index rows.
  const differing = quietDifferences(scan, walk, index, remoteRootId, settled);
  if (differing?.length === 0) {
    // No issues stand (quietDifferences asks for none) and nothing differs: as quiet as above.
    log({
      level: 'debug',
      message:
        settled === undefined
          ? 'round 1: with no settled record, both sides still hold what the index has'
          : 'round 1: the listings the device changed hold what the index has',
    });
    return { kind: 'unchanged', issues: [], fromScan: 0 };
  }
  if (differing === undefined) return { kind: 'plan-all' };
  log({ level: 'debug', message: `round 1: planned around ${differing.length} differing items` });
  return { kind: 'differs-at', paths: differing };
}

/**
 * The comparison applied to a round: unchanged since the last settled pass ends the pass with the
 * issues it reported (`unchanged`); a few differences become the round's scope.
 */
export function narrowBySettled(run: PassRun, read: RoundRead, index: IndexStore): RoundRead | 'unchanged' {
  const comparison = compareWithSettled(read.scan, read.walk, index, run.remoteRootId, run.settled, run.log);
  switch (comparison.kind) {
    case 'unchanged':
      run.report.issues = comparison.issues;
      run.fromScan = comparison.fromScan;
      return 'unchanged';
    case 'differs-at':
      // Every entry and row that differs in a listing the device changed is a root: no device change
      // is left outside this scope unplanned (unplannedRemoteRoots would name the changed listings'
      // folders, whose differing children this round plans, and keep the settled record from being written).
      return { ...read, scope: new PassScope(comparison.paths), aroundDifferences: true };
    case 'plan-all':
      return read;
    default:
      return assertNever(comparison, 'settled comparison');
  }
}
