// A UiError in words for people: its title and what to do; its code, the technical cause and the log that has more behind a disclosure.
import { CircleAlert } from 'lucide-preact';
import type { JSX } from 'preact';
import type { UiError } from '../../../common/contract.ts';

export function ErrorNote({ error }: { error: UiError | null }): JSX.Element | null {
  if (error === null) return null;
  return (
    <div class="note note-error" role="alert">
      <CircleAlert />
      <div class="note-body">
        <p class="note-title">{error.title}</p>
        <p>{error.message}</p>
        <details class="error-details">
          <summary>Details</summary>
          <dl class="facts">
            <dt>Code</dt>
            <dd>{error.code}</dd>
            {error.details !== undefined && (
              <>
                <dt>What failed</dt>
                <dd class="path">{error.details}</dd>
              </>
            )}
            {error.logFile !== undefined && (
              <>
                <dt>Log</dt>
                <dd class="path">{error.logFile}</dd>
              </>
            )}
          </dl>
        </details>
      </div>
    </div>
  );
}
