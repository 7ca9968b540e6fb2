// The picker of synced items to share (local:browse): folders open, items are ticked, "Share" makes one link.
import { CornerLeftUp, File, Folder, Share2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { LocalEntryView } from '../../../common/contract.ts';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function LocalPicker(props: {
  onClose: () => void;
  onShare: (paths: string[]) => Promise<boolean>;
  /** The link is being made (its call runs). */
  sharing: boolean;
}): JSX.Element {
  const { core } = useStores();
  /** The folders opened, from the pairs' list (null) down. */
  const [trail, setTrail] = useState<Array<string | null>>([null]);
  const [entries, setEntries] = useState<LocalEntryView[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const here = trail.at(-1) ?? null;
  const browse = useAction(async (path: string | null) =>
    setEntries(await core.invoke('local:browse', { path })),
  );
  useEffect(() => void browse.run(here), [here]);
  const toggle = (path: string): void =>
    setChosen((known) => (known.includes(path) ? known.filter((other) => other !== path) : [...known, path]));
  return (
    <Dialog title="Choose what to share" onClose={props.onClose} wide>
      <div class="folder-tools">
        <button
          type="button"
          class="button small"
          disabled={trail.length === 1}
          onClick={() => setTrail((known) => known.slice(0, -1))}
        >
          <CornerLeftUp />
          Up
        </button>
        <span class="picker-where">{here === null ? 'Synced folders' : here}</span>
        {browse.busy && <Spinner label="Loading" />}
      </div>
      <ErrorNote error={browse.error} />
      <ul class="picker-list" aria-label={here === null ? 'Synced folders' : `Items in ${baseName(here)}`}>
        {entries?.length === 0 && <li class="muted">Nothing here.</li>}
        {entries?.map((entry) => (
          <li key={entry.path}>
            <label class="choice">
              <input
                type="checkbox"
                checked={chosen.includes(entry.path)}
                onChange={() => toggle(entry.path)}
              />
              {entry.isFolder ? <Folder /> : <File />}
              <span class="picker-name">{entry.name}</span>
            </label>
            {entry.isFolder && (
              <button
                type="button"
                class="button small"
                aria-label={`Open ${entry.name}`}
                onClick={() => setTrail((known) => [...known, entry.path])}
              >
                Open
              </button>
            )}
          </li>
        ))}
      </ul>
      <div class="actions dialog-actions">
        <button type="button" class="button" disabled={props.sharing} onClick={props.onClose}>
          Cancel
        </button>
        <BusyButton
          class="button primary"
          busy={props.sharing}
          icon={Share2}
          disabled={chosen.length === 0}
          onClick={() => void props.onShare(chosen)}
        >
          {chosen.length > 1 ? `Share ${chosen.length} items` : 'Share'}
        </BusyButton>
      </div>
    </Dialog>
  );
}
