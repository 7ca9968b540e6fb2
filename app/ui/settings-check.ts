// The settings the window may not save, refused in words before anything is written: a poll interval out of range, ignore rules with a line that cannot be read.
import type { SettingsView } from '../../common/contract.ts';
import { ignoreRuleProblems } from './ignore-check.ts';
import { WindowError } from './ui-errors.ts';

/** How often the device may be asked for changes, in seconds: not more than every 10 s, at least hourly. */
export const POLL_SECONDS = { min: 10, max: 3600 } as const;

/** Throws SETTING_INVALID, saying what is wrong and what to write instead; nothing is saved then. */
export function checkSettingsChange(change: Partial<SettingsView>): void {
  const poll = change.pollIntervalSeconds;
  if (poll !== undefined && (!Number.isInteger(poll) || poll < POLL_SECONDS.min || poll > POLL_SECONDS.max)) {
    throw new WindowError(
      'SETTING_INVALID',
      'Interval not saved',
      `Ask the device every ${POLL_SECONDS.min} to ${POLL_SECONDS.max.toLocaleString('en-US')} seconds (an hour), in whole seconds; ${String(poll)} is ${poll < POLL_SECONDS.min ? 'too short' : poll > POLL_SECONDS.max ? 'too long' : 'not a whole number'}. The interval stays as it was.`,
    );
  }
  if (change.ignoreRules !== undefined) {
    const problems = ignoreRuleProblems(change.ignoreRules);
    const [first] = problems;
    if (first !== undefined) {
      const others = problems.length - 1;
      throw new WindowError(
        'IGNORE_RULE_INVALID',
        'Ignore rules not saved',
        `Line ${first.line} ("${first.text}") cannot be read: ${first.problem}.` +
          (others > 0
            ? ` ${others} more ${others === 1 ? 'line has' : 'lines have'} the same kind of problem.`
            : '') +
          ' Fix it and save again; the rules stay as they were.',
        {
          details: problems
            .map((problem) => `line ${problem.line}: ${problem.text} — ${problem.problem}`)
            .join('\n'),
        },
      );
    }
  }
}
