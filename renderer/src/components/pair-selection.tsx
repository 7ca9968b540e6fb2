// A pair's selective sync in Settings: the device folder tree (unchecking asks what becomes of the copy here, checking brings the folder down) and when to ask before syncing a new folder.
import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { PairView, SelectionFolderView } from '../../../common/contract.ts';
import { formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { LeaveOutDialog } from './leave-out-dialog.tsx';
import { SelectionTree, type SelectionSource } from './selection-tree.tsx';
import { useAction } from './use-action.ts';

/** The threshold as people write it, in MB (powers of 1000, as every size in mch-sync). */
const MB = 1_000_000;
/** What "ask" means when it is turned on again: Nextcloud's 500 MB, the pair's default. */
const DEFAULT_ASK_OVER_MB = 500;

export function PairSelection({ pair }: { pair: PairView }): JSX.Element {
  const { pairs } = useStores();
  const [refresh, setRefresh] = useState(0);
  const [leaving, setLeaving] = useState<SelectionFolderView | null>(null);
  const [busyPath, setBusyPath] = useState<string | null>(null);
  const include = useAction(async (folder: SelectionFolderView) => {
    setBusyPath(folder.path);
    try {
      await pairs.changeSelection({ pairId: pair.id, path: folder.path, include: true, localCopy: null });
    } finally {
      setBusyPath(null);
      setRefresh((count) => count + 1);
    }
  });
  const source: SelectionSource = {
    root: pair.remoteFolder,
    list: (path) => pairs.selectionOf(pair.id, path),
    opensExcluded: true,
  };
  // A pass ended (a folder checked has come down, one unchecked has gone): the sizes shown are listed
  // again, when the pairs:changed that says so arrives (never while a pass moves files).
  const passEnd = `${pair.lastSyncAtMs ?? ''} ${pair.state === 'idle' ? 'idle' : 'busy'}`;
  const seen = useRef(passEnd);
  useEffect(() => {
    if (seen.current === passEnd) return;
    seen.current = passEnd;
    if (pair.state === 'idle') setRefresh((count) => count + 1);
  }, [passEnd]);
  const excluded = pair.selection?.excluded ?? 0;
  return (
    <div class="pair-selection">
      <p class="hint">
        Checked folders are synced with this computer; an unchecked one stays on the device only.{' '}
        {excluded > 0 && `${formatCount(excluded, 'folder is', 'folders are')} left out now.`}
      </p>
      <SelectionTree
        source={source}
        busyPath={busyPath}
        refresh={refresh}
        onToggle={(folder, wanted) => {
          include.clear();
          if (wanted) void include.run(folder);
          else setLeaving(folder);
        }}
      />
      <ErrorNote error={include.error} />
      {leaving !== null && (
        <LeaveOutDialog
          pairId={pair.id}
          remoteFolder={pair.remoteFolder}
          folder={leaving}
          onDone={() => setRefresh((count) => count + 1)}
          onClose={() => setLeaving(null)}
        />
      )}
      {pair.selection !== null && <AskOver pair={pair} askOverBytes={pair.selection.askOverBytes} />}
    </div>
  );
}

/** "Ask before syncing new folders larger than [500] MB": off, or on with a size saved by its button. */
function AskOver({ pair, askOverBytes }: { pair: PairView; askOverBytes: number | null }): JSX.Element {
  const { pairs } = useStores();
  const ids = { check: useId(), size: useId(), hint: useId() };
  const stored = askOverBytes === null ? null : String(Number((askOverBytes / MB).toFixed(3)));
  const [size, setSize] = useState(stored ?? String(DEFAULT_ASK_OVER_MB));
  // A change made elsewhere (another window, the command line) is shown.
  useEffect(() => {
    if (stored !== null) setSize(stored);
  }, [stored]);
  const save = useAction((bytes: number | null) => pairs.askOver(pair.id, bytes));
  const megabytes = Number(size);
  const valid = size.trim() !== '' && Number.isFinite(megabytes) && megabytes * MB >= 1;
  return (
    <form
      class="ask-over"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void save.run(Math.round(megabytes * MB));
      }}
    >
      <div class="ask-over-row">
        <span class="ask-over-check">
          <input
            id={ids.check}
            type="checkbox"
            checked={askOverBytes !== null}
            disabled={save.busy}
            aria-describedby={ids.hint}
            onChange={(event) =>
              void save.run(
                event.currentTarget.checked
                  ? Math.round((valid ? megabytes : DEFAULT_ASK_OVER_MB) * MB)
                  : null,
              )
            }
          />
          <label for={ids.check}>Ask before syncing new folders larger than</label>
        </span>
        <span class="ask-over-size">
          <input
            id={ids.size}
            type="number"
            min={0.001}
            step="any"
            inputMode="decimal"
            aria-label="Size in MB"
            aria-invalid={!valid}
            disabled={askOverBytes === null || save.busy}
            value={size}
            onInput={(event) => {
              setSize(event.currentTarget.value);
              save.clear();
            }}
          />
          <span aria-hidden="true">MB</span>
          <BusyButton
            type="submit"
            class="button small"
            busy={save.busy}
            disabled={askOverBytes === null || !valid || size === stored}
          >
            Save
          </BusyButton>
        </span>
      </div>
      <p class="hint" id={ids.hint}>
        A new folder on the device that holds more (its files, as the device lists them) waits for your answer
        on the status view before anything of it comes down.
      </p>
      <ErrorNote error={save.error} />
    </form>
  );
}
