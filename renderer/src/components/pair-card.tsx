// One folder pair on the status view: state, progress, last sync, and pause/resume, sync now, open folder.
import { FolderOpen, Pause, Play, RefreshCw } from 'lucide-preact';
import type { JSX } from 'preact';
import type { PairView } from '../../../common/contract.ts';
import { baseName, formatCount, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { PairProgress } from './pair-progress.tsx';
import { PairState } from './pair-state.tsx';
import { useAction } from './use-action.ts';

export function PairCard({ pair }: { pair: PairView }): JSX.Element {
  const { pairs, core } = useStores();
  const name = baseName(pair.localRoot);
  const headingId = `pair-${pair.id}`;
  const action = useAction((work: () => Promise<unknown>) => work());
  return (
    <article class="card pair" aria-labelledby={headingId}>
      <header class="pair-head">
        <h2 id={headingId}>{name}</h2>
        {/* Polite: a change of state is said once, the numbers below are not read as they move. */}
        <span aria-live="polite">
          <PairState state={pair.state} />
        </span>
      </header>
      <dl class="pair-paths">
        <dt>On this computer</dt>
        <dd>{pair.localRoot}</dd>
        <dt>On the device</dt>
        <dd>{pair.remoteFolder}</dd>
      </dl>
      {pair.detail !== null && <p class="pair-detail">{pair.detail}</p>}
      {pair.progress !== null && <PairProgress progress={pair.progress} name={name} />}
      {pair.hold !== null && (
        <p class="note note-warn">
          <span>
            {pair.hold.advice} <a href="#issues">Review the deletes</a>
          </span>
        </p>
      )}
      <p class="muted pair-summary">
        {pair.lastSyncAtMs === null ? (
          'Not synced yet'
        ) : (
          <>
            Last synced <time dateTime={isoTime(pair.lastSyncAtMs)}>{formatWhen(pair.lastSyncAtMs)}</time>
          </>
        )}
        {' · '}
        {formatCount(pair.itemsSynced, 'item', 'items')} synced
        {pair.issueCount > 0 && (
          <>
            {' · '}
            <a href="#issues">{formatCount(pair.issueCount, 'issue', 'issues')}</a>
          </>
        )}
      </p>
      <div class="actions">
        {pair.paused ? (
          <button
            type="button"
            class="button"
            disabled={action.busy}
            onClick={() => void action.run(() => pairs.resume(pair.id))}
          >
            <Play />
            Resume
          </button>
        ) : (
          <button
            type="button"
            class="button"
            disabled={action.busy}
            onClick={() => void action.run(() => pairs.pause(pair.id))}
          >
            <Pause />
            Pause
          </button>
        )}
        <button
          type="button"
          class="button"
          disabled={action.busy || pair.paused}
          onClick={() => void action.run(() => pairs.syncNow(pair.id))}
        >
          <RefreshCw />
          Sync now
        </button>
        <button
          type="button"
          class="button"
          onClick={() => void action.run(() => core.invoke('shell:openPath', { path: pair.localRoot }))}
        >
          <FolderOpen />
          Open folder
        </button>
      </div>
      <ErrorNote error={action.error} />
    </article>
  );
}
