// One folder pair on the status view: state in the core's words, the device's free space, progress, files opening on demand (or an open that failed), a hold or a new folder waiting, last sync, and pause/resume, sync now, open folder, each showing while it works; highlighted when a route points at an item in it.
import { FolderOpen, Play, RefreshCw } from 'lucide-preact';
import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import type { PairView, PauseLength } from '../../../common/contract.ts';
import { baseName, formatCount, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { PairProgress } from './pair-progress.tsx';
import { isSyncing, PairState } from './pair-state.tsx';
import { OnDemandStatus } from './on-demand-status.tsx';
import { usePointedAt } from './pointed-at.ts';
import { useAction } from './use-action.ts';
import { WaitingFolders } from './waiting-folders.tsx';
import { PauseButtons } from './pause-buttons.tsx';

/** `pointedItem`: the item in this pair a route points at ("Show in mch-sync"), null when none. */
export function PairCard({
  pair,
  pointedItem = null,
}: {
  pair: PairView;
  pointedItem?: string | null;
}): JSX.Element {
  const { pairs, core } = useStores();
  const ref = useRef<HTMLElement>(null);
  usePointedAt(ref, pointedItem !== null);
  const name = baseName(pair.localRoot);
  const headingId = `pair-${pair.id}`;
  const toggle = useAction((length?: PauseLength) =>
    pair.paused ? pairs.resume(pair.id) : pairs.pause(pair.id, length),
  );
  const syncNow = useAction(() => pairs.syncNow(pair.id));
  const metered = useAction((sync: boolean) => pairs.setMetered(pair.id, sync ? 'sync' : 'pause'));
  const open = useAction(() => core.invoke('shell:openPath', { path: pair.localRoot }));
  // A pass running (or an answer to a hold being carried out) is what "Sync now" would ask for.
  const working = isSyncing(pair.state) || pair.answering !== null;
  return (
    <article
      ref={ref}
      class={pointedItem === null ? 'card pair' : 'card pair pointed'}
      aria-labelledby={headingId}
      tabIndex={-1}
      aria-current={pointedItem === null ? undefined : 'true'}
    >
      <header class="pair-head">
        <h2 id={headingId}>{name}</h2>
        {/* Polite: a change of state is said once, the numbers below are not read as they move. */}
        <span aria-live="polite">
          <PairState pair={pair} />
        </span>
      </header>
      <dl class="pair-paths">
        <dt>On this computer</dt>
        <dd>{pair.localRoot}</dd>
        <dt>On the device</dt>
        <dd>{pair.remoteFolder}</dd>
        {/* The device's free space as the last pass read it (issue #33): an upload that cannot fit waits. */}
        {pair.deviceSpace !== undefined && pair.deviceSpace !== null && (
          <>
            <dt>Device space</dt>
            <dd>
              <span title={`checked ${isoTime(pair.deviceSpace.checkedAtMs)}`}>{pair.deviceSpace.words}</span>
            </dd>
          </>
        )}
        {(pair.onDemand ?? null) !== null && (
          <>
            <dt>Files</dt>
            <dd>On demand: downloaded when opened</dd>
          </>
        )}
      </dl>
      {pointedItem !== null && pointedItem !== pair.localRoot && (
        <p class="pair-pointed">
          In this folder: <span class="issue-path">{pointedItem.slice(pair.localRoot.length + 1)}</span>
        </p>
      )}
      {pair.detail !== null && <p class="pair-detail">{pair.detail}</p>}
      {pair.progress !== null && <PairProgress progress={pair.progress} name={name} />}
      <OnDemandStatus pair={pair} name={name} />
      {pair.answering !== null && (
        <p class="note note-busy" role="status">
          <Spinner />
          <span>{pair.answering.words}</span>
        </p>
      )}
      {pair.hold !== null && pair.answering === null && (
        <p class="note note-warn">
          <span>
            {pair.hold.title}: nothing changes until you choose. <a href="#issues">See what and choose</a>
          </span>
        </p>
      )}
      <WaitingFolders pair={pair} />
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
          <BusyButton busy={toggle.busy} icon={Play} onClick={() => void toggle.run()}>
            Resume
          </BusyButton>
        ) : (
          <PauseButtons busy={toggle.busy} label="Pause" pause={(length) => void toggle.run(length)} />
        )}
        <BusyButton
          busy={syncNow.busy}
          icon={RefreshCw}
          disabled={pair.paused || working}
          onClick={() => void syncNow.run()}
        >
          {working ? 'Syncing…' : 'Sync now'}
        </BusyButton>
        <BusyButton busy={open.busy} icon={FolderOpen} onClick={() => void open.run()}>
          Open folder
        </BusyButton>
      </div>
      {pair.onMetered !== undefined && (
        <div class="check">
          <input
            id={`metered-${pair.id}`}
            type="checkbox"
            checked={pair.onMetered === 'sync'}
            disabled={metered.busy}
            onChange={(event) => void metered.run(event.currentTarget.checked)}
          />
          <label for={`metered-${pair.id}`}>Sync on metered networks (a phone’s hotspot)</label>
        </div>
      )}
      <ErrorNote error={toggle.error ?? syncNow.error ?? open.error ?? metered.error} />
    </article>
  );
}
