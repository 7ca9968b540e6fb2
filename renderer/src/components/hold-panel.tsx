// A pair that waits for the user (held deletes, a changed folder or device): what happened, the paths, and the ways out.
import { Trash2, Undo2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { HoldView, PairView } from '../../../common/contract.ts';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function HoldPanel({ pair, hold }: { pair: PairView; hold: HoldView }): JSX.Element {
  const { pairs } = useStores();
  const answer = useAction((work: () => Promise<void>) => work());
  // The answer that deletes is asked again, saying what it deletes.
  const [asking, setAsking] = useState(false);
  const name = baseName(pair.localRoot);
  const headingId = `hold-${pair.id}`;
  // One message: the advice says what happened, which way and how many (a second line of counts, in
  // other words, read as another message and once said the sides the wrong way round).
  const total = hold.localDeletes + hold.remoteDeletes;
  return (
    <section class="card hold" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {hold.title}: {name}
      </h2>
      <p>{hold.advice}</p>
      {hold.paths.length > 0 && (
        <details class="hold-paths">
          <summary>
            See the list (
            {hold.paths.length < total ? `first ${hold.paths.length} of ${total}` : hold.paths.length})
          </summary>
          <ul>
            {hold.paths.map((path) => (
              <li key={path}>{path}</li>
            ))}
          </ul>
        </details>
      )}
      <div class="actions">
        {hold.restoreLabel !== null && (
          <button
            type="button"
            class="button primary"
            disabled={answer.busy}
            onClick={() => void answer.run(() => pairs.restore(pair.id, hold.reason))}
          >
            <Undo2 />
            {hold.restoreLabel}
          </button>
        )}
        {hold.confirmLabel !== null && !asking && (
          <button type="button" class="button danger" disabled={answer.busy} onClick={() => setAsking(true)}>
            <Trash2 />
            {hold.confirmLabel}
          </button>
        )}
      </div>
      {asking && (
        <div class="hold-question" role="group" aria-label={hold.confirmLabel ?? 'Confirm'}>
          <p>{hold.confirmQuestion}</p>
          <div class="actions">
            <button
              type="button"
              class="button danger"
              disabled={answer.busy}
              onClick={() => void answer.run(() => pairs.confirmDeletes(pair.id, hold.reason))}
            >
              <Trash2 />
              Yes, delete
            </button>
            <button type="button" class="button" disabled={answer.busy} onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={answer.error} />
    </section>
  );
}
