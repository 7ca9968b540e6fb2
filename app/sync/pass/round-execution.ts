// A round's plan carried out: its deletes counted for the guard, the device's moves learned by the walk cache.
import type { IndexWriter } from '../../index/index-writes.ts';
import type { SyncEngineOptions } from '../engine-options.ts';
import { newExecutionContext } from '../execute/execution-context.ts';
import { DEFAULT_TRANSFER_CONCURRENCY, executePlan } from '../execute/executor.ts';
import type { PassRun, RoundEnd } from './pass-run.ts';
import type { RoundPlan } from './round-plan.ts';
import type { WalkMemory } from './walk-memory.ts';
import type { VersionStore } from '../versions/version-store.ts';

/** What a round's execution uses of its engine: its options, its index writer and its walk memory. */
export interface ExecutingEngine {
  readonly options: SyncEngineOptions;
  readonly writer: IndexWriter;
  readonly walks: WalkMemory;
  /** Where the round keeps what it replaces or removes here (app/sync/versions/). */
  readonly versionStore: VersionStore | undefined;
}

/** Runs the round's operations; another round follows when one met a changed state or a name may be free. */
export async function executeRound(
  engine: ExecutingEngine,
  run: PassRun,
  round: number,
  roundPlan: RoundPlan,
): Promise<RoundEnd> {
  const { planned, now, remote, nameClashes } = roundPlan;
  run.executed = true;
  run.tally.beforeRound(planned.deletes, now.getTime());
  run.log({ level: 'debug', message: `round ${round}: ${planned.operations.length} operations` });
  const context = newExecutionContext(
    { ...engine.options, writer: engine.writer, versionStore: engine.versionStore },
    {
      remote,
      remoteRootId: run.remoteRootId,
      report: run.report,
      touchedFolders: engine.walks.touched,
      signal: run.options.signal,
    },
  );
  const concurrency = engine.options.transferConcurrency ?? DEFAULT_TRANSFER_CONCURRENCY;
  // Uploads that cannot fit on the device wait, each with its issue; everything else runs (issue #33).
  const fitted = run.room.holdUploads(planned.operations);
  run.report.issues.push(...fitted.issues);
  const { replan } = await executePlan(context, fitted.operations, concurrency).finally(() => {
    run.tally.afterRound(planned.deletes, context.ledger.deletedItems, now.getTime());
    engine.writer.dropParked();
    // Also when the plan stopped half way: a move the device made must not be trusted away.
    engine.walks.learnOwnMoves(context.ledger.ownMoves);
  });
  // A 507 (the space went between the pass's reading and the upload) ends as the same hold.
  await run.room.afterRound(fitted.operations, run.report.issues, run.options.signal);
  // A name left out for a clash may be free now (its twin moved away): look once more.
  // So may a kept placeholder that had to wait for its moves (kept-placeholders.ts).
  return !replan && nameClashes === 0 && run.keptDeferred !== true ? 'pass-done' : 'next-round';
}
