// "Add a folder pair": a folder on this computer (typed: a browser cannot open a native picker) and a device folder from the browser; pairs:add.
import { FolderSync } from 'lucide-preact';
import type { JSX } from 'preact';
import { useId, useState } from 'preact/hooks';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { FolderBrowser } from './folder-browser.tsx';
import { useAction } from './use-action.ts';

export function PairForm({
  onAdded,
  submitLabel,
}: {
  onAdded: () => void;
  submitLabel: string;
}): JSX.Element {
  const { pairs } = useStores();
  const [localRoot, setLocalRoot] = useState('');
  const [remoteFolder, setRemoteFolder] = useState<string | null>(null);
  const localId = useId();
  const hintId = useId();
  const add = useAction(async () => {
    await pairs.add(localRoot.trim(), remoteFolder ?? '/');
    onAdded();
  });
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
          value={localRoot}
          onInput={(event) => setLocalRoot(event.currentTarget.value)}
        />
        <p class="hint" id={hintId}>
          The full path of the folder to keep in sync, for example /home/you/MyCloud.
        </p>
      </div>
      <fieldset class="field">
        <legend>Folder on the device</legend>
        <FolderBrowser onChoose={setRemoteFolder} />
      </fieldset>
      <ErrorNote error={add.error} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={add.busy || remoteFolder === null}>
          <FolderSync />
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
