// One pass as its rounds share it: what it took at its start (read only) and what its rounds found so far.
import type { DeviceRoom } from '../guards/device-room.ts';
import type { EngineLogLine, SyncOptions } from '../engine-options.ts';
import { emptyCounts, type PassReport } from '../pass-report.ts';
import type { DeleteTally } from '../guards/delete-run.ts';
import type { HoldAnswer } from '../guards/folder-check.ts';
import type { SettledRecord, StandingIssues } from './quiet-pass.ts';
import type { PassSelection } from '../selection/selection-keeper.ts';

export interface PassRun {
  // Taken at the start, the same for every round.
  readonly options: SyncOptions;
  readonly answer: HoldAnswer;
  readonly remoteRootId: string;
  /** What the last settled pass left skipped; undefined: something is left to retry, look at everything. */
  readonly standingIssues: StandingIssues | undefined;
  /**
   * The last settled pass's record, taken (deleted from the index) for the first round's quiet check;
   * none when the selection changed.
   */
  readonly settled: SettledRecord | undefined;
  /** The device's free space read for this pass, which holds uploads that cannot fit (issue #33). */
  readonly room: DeviceRoom;
  /** The pair's selection as the pass read it, and what the index was made to match of it. */
  readonly selection: PassSelection;
  /** The first round may end as a quiet pass: no intents a crash left, no newly kept placeholders. */
  readonly quietCheck: boolean;
  /** An on-demand pair's kept items (`keptVersion`); other than the last synced pass's: a whole pass. */
  readonly kept: string | undefined;
  /** The deletes of the passes just before, and this pass's own so far (delete-run.ts). */
  readonly tally: DeleteTally;
  readonly log: (line: EngineLogLine) => void;
  /** Filled in round by round; the pass returns it. */
  readonly report: PassReport;

  // Changed by the rounds.
  /** How many of `report.issues` (at the start) the last scan found. */
  fromScan: number;
  /** Whether the last round carried out operations. */
  executed: boolean;
  /** A scoped round found the folder emptied: the next round looks at everything, so the hold applies. */
  wholeTree: boolean;
  /** A round planned again once because local deletions came while it read the disk. */
  replannedForDeletions: boolean;
  /**
   * The last round left a kept placeholder moved on both sides (kept-placeholders.ts): another round
   * brings it down, and a pass that ends so makes the next one plan.
   */
  keptDeferred?: boolean;
}

/** The report of a pass that starts now: synced until a round says otherwise. */
export function newPassReport(startedAtMs: number): PassReport {
  return {
    status: 'synced',
    counts: emptyCounts(),
    issues: [],
    hold: null,
    rounds: 0,
    operations: {},
    startedAtMs,
    finishedAtMs: startedAtMs,
  };
}

/** The user's answer to a hold, as the pass's options give it. */
export function holdAnswerOf(options: SyncOptions): HoldAnswer {
  return {
    confirmDeletes: options.confirmDeletes === true,
    restore: options.restore === true,
    answers: options.answers,
  };
}

/** Re-planning rounds in one pass after operations met a changed state (412, a local edit). */
export const MAX_ROUNDS = 4;

/** How a round ends: the pass is over, or another round looks again. */
export type RoundEnd = 'pass-done' | 'next-round';
