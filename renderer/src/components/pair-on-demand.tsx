// A pair's files on demand in Settings: on, where its files are kept, its cache limit (saved to its record) and "Turn off files on demand" (asked first: every file is downloaded); or off, with "Turn on files on demand" where this computer can have them.
import { CloudDownload, CloudOff, HardDriveDownload } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { PairOnDemandView, PairView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

/** The limit as people write it, in GB (powers of 1000, as every size in mch-sync). */
const GB = 1_000_000_000;

export function PairOnDemand({ pair }: { pair: PairView }): JSX.Element {
  const onDemand = pair.onDemand ?? null;
  return (
    <div class="pair-on-demand">
      {onDemand === null ? <TurnOn pair={pair} /> : <OnDemandOn pair={pair} onDemand={onDemand} />}
    </div>
  );
}

function OnDemandOn({ pair, onDemand }: { pair: PairView; onDemand: PairOnDemandView }): JSX.Element {
  return (
    <>
      <p class="note-title">
        <CloudDownload aria-hidden="true" />
        Files on demand: on
      </p>
      <p class="hint">
        Every file of {pair.remoteFolder} shows in {pair.localRoot}; a file is downloaded when a program opens
        it.
      </p>
      {/* What is here and what is on the device only (counts, bytes, pinned) goes in this list. */}
      <dl class="facts on-demand-facts">
        <dt>The folder</dt>
        <dd>
          {onDemand.mounted === true
            ? 'Shows every file of the device'
            : onDemand.mounted === false
              ? 'Does not show the device’s files right now: see its state on the status view'
              : 'Shows the device’s files while it syncs'}
        </dd>
        <dt>Files kept in</dt>
        <dd class="path">{onDemand.cache}</dd>
      </dl>
      <CacheLimit pair={pair} limitBytes={onDemand.cacheLimitBytes} />
      <TurnOff pair={pair} />
    </>
  );
}

/**
 * "Turn off files on demand", asked first with what it means: every file of the device folder comes
 * down. The window is not held by a dialog meanwhile (it may take long): the button says it is under
 * way, and a failure shows under it.
 */
function TurnOff({ pair }: { pair: PairView }): JSX.Element {
  const { pairs } = useStores();
  const [asking, setAsking] = useState(false);
  const turnOff = useAction(() => pairs.turnOffDemand(pair.id));
  const hintId = useId();
  const name = baseName(pair.localRoot);
  return (
    <div class="turn-off-on-demand">
      <BusyButton
        class="button"
        busy={turnOff.busy}
        icon={CloudOff}
        aria-describedby={hintId}
        onClick={() => {
          turnOff.clear();
          setAsking(true);
        }}
      >
        {turnOff.busy ? 'Turning off files on demand…' : 'Turn off files on demand'}
      </BusyButton>
      <p class="hint" id={hintId}>
        {turnOff.busy
          ? `Downloading every file of ${pair.remoteFolder}; syncing of ${name} starts again when they are all here.`
          : `Keep every file of ${pair.remoteFolder} whole in ${name} again.`}
      </p>
      <ErrorNote error={turnOff.error} />
      {asking && (
        <Dialog title={`Turn off files on demand for ${name}?`} onClose={() => setAsking(false)}>
          <p>
            Every file of the device folder {pair.remoteFolder} will be downloaded to this computer, into{' '}
            <span class="path">{pair.localRoot}</span>, and kept there whole. Their total size is not known
            beforehand: make sure this disk has room for the whole device folder.
          </p>
          <p>
            Syncing of {name} pauses until every file is here. If any file cannot be downloaded (the device
            cannot be reached, the disk is full), nothing is changed and {name} stays on demand.
          </p>
          <div class="actions dialog-actions">
            <button
              type="button"
              class="button primary"
              onClick={() => {
                setAsking(false);
                void turnOff.run();
              }}
            >
              <HardDriveDownload aria-hidden="true" />
              Download every file
            </button>
            <button type="button" class="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/** "Keep at most [10] GB of opened files here": on with a size saved by its button, or off (no limit). */
function CacheLimit({ pair, limitBytes }: { pair: PairView; limitBytes: number | null }): JSX.Element {
  const { pairs } = useStores();
  const ids = { check: useId(), size: useId(), hint: useId() };
  const fallback = pairs.onDemandSupport.value?.defaultCacheLimitBytes ?? 10 * GB;
  const stored = limitBytes === null ? null : String(Number((limitBytes / GB).toFixed(3)));
  const [size, setSize] = useState(stored ?? String(fallback / GB));
  // A change made elsewhere (another window, the command line) is shown.
  useEffect(() => {
    if (stored !== null) setSize(stored);
  }, [stored]);
  const save = useAction((bytes: number | null) => pairs.cacheLimit(pair.id, bytes));
  const gigabytes = Number(size);
  const valid = size.trim() !== '' && Number.isFinite(gigabytes) && gigabytes * GB >= 1_000_000;
  return (
    <form
      class="ask-over cache-limit"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void save.run(Math.round(gigabytes * GB));
      }}
    >
      <div class="ask-over-row">
        <span class="ask-over-check">
          <input
            id={ids.check}
            type="checkbox"
            checked={limitBytes !== null}
            disabled={save.busy}
            aria-describedby={ids.hint}
            onChange={(event) =>
              void save.run(
                event.currentTarget.checked ? (valid ? Math.round(gigabytes * GB) : fallback) : null,
              )
            }
          />
          <label for={ids.check}>Keep at most</label>
        </span>
        <span class="ask-over-size">
          <input
            id={ids.size}
            type="number"
            min={0.001}
            step="any"
            inputMode="decimal"
            aria-label="Cache limit in GB"
            aria-invalid={!valid}
            disabled={limitBytes === null || save.busy}
            value={size}
            onInput={(event) => {
              setSize(event.currentTarget.value);
              save.clear();
            }}
          />
          <span aria-hidden="true">GB of opened files here</span>
          <BusyButton
            type="submit"
            class="button small"
            busy={save.busy}
            disabled={limitBytes === null || !valid || size === stored}
          >
            Save
          </BusyButton>
        </span>
      </div>
      <p class="hint" id={ids.hint}>
        {limitBytes === null
          ? 'No limit: every file opened stays on this computer.'
          : `Past ${formatBytes(limitBytes)}, the files opened longest ago go back to the device only: they still show in the folder and download again when opened.`}
      </p>
      <ErrorNote error={save.error} />
    </form>
  );
}

function TurnOn({ pair }: { pair: PairView }): JSX.Element {
  const { pairs } = useStores();
  const hintId = useId();
  const load = useAction(() => pairs.loadOnDemandSupport());
  useEffect(() => void load.run(), []);
  const turnOn = useAction(() => pairs.turnOnDemand(pair.id));
  const support = pairs.onDemandSupport.value;
  const name = baseName(pair.localRoot);
  const limit = formatBytes(support?.defaultCacheLimitBytes ?? 10 * GB);
  return (
    <>
      <p class="note-title">
        <CloudDownload aria-hidden="true" />
        Files on demand: off
      </p>
      <p class="hint" id={hintId}>
        {support === null
          ? 'Checking whether this computer can have them…'
          : support.available
            ? `Every file of ${pair.remoteFolder} is kept whole in ${name} now. With files on demand, ${name} shows every file of the device and downloads one when it is opened. The files here move into the app’s cache folder in one step (nothing is copied or lost), and up to ${limit} of those opened most recently stay on this computer. Syncing of ${name} pauses for that moment.`
            : `Not available on this computer: ${support.reason ?? ''}`}
      </p>
      {support?.available === true && (
        <BusyButton
          class="button"
          busy={turnOn.busy}
          icon={CloudDownload}
          aria-describedby={hintId}
          onClick={() => void turnOn.run()}
        >
          {turnOn.busy ? 'Turning on files on demand…' : 'Turn on files on demand'}
        </BusyButton>
      )}
      <ErrorNote error={load.error ?? turnOn.error} />
    </>
  );
}
