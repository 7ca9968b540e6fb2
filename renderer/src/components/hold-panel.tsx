// A pair's held deletes: what happened, the paths, and the two ways out (delete on the device too, or restore them here).
import { Trash2, Undo2 } from 'lucide-preact';
import type { JSX } from 'preact';
import type { HoldView, PairView } from '../../../common/contract.ts';
import { baseName, formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function HoldPanel({ pair, hold }: { pair: PairView; hold: HoldView }): JSX.Element {
  const { pairs } = useStores();
  const answer = useAction((work: () => Promise<void>) => work());
  const name = baseName(pair.localRoot);
  const headingId = `hold-${pair.id}`;
  const counts = [];
  if (hold.localDeletes > 0)
    counts.push(`${formatCount(hold.localDeletes, 'item', 'items')} deleted on this computer`);
  if (hold.remoteDeletes > 0)
    counts.push(`${formatCount(hold.remoteDeletes, 'item', 'items')} deleted on the device`);
  const total = hold.localDeletes + hold.remoteDeletes;
  return (
    <section class="card hold" aria-labelledby={headingId}>
      <h2 id={headingId}>Deletes waiting in {name}</h2>
      <p class="hold-reason">{hold.reason}</p>
      <p>{hold.advice}</p>
      {counts.length > 0 && <p class="muted">{counts.join('; ')}.</p>}
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
      <div class="actions">
        {hold.canRestore && (
          <button
            type="button"
            class="button primary"
            disabled={answer.busy}
            onClick={() => void answer.run(() => pairs.restore(pair.id))}
          >
            <Undo2 />
            Restore them here
          </button>
        )}
        {hold.canConfirm && (
          <button
            type="button"
            class="button danger"
            disabled={answer.busy}
            onClick={() => void answer.run(() => pairs.confirmDeletes(pair.id))}
          >
            <Trash2 />
            Delete on the device too
          </button>
        )}
      </div>
      <ErrorNote error={answer.error} />
    </section>
  );
}
