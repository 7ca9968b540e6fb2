// A hold's answer while the pass that carries it out runs: the window shows it under way (and its buttons gone) from the click until that pass ends, not the old hold with live buttons.
import type { HoldAnswerView } from '../../../common/contract.ts';
import type { LiveSync } from '../../live-service/live-sync.ts';
import type { HoldReason } from '../../sync/pass-report.ts';

export type HoldChoice = HoldAnswerView['choice'];

export class PairAnswers {
  readonly #answers = new Map<string, HoldAnswerView>();
  readonly #onChange: (pairId: string) => void;

  constructor(onChange: (pairId: string) => void) {
    this.#onChange = onChange;
  }

  /**
   * Gives the answer to the pair's live sync, for the hold the user saw (`seen`; live sync refuses it
   * with HoldAnswerError when that hold is not the one standing). The answer is then under way, under
   * its button's words (`label`), until no pass runs or waits (LiveSync.whenIdle): the answered pass
   * has ended, held again or not, or failed and waits for its retry, which the buttons can then answer.
   */
  answer(
    pairId: string,
    live: LiveSync,
    given: { choice: HoldChoice; seen: HoldReason; label: string | null },
  ): void {
    const { choice, seen, label } = given;
    if (choice === 'restore') live.restore(seen);
    else live.confirmDeletes(seen);
    if (label === null) return;
    const answer: HoldAnswerView = { choice, words: `${label}: under way…` };
    this.#answers.set(pairId, answer);
    void live.whenIdle().then(() => {
      if (this.#answers.get(pairId) !== answer) return;
      this.#answers.delete(pairId);
      this.#onChange(pairId);
    });
  }

  of(pairId: string): HoldAnswerView | null {
    return this.#answers.get(pairId) ?? null;
  }

  forget(pairId: string): void {
    this.#answers.delete(pairId);
  }
}
