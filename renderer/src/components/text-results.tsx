// The matches of a text search, each with its highlighted fragments and actions.
import { File, Folder } from 'lucide-preact';
import type { JSX } from 'preact';
import type { SearchMatchView } from '../../../common/contract.ts';
import type { SearchedField } from '../../../common/wire/device-api.ts';
import { formatBytes } from '../../../common/units.ts';
import { formatWhen } from '../format.ts';
import { HighlightedText } from './highlighted-text.tsx';
import { ResultActions } from './result-actions.tsx';

/** device-api.md §3: the fields a text search looks in, in words. */
const FIELDS: Record<SearchedField, string> = {
  name: 'Name',
  mimeType: 'Type',
  extension: 'Extension',
  cameraMake: 'Camera make',
  cameraModel: 'Camera model',
  date: 'Date',
};

function fieldWords(field: string): string {
  return Object.hasOwn(FIELDS, field) ? FIELDS[field as SearchedField] : field;
}

export function TextResults({ matches }: { matches: SearchMatchView[] }): JSX.Element {
  return (
    <ul class="result-list" aria-label="Matches">
      {matches.map((match) => {
        const headingId = `match-${match.id}`;
        return (
          <li key={match.id} class="card result">
            <p class="result-head">
              {match.isFolder ? <Folder /> : <File />}
              <span id={headingId} class="result-name">
                {match.name}
              </span>
            </p>
            <p class="muted small result-meta">
              {match.devicePath ?? ''}
              {!match.isFolder && ` · ${formatBytes(match.size)}`}
              {match.mTimeMs !== null && ` · modified ${formatWhen(match.mTimeMs)}`}
            </p>
            {match.fragments.length > 0 && (
              <ul class="fragments" aria-label={`Where ${match.name} matched`}>
                {match.fragments.map((fragment, position) => (
                  <li key={position}>
                    {fragment.field !== null && (
                      <span class="fragment-field">{fieldWords(fragment.field)}: </span>
                    )}
                    <HighlightedText text={fragment.text} locations={fragment.locations} />
                  </li>
                ))}
              </ul>
            )}
            <ResultActions localPath={match.localPath} isFolder={match.isFolder} describedBy={headingId} />
          </li>
        );
      })}
    </ul>
  );
}
