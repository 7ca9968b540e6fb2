// The tray's words for files on demand: files downloading because a program opened them ("Opening photo.jpg for gimp… 40 %"), and an open that failed, which asks for attention while its pair's card shows it.
import type { PairView } from '../../common/contract.ts';

/** How many opening files the menu lists one by one; the rest are counted on one line. */
export const OPENING_FILES_SHOWN = 3;

/** The files downloading for programs, over every pair, in each pair's order. */
export function openingLines(pairs: readonly PairView[]): string[] {
  const words = pairs.flatMap((pair) => pair.onDemand?.opening.map((file) => file.words) ?? []);
  if (words.length <= OPENING_FILES_SHOWN) return words;
  const more = words.length - OPENING_FILES_SHOWN + 1;
  return [...words.slice(0, OPENING_FILES_SHOWN - 1), `and ${more} more files opening…`];
}

/** One line for the tooltip: the file opening, or how many are. Null when none is. */
export function openingSummary(pairs: readonly PairView[]): string | null {
  const lines = pairs.flatMap((pair) => pair.onDemand?.opening.map((file) => file.words) ?? []);
  if (lines.length === 0) return null;
  return lines.length === 1 ? (lines[0] ?? null) : `Opening ${lines.length} files…`;
}

/** The opens that failed lately, newest first, in the core's words ("Could not open report.pdf: …"). */
export function openFailures(pairs: readonly PairView[]): Array<{ pairId: string; words: string }> {
  return pairs
    .flatMap((pair) =>
      pair.onDemand?.lastFailure ? [{ pairId: pair.id, ...pair.onDemand.lastFailure }] : [],
    )
    .sort((a, b) => b.atMs - a.atMs)
    .map(({ pairId, words }) => ({ pairId, words }));
}
