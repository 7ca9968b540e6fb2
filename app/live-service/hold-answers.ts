// Which hold a user's answer goes to: the one standing now, and only when it is the one the user read.
import type { HoldReason, PassHold } from '../sync/pass-report.ts';
import { HoldAnswerError } from './hold-answer-error.ts';

/**
 * The reason of the hold `hold` that an answer given after reading `seen` (undefined: whatever stands
 * now, as `mch-sync resume` whose user read it in the log or `status`) applies to. HoldAnswerError when
 * there is no hold, or another: an answer never reaches a hold its user did not read.
 */
export function answeredHold(
  hold: PassHold | null,
  seen: HoldReason | undefined,
  localRoot: string,
): HoldReason {
  const reason = hold?.reason;
  if (reason === undefined) {
    throw new HoldAnswerError(
      'NOT_HELD',
      `Live sync of ${localRoot} is not waiting for an answer: nothing was changed.`,
    );
  }
  if (seen !== undefined && seen !== reason) {
    throw new HoldAnswerError(
      'HOLD_CHANGED',
      `Live sync of ${localRoot} now waits for another answer than the one given: ` +
        `nothing was changed. Read what it says now and answer again.`,
    );
  }
  return reason;
}
