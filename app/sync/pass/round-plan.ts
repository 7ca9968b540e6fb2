// A round's plan: both sides read are paired with the index, equal bytes under a new time settled, then planned.
import type { SyncEngineOptions } from '../engine-options.ts';
import { keptPlaceholders } from '../on-demand/kept-placeholders.ts';
import { dropOrphanPlaceholders } from '../on-demand/orphan-placeholders.ts';
import type { ScanResult } from '../local/scan-result.ts';
import type { LocalRoot } from '../local/local-root.ts';
import type { HoldReason, PassIssue } from '../pass-report.ts';
import { plan, type Plan } from '../plan/planner.ts';
import { reconcile, type ReconciledItem, type ReconcileInput } from '../plan/reconcile.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import { answersHold } from '../guards/folder-check.ts';
import { settleMovesIntoExcluded } from '../selection/moves-into-excluded.ts';
import { passInputs, type PassInputs } from './pass-inputs.ts';
import type { PassRun } from './pass-run.ts';
import { scopedPassInputs, withStandingOutside, type PassScope } from './pass-scope.ts';
import { settleTimeOnlyChanges } from './time-only-changes.ts';

/** The holds whose confirmation agrees to deletes on the device. */
const DELETE_HOLDS: readonly HoldReason[] = ['mass-delete', 'emptied-root', 'folder-changed'];

/** What a round read of both sides, and where it plans. */
export interface RoundRead {
  readonly scan: ScanResult;
  readonly walk: RemoteWalkResult;
  /** Where the round plans; undefined: everywhere. */
  readonly scope: PassScope | undefined;
  /** The scope is the few items that differ from the index (settled-comparison.ts): the scan was whole. */
  readonly aroundDifferences: boolean;
}

export interface RoundPlan {
  readonly planned: Plan;
  /** The round's issues; a scoped round keeps those that stood outside its scope. */
  readonly issues: PassIssue[];
  /** How many of `issues` (at the start) the scan found. */
  readonly fromScan: number;
  /** Items left out because their name equals another's under NFC: a move this round may free it. */
  readonly nameClashes: number;
  /** The remote entries the round was planned from, by id (the executor's walk). */
  readonly remote: ReconcileInput['remote'];
  /** The plan's time (conflicted-copy names, the delete run). */
  readonly now: Date;
}

/**
 * A round's items and remote entries. Its maps of local entries and index rows by key are not kept:
 * in a pass over a million items they are garbage once the items are paired, before the plan is made.
 */
function reconciled(
  inputs: PassInputs,
): Omit<PassInputs, 'input'> & { items: ReconciledItem[]; remote: ReconcileInput['remote'] } {
  const { input, ...rest } = inputs;
  return { ...rest, items: reconcile(input), remote: input.remote };
}

/** Plans the round `read` describes, under the pass's answer to a hold and its deletes so far. */
export async function planRound(
  engine: SyncEngineOptions,
  local: LocalRoot,
  run: PassRun,
  read: RoundRead,
): Promise<RoundPlan> {
  const { index } = engine;
  const { scan, walk, scope } = read;
  const { answer, remoteRootId } = run;
  // A scoped round reads only the index rows around its scope (and any row a lookup leads to).
  const inputs =
    scope === undefined
      ? passInputs(scan, walk, index.entries(), remoteRootId)
      : scopedPassInputs(scan, walk, index, remoteRootId, scope);
  if (engine.onDemand !== undefined) {
    const local = await dropOrphanPlaceholders(inputs.input.local, scan.placeholders, {
      rows: inputs.input.index.values(),
      index,
      localRoot: engine.localRoot,
      onLocalWrite: engine.events?.onLocalWrite ?? (() => {}),
      log: (message, path) => run.log({ level: 'info', message, path }),
    });
    inputs.input = { ...inputs.input, local };
  }
  const { issues, fromScan, nameClashes, items, remote } = reconciled(inputs);
  // A time changed on one side must not make a conflict of equal bytes (reads only files both changed).
  await settleTimeOnlyChanges(items, {
    client: engine.client,
    index,
    localRoot: engine.localRoot,
    signal: run.options.signal,
  });
  // A file renamed here that another client moved into an excluded folder is not sent up again.
  await settleMovesIntoExcluded(items, walk, {
    client: engine.client,
    remoteRootId,
    signal: run.options.signal,
  });
  const now = (engine.now ?? (() => new Date()))();
  const planned = plan({
    items,
    ...(scope === undefined ? {} : { partOf: { localTotal: index.count(), remoteTotal: walk.entries.size } }),
    remoteRootId,
    now,
    localRootMissing: false,
    caseInsensitive: local.isCaseInsensitive(),
    ...(engine.deleteGuard === undefined ? {} : { deleteGuard: engine.deleteGuard }),
    // Confirmed deletes (the guard's, or a changed folder taken as it is) are deletes agreed to.
    confirmDeletes: answer.confirmDeletes && DELETE_HOLDS.some((reason) => answersHold(answer, reason)),
    restoreDeletes:
      answer.restore && (answersHold(answer, 'emptied-root') || answersHold(answer, 'mass-delete')),
    earlierDeletes: run.tally.earlier(now.getTime()),
  });
  if (engine.onDemand !== undefined && scan.placeholders !== undefined) {
    const kept = keptPlaceholders(items, scan.placeholders, engine.onDemand, remote, remoteRootId);
    planned.operations.push(...kept.operations);
    // Moved on both sides: the next round (and, were it the last, the next pass) brings it down.
    run.keptDeferred = kept.deferred;
  }
  // Around differences there were no issues standing anywhere (quietDifferences), and the scan was whole.
  const standing = run.standingIssues;
  if (scope !== undefined && standing !== undefined && !read.aroundDifferences) {
    const merged = withStandingOutside({ issues, fromScan }, standing, scope);
    return { planned, issues: [...merged.issues], fromScan: merged.fromScan, nameClashes, remote, now };
  }
  return { planned, issues, fromScan, nameClashes, remote, now };
}
