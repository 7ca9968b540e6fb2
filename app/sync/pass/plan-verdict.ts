// A round's plan judged before anything is done: carried out, held for the user, or planned again over the whole folder.
import type { LocalRoot } from '../local/local-root.ts';
import { massDeleteHold } from '../guards/hold-advice.ts';
import { MAX_ROUNDS, type PassRun, type RoundEnd } from './pass-run.ts';
import type { RoundPlan, RoundRead } from './round-plan.ts';

/** A round's read as the judgment needs it: with the live service's count of deletions before the scan. */
export interface JudgedRead extends RoundRead {
  /** SyncOptions.deletions' mark taken before the round scanned; undefined without a live service. */
  readonly deletionMark: number | undefined;
}

/** Whether the round's plan is carried out (`execute`), held (the pass is done), or planned again. */
export async function judgePlan(
  run: PassRun,
  round: number,
  read: JudgedRead,
  { planned }: RoundPlan,
  local: LocalRoot,
): Promise<RoundEnd | 'execute'> {
  // Watched deletes that leave the folder empty are held like an emptied folder found by a full scan.
  // Around differences the scan was whole: it says (a second scan of a million files need not).
  const rootIsEmpty = (): boolean => (read.aroundDifferences ? read.scan.root === 'empty' : local.isEmpty());
  if (read.scope !== undefined && planned.deletes.remote > 0 && rootIsEmpty()) {
    run.wholeTree = true;
    return 'next-round';
  }
  if (planned.status === 'held') {
    run.report.hold = massDeleteHold(planned, local.path);
    return 'pass-done';
  }
  if (
    planned.deletes.remote > 0 &&
    !run.replannedForDeletions &&
    round < MAX_ROUNDS &&
    read.deletionMark !== undefined &&
    (await run.options.deletions?.arrivedSince(read.deletionMark))
  ) {
    // Deletions came while the disk was read (an `rm -rf` under way): the guard judges the whole.
    run.log({ level: 'debug', message: `round ${round}: local deletions came meanwhile; planning again` });
    run.replannedForDeletions = true;
    run.wholeTree = true;
    return 'next-round';
  }
  return planned.operations.length === 0 ? 'pass-done' : 'execute';
}
