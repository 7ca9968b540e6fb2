// "Add a folder pair": a folder on this computer (typed: a browser cannot open a native picker) and a device folder, offered by the core or chosen in the browser, and which of its folders to sync or files on demand; pairs:check, then pairs:add, the only call that changes anything; Cancel leaves everything as it was.
import { FolderSync } from 'lucide-preact';
import type { JSX } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import type { PairCheckView } from '../../../common/contract.ts';
import { toUiError } from '../bridge.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { FolderBrowser, type ChosenFolder } from './folder-browser.tsx';
import { OnDemandChoice } from './on-demand-choice.tsx';
import { SelectionPreview } from './selection-preview.tsx';
import { useAction } from './use-action.ts';

export function PairForm({
  onAdded,
  onCancel,
  submitLabel,
}: {
  onAdded: () => void;
  /** Where the form can be left (settings), a Cancel that changed nothing. */
  onCancel?: () => void;
  submitLabel: string;
}): JSX.Element {
  const { pairs } = useStores();
  const [localRoot, setLocalRoot] = useState('');
  /** The device folder chosen in the browser (maybe a new one); null: the one the core offers. */
  const [chosen, setChosen] = useState<ChosenFolder | null>(null);
  /** The core's last answer, and the folder it was for. */
  const [checked, setChecked] = useState<(PairCheckView & { localRoot: string }) | null>(null);
  /** The device folders left out from the first pass, and the device folder they were chosen in. */
  const [excludedIn, setExcludedIn] = useState<{ remoteFolder: string; paths: string[] } | null>(null);
  /** Files on demand: every device file shows, none is left out (the folders' choice is hidden). */
  const [onDemand, setOnDemand] = useState(false);
  /** Answers can come back out of order: only the latest question's is shown. */
  const asked = useRef(0);
  const localId = useId();
  const hintId = useId();

  // The core decides what to offer and whether the pair overlaps another: the window only shows it.
  const check = async (local: string, remote: string | null): Promise<void> => {
    const question = (asked.current += 1);
    if (local.trim() === '') {
      setChecked(null);
      return;
    }
    let answer: PairCheckView;
    try {
      answer = await pairs.check(local.trim(), remote);
    } catch (failure) {
      answer = { remoteFolder: remote ?? '', problem: toUiError(failure) };
    }
    if (question === asked.current) setChecked({ ...answer, localRoot: local.trim() });
  };
  const add = useAction(async () => {
    // Submitted before the folder was checked (Enter in the field): ask for the folder to offer first.
    const offered = checked?.localRoot === localRoot.trim() ? checked.remoteFolder : undefined;
    const remoteFolder = chosen?.path ?? offered ?? (await pairs.check(localRoot.trim(), null)).remoteFolder;
    const left = excludedIn?.remoteFolder === remoteFolder ? excludedIn.paths : [];
    await pairs.add(localRoot.trim(), remoteFolder, left, onDemand);
    onAdded();
  });
  const remoteFolder = chosen?.path ?? checked?.remoteFolder ?? null;
  const excluded = excludedIn !== null && excludedIn.remoteFolder === remoteFolder ? excludedIn.paths : [];
  const problem = add.error ?? checked?.problem ?? null;
  return (
    <form
      class="pair-form"
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <div class="field">
        <label for={localId}>Folder on this computer</label>
        <input
          id={localId}
          name="localRoot"
          required
          autoComplete="off"
          spellcheck={false}
          placeholder="/home/you/MyCloud"
          aria-describedby={hintId}
          aria-invalid={checked !== null && checked.problem !== null}
          value={localRoot}
          onInput={(event) => {
            setLocalRoot(event.currentTarget.value);
            add.clear();
          }}
          onChange={(event) => void check(event.currentTarget.value, chosen?.path ?? null)}
        />
        <p class="hint" id={hintId}>
          The full path of the folder to keep in sync, for example /home/you/MyCloud.
        </p>
      </div>
      <fieldset class="field">
        <legend>Folder on the device</legend>
        <p class="folder-current">
          <span class="muted">Device folder: </span>
          <strong>{remoteFolder ?? '…'}</strong>
        </p>
        <p class="hint">
          {chosen === null
            ? 'A folder named after yours, made when syncing starts; or open another one below.'
            : chosen.isNew
              ? 'A new folder, made on the device when syncing starts.'
              : 'The folder opened below.'}
        </p>
        <FolderBrowser
          chosen={chosen}
          onChoose={(folder) => {
            setChosen(folder);
            add.clear();
            void check(localRoot, folder.path);
          }}
        />
      </fieldset>
      <OnDemandChoice
        checked={onDemand}
        onChange={(wanted) => {
          setOnDemand(wanted);
          add.clear();
        }}
      />
      {/* A folder made when syncing starts holds nothing to choose yet; on demand, every folder shows. */}
      {remoteFolder !== null && chosen?.isNew !== true && !onDemand && (
        <SelectionPreview
          key={remoteFolder}
          remoteFolder={remoteFolder}
          excluded={excluded}
          onChange={(paths) => setExcludedIn({ remoteFolder, paths })}
        />
      )}
      <ErrorNote error={problem} />
      <div class="actions">
        <BusyButton
          type="submit"
          class="button primary"
          busy={add.busy}
          icon={FolderSync}
          disabled={localRoot.trim() === ''}
        >
          {submitLabel}
        </BusyButton>
        {onCancel !== undefined && (
          <button type="button" class="button" disabled={add.busy} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
