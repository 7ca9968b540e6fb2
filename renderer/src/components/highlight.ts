// Splits a search fragment into plain and matched runs from its locations (UTF-16 units, as String.slice counts).

export interface Run {
  text: string;
  matched: boolean;
}

/**
 * Locations come from the device: they are clipped to the text, sorted and merged, so a bad or
 * overlapping range can neither throw nor show a letter twice.
 */
export function highlightRuns(
  text: string,
  locations: ReadonlyArray<{ index: number; length: number }>,
): Run[] {
  const ranges = locations
    .map(({ index, length }) => [Math.max(0, index), Math.min(text.length, index + length)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const runs: Run[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) runs.push({ text: text.slice(at, from), matched: false });
    const last = runs.at(-1);
    if (last?.matched === true && from === at) last.text += text.slice(from, end);
    else runs.push({ text: text.slice(from, end), matched: true });
    at = end;
  }
  if (at < text.length) runs.push({ text: text.slice(at), matched: false });
  return runs;
}
