// A pair's versions in Settings: how much room they take, how long they are kept and within what size, who wins a conflict, and "Clear versions" (asked first).
import { Eraser, History, Save } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { ConflictPolicyView, PairVersionsView, PairView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { baseName, formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

/** Sizes as people write them, in GB (powers of 1000, as every size in mch-sync). */
const GB = 1_000_000_000;

const POLICIES: ReadonlyArray<{ value: ConflictPolicyView; words: string; hint: string }> = [
  {
    value: 'ask',
    words: 'Ask, and keep both meanwhile',
    hint: 'Both versions stay, side by side, until you choose under Issues.',
  },
  { value: 'newer', words: 'The newer change wins', hint: 'The version changed last keeps the name.' },
  { value: 'this', words: 'This computer wins', hint: 'This computer’s version keeps the name.' },
  { value: 'device', words: 'The device wins', hint: 'The device’s version keeps the name.' },
];

export function PairVersions({ pair }: { pair: PairView }): JSX.Element {
  const { core } = useStores();
  const [view, setView] = useState<PairVersionsView | null>(null);
  const load = useAction(async () => setView(await core.invoke('versions:usage', { pairId: pair.id })));
  // What a pass kept or thinned shows when pairs:changed says one ended.
  useEffect(() => void load.run(), [pair.id, pair.lastSyncAtMs]);
  return (
    <div class="pair-versions">
      <p class="note-title">
        <History aria-hidden="true" />
        Versions
      </p>
      <p class="hint">
        What syncing replaces or deletes on this computer is kept first, so it can be restored: a file the
        device changed or deleted, and the version that lost a conflict.
      </p>
      <ErrorNote error={load.error} />
      {view === null ? (
        load.busy && (
          <p class="note note-busy" role="status">
            <Spinner />
            <span>Reading the versions kept…</span>
          </p>
        )
      ) : (
        <>
          <VersionsUse view={view} />
          <PolicyForm view={view} onSaved={setView} />
          <ClearVersions pair={pair} view={view} onCleared={setView} />
        </>
      )}
    </div>
  );
}

function VersionsUse({ view }: { view: PairVersionsView }): JSX.Element {
  const cap = view.capBytes ?? view.defaultCapBytes;
  const id = useId();
  return (
    <div class="versions-use">
      <p id={id}>
        {view.count === 0
          ? 'No versions are kept now.'
          : `${formatCount(view.count, 'version', 'versions')} kept: ${formatBytes(view.bytes)} of ${formatBytes(cap)}.`}
      </p>
      <progress aria-labelledby={id} max={cap} value={Math.min(view.bytes, cap)} />
    </div>
  );
}

function PolicyForm({
  view,
  onSaved,
}: {
  view: PairVersionsView;
  onSaved: (view: PairVersionsView) => void;
}): JSX.Element {
  const { core } = useStores();
  const ids = {
    days: useId(),
    own: useId(),
    size: useId(),
    policy: useId(),
    hint: useId(),
    defaults: useId(),
  };
  const storedSize = view.capBytes === null ? null : String(Number((view.capBytes / GB).toFixed(3)));
  const [days, setDays] = useState(String(view.keepDays));
  const [ownCap, setOwnCap] = useState(view.capBytes !== null);
  // The default offered as the words above say it (formatBytes: whole GB from 10 on).
  const defaultGb = view.defaultCapBytes / GB;
  const [size, setSize] = useState(
    storedSize ?? String(defaultGb >= 10 ? Math.round(defaultGb) : Number(defaultGb.toFixed(1))),
  );
  const [policy, setPolicy] = useState<ConflictPolicyView>(view.conflicts);
  const save = useAction(async () => {
    onSaved(
      await core.invoke('versions:settings', {
        pairId: view.pairId,
        keepDays: Number(days),
        capBytes: ownCap ? Math.round(Number(size) * GB) : null,
        conflicts: policy,
      }),
    );
  });
  const daysValid = /^\d+$/.test(days.trim()) && Number(days) >= 1 && Number(days) <= 3650;
  const sizeValid = !ownCap || (Number.isFinite(Number(size)) && Number(size) * GB >= 1_000_000);
  const changed =
    Number(days) !== view.keepDays ||
    ownCap !== (view.capBytes !== null) ||
    (ownCap && size !== storedSize) ||
    policy !== view.conflicts;
  const chosen = POLICIES.find((candidate) => candidate.value === policy);
  return (
    <form
      class="versions-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (daysValid && sizeValid) void save.run();
      }}
    >
      <div class="field versions-days">
        <label for={ids.days}>Keep versions for</label>
        <span class="inline-unit">
          <input
            id={ids.days}
            type="number"
            min={1}
            max={3650}
            inputMode="numeric"
            aria-invalid={!daysValid}
            aria-describedby={ids.days + '-unit'}
            value={days}
            onInput={(event) => setDays(event.currentTarget.value)}
          />
          <span id={ids.days + '-unit'}>days</span>
        </span>
      </div>
      <fieldset class="versions-cap">
        <legend>Room they may take</legend>
        <label class="choice">
          <input type="radio" name={ids.own} checked={!ownCap} onChange={() => setOwnCap(false)} />
          <span id={ids.defaults}>Default: {view.defaultCapWords}</span>
        </label>
        <span class="choice">
          <input id={ids.own} type="radio" name={ids.own} checked={ownCap} onChange={() => setOwnCap(true)} />
          <label for={ids.own}>At most</label>
          <input
            id={ids.size}
            type="number"
            min={0.001}
            step="any"
            inputMode="decimal"
            aria-label="Room for versions in GB"
            aria-invalid={!sizeValid}
            disabled={!ownCap}
            value={size}
            onInput={(event) => setSize(event.currentTarget.value)}
          />
          <span aria-hidden="true">GB</span>
        </span>
        <p class="hint">Past it, the oldest versions go first.</p>
      </fieldset>
      <div class="field">
        <label for={ids.policy}>When a file changed here and on the device</label>
        <select
          id={ids.policy}
          value={policy}
          aria-describedby={ids.hint}
          onChange={(event) => setPolicy(event.currentTarget.value as ConflictPolicyView)}
        >
          {POLICIES.map((candidate) => (
            <option key={candidate.value} value={candidate.value}>
              {candidate.words}
            </option>
          ))}
        </select>
        <p class="hint" id={ids.hint}>
          {chosen?.hint} The other version is always kept as a version. Applies to new conflicts.
        </p>
      </div>
      <BusyButton
        type="submit"
        class="button small"
        icon={Save}
        busy={save.busy}
        disabled={!changed || !daysValid || !sizeValid}
      >
        Save
      </BusyButton>
      <ErrorNote error={save.error} />
    </form>
  );
}

/** "Clear versions", asked first: what goes for good, and that the synced files stay as they are. */
function ClearVersions({
  pair,
  view,
  onCleared,
}: {
  pair: PairView;
  view: PairVersionsView;
  onCleared: (view: PairVersionsView) => void;
}): JSX.Element {
  const { core } = useStores();
  const [asking, setAsking] = useState(false);
  const clear = useAction(async () => {
    onCleared(await core.invoke('versions:clear', { pairId: pair.id }));
    setAsking(false);
  });
  const name = baseName(pair.localRoot);
  return (
    <div class="versions-clear">
      <button
        type="button"
        class="button small danger-quiet"
        disabled={view.count === 0}
        onClick={() => {
          clear.clear();
          setAsking(true);
        }}
      >
        <Eraser aria-hidden="true" />
        Clear versions
      </button>
      {asking && (
        <Dialog title={`Clear the versions of ${name}?`} onClose={() => setAsking(false)}>
          <p>
            The {formatCount(view.count, 'version', 'versions')} kept ({formatBytes(view.bytes)}) are removed
            for good, and nothing of {name} is left under Recently deleted.
          </p>
          <p>The synced files of {name} stay as they are, here and on the device.</p>
          <ErrorNote error={clear.error} />
          <div class="actions dialog-actions">
            <button type="button" class="button" disabled={clear.busy} onClick={() => setAsking(false)}>
              Cancel
            </button>
            <BusyButton
              class="button danger"
              busy={clear.busy}
              icon={Eraser}
              onClick={() => void clear.run()}
            >
              Clear versions
            </BusyButton>
          </div>
        </Dialog>
      )}
    </div>
  );
}
