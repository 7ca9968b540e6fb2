// An answer that finds no hold to answer, or another one than the user saw: refused, nothing changed.
import { MchError } from '../../common/errors.ts';

/**
 * `NOT_HELD`: the pair waits for no answer (the hold ended, or never was); `HOLD_CHANGED`: it waits for
 * another answer than the one given (the card was read before a folder was replaced, say). Either way
 * no pass goes ahead with it: a confirm must never reach a hold its user did not read.
 */
export type HoldAnswerErrorCode = 'NOT_HELD' | 'HOLD_CHANGED';

export class HoldAnswerError extends MchError {
  declare readonly code: HoldAnswerErrorCode;

  constructor(code: HoldAnswerErrorCode, message: string) {
    super(code, code === 'NOT_HELD' ? 'Nothing to answer' : 'The question changed', message);
  }
}
