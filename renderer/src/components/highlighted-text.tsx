// A search fragment with its matched runs in <mark>.
import type { JSX } from 'preact';
import { highlightRuns } from './highlight.ts';

export function HighlightedText(props: {
  text: string;
  locations: ReadonlyArray<{ index: number; length: number }>;
}): JSX.Element {
  return (
    <span class="fragment-text">
      {highlightRuns(props.text, props.locations).map((run, position) =>
        run.matched ? <mark key={position}>{run.text}</mark> : run.text,
      )}
    </span>
  );
}
