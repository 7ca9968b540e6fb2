// `folders add|set --ask-over SIZE|off --ask-over-files N|off`: when a new device folder waits for an answer, as given and in words.
import { formatBytes } from '../../../common/units.ts';
import type { PairSelection } from '../../model/selection.ts';
import { parseSize, type AskOver } from '../../selection/selection-change.ts';
import { SelectionError } from '../../selection/selection-errors.ts';
import { UsageError } from '../terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;

/** The thresholds of `--ask-over` and `--ask-over-files`, refused before anything changes. */
export function askOverOf(values: Values, usage: string): AskOver {
  const asked: AskOver = {};
  const bytes = values['ask-over'];
  if (bytes !== undefined) {
    try {
      asked.bytes = parseSize(String(bytes));
    } catch (error) {
      if (error instanceof SelectionError) throw new UsageError(`--ask-over: ${error.message}`, usage);
      throw error;
    }
  }
  const files = values['ask-over-files'];
  if (files !== undefined) {
    const text = String(files).trim().toLowerCase();
    const count = text === 'off' ? null : /^\d+$/.test(text) ? Number(text) : NaN;
    if (count !== null && !(Number.isSafeInteger(count) && count >= 1)) {
      throw new UsageError(
        `--ask-over-files: ${JSON.stringify(files)} is not a number of files (or off).`,
        usage,
      );
    }
    asked.files = count;
  }
  return asked;
}

export function givesAskOver(asked: AskOver): boolean {
  return asked.bytes !== undefined || asked.files !== undefined;
}

/** The thresholds in words: when a new device folder waits for an answer. */
export function askOverWords(selection: Pick<PairSelection, 'askOverBytes' | 'askOverFiles'>): string {
  const limits = [
    ...(selection.askOverBytes === null ? [] : [`over ${formatBytes(selection.askOverBytes)}`]),
    ...(selection.askOverFiles === null ? [] : [`of more than ${selection.askOverFiles} files`]),
  ];
  return limits.length === 0
    ? 'new device folders are synced whatever their size'
    : `a new device folder ${limits.join(' or ')} waits for an answer`;
}
