// A UiError in words for people: its title and what to do, the code on a details line.
import { CircleAlert } from 'lucide-preact';
import type { JSX } from 'preact';
import type { UiError } from '../../../common/contract.ts';

export function ErrorNote({ error }: { error: UiError | null }): JSX.Element | null {
  if (error === null) return null;
  return (
    <div class="note note-error" role="alert">
      <CircleAlert />
      <div>
        <p class="note-title">{error.title}</p>
        <p>{error.message}</p>
        <p class="details">Details: {error.code}</p>
      </div>
    </div>
  );
}
